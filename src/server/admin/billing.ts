/**
 * The back-office's billing tools (role `admin`): the legal documents found by number, buyer,
 * year and kind, each with its PDF; the gifts sold and where they stand (never their code); and
 * the accountant's export of a period as a French Excel CSV.
 *
 * As everywhere in the back-office, every function checks again that the acting user is an
 * administrator (the pages already answer 404 to anyone else). Nothing here writes: documents
 * are append-only, and the PDF served is the stored one (billing/service.ts renders and stores
 * it first if its job has not run yet).
 */
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { z } from 'zod';
import { findGiftOffer } from '../../config/catalog';
import type { DocumentContent } from '../billing/content';
import { storedPdf } from '../billing/service';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import type { DocumentKind } from '../db/database';
import {
  documentBuyers,
  documentById,
  documentsOfOrders,
  documentYears,
  type DocumentFilter,
  type DocumentListRow,
  exportBatch,
  listDocuments,
} from './billing-repository';
import { GIFT_STATES, giftState, giftStateCounts, type GiftListRow, type GiftState, listGifts } from '../gifts/public';
import { csvAmount, type CsvCell, csvDocument, csvRate, csvText } from '../http/csv';
import { adminOf, NOT_ADMIN } from './service';

export type { DocumentListRow, GiftListRow, GiftState };
export { GIFT_STATES };

type Deps = Pick<ServerDeps, 'db' | 'clock'>;
const PARIS = 'Europe/Paris';

/** Documents shown for one search. */
export const DOCUMENTS_LIMIT = 100;
/** Gifts shown for one state. */
export const GIFTS_LIMIT = 200;

export const DOCUMENT_KINDS: readonly DocumentKind[] = ['invoice', 'credit_note', 'receipt', 'statement'];
export const DOCUMENT_KIND_LABELS: Record<DocumentKind, string> = {
  invoice: 'Facture',
  credit_note: 'Avoir',
  receipt: 'Reçu de don',
  statement: 'Récapitulatif annuel',
};

// ---------------------------------------------------------------------------------------------
// Documents

/** The series' prefixes, as typed in a search: « F-000042 », « av 12 », « RD000003 ». */
const NUMBER_QUERY = /^(?:(F|AV|RD|RA)\s*[-‐‑–—_/.]?\s*)?(?:n[°o]\s*)?0*(\d{1,9})$/i;

/** « F-000042 », « F 42 », « 42 » (every series), or undefined when the text is not a number. */
export function parseDocumentNumber(text: string): { series?: string; number: number } | undefined {
  const match = NUMBER_QUERY.exec(text.trim());
  if (!match) return undefined;
  const number = Number(match[2]);
  return match[1] ? { series: match[1].toUpperCase(), number } : { number };
}

/** Case and accents ignored: « lefevre » finds « Lefèvre ». */
const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export interface DocumentSearch {
  /** A number (« F-000042 », « 42 ») or a buyer's name, company or e-mail address (or its start); empty: the latest. */
  query: string;
  year?: number | undefined;
  kind?: DocumentKind | undefined;
}

export interface DocumentSearchResult {
  documents: DocumentListRow[];
  /** More matched than are shown (the newest DOCUMENTS_LIMIT are). */
  truncated: boolean;
  /** The years that have documents, newest first (the year filter's choices). */
  years: number[];
  /** What the query was read as. */
  by: 'latest' | 'number' | 'buyer';
}

/**
 * Documents by number, or by buyer (name or company on the document, or the account's address),
 * of one year and kind when given; newest first.
 */
export async function searchDocuments(deps: Deps, adminUserId: string, search: DocumentSearch): Promise<Result<DocumentSearchResult>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  const query = search.query.replace(/\s+/g, ' ').trim();
  if (query.length > 200) return fail(422, 'Recherche trop longue : tapez un numéro, ou un nom.');
  const base: DocumentFilter = { year: search.year, kind: search.kind };
  const years = await documentYears(deps.db);
  const number = query ? parseDocumentNumber(query) : undefined;
  let filter: DocumentFilter = base;
  let by: DocumentSearchResult['by'] = 'latest';
  if (number) {
    filter = { ...base, number };
    by = 'number';
  } else if (query) {
    if (query.length < 2) return fail(422, 'Tapez au moins deux lettres du nom, ou un numéro de document.');
    const words = fold(query).split(' ');
    const address = query.toLowerCase();
    const ids: string[] = [];
    for (const row of await documentBuyers(deps.db, base)) {
      const name = fold(row.buyerName);
      if (words.every((w) => name.includes(w)) || (row.email !== null && row.email.startsWith(address))) ids.push(row.id);
      if (ids.length > DOCUMENTS_LIMIT) break;
    }
    filter = { ...base, ids };
    by = 'buyer';
  }
  const found = await listDocuments(deps.db, filter, DOCUMENTS_LIMIT + 1);
  return { ok: true, documents: found.slice(0, DOCUMENTS_LIMIT), truncated: found.length > DOCUMENTS_LIMIT, years, by };
}

/** The years that have documents, newest first. */
export async function billingYears(deps: Deps, adminUserId: string): Promise<number[]> {
  if (!(await adminOf(deps, adminUserId))) return [];
  return documentYears(deps.db);
}

/** The documents of these orders (the order list links each to its PDF). */
export async function orderDocuments(
  deps: Deps,
  adminUserId: string,
  orderIds: string[],
): Promise<Map<string, { id: string; kind: DocumentKind; label: string }[]>> {
  if (!(await adminOf(deps, adminUserId))) return new Map();
  return documentsOfOrders(deps.db, orderIds);
}

/** Any document's stored PDF, for an administrator; undefined for anyone else or an unknown id. */
export async function adminDocumentPdf(deps: Deps, adminUserId: string, documentId: string): Promise<{ bytes: Uint8Array; filename: string } | undefined> {
  if (!(await adminOf(deps, adminUserId))) return undefined;
  if (!z.uuid().safeParse(documentId).success) return undefined;
  const doc = await documentById(deps.db, documentId);
  if (!doc) return undefined;
  const bytes = await storedPdf(deps.db, doc.id, deps.clock.now());
  return bytes ? { bytes, filename: `contrechamp-${doc.label}.pdf` } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Gifts

export const GIFT_STATE_LABELS: Record<GiftState, string> = {
  pending: 'En attente du paiement',
  issued: 'Payé, pas encore remis',
  delivered: 'Remis, pas encore activé',
  activated: 'Activé',
  expired: 'Expiré sans activation',
  revoked: 'Révoqué (remboursé)',
};

export interface AdminGift extends GiftListRow {
  state: GiftState;
  /** « Abonnement offert 6 mois » */
  offerLabel: string;
}

/** Gifts sold, of one state or all, newest first; and how many there are in each state. */
export async function giftsForAdmin(
  deps: Deps,
  adminUserId: string,
  state?: GiftState,
): Promise<Result<{ gifts: AdminGift[]; truncated: boolean; counts: Record<GiftState, number> }>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  const now = deps.clock.now();
  const [rows, counts] = await Promise.all([listGifts(deps.db, state, now, GIFTS_LIMIT + 1), giftStateCounts(deps.db, now)]);
  const gifts = rows.slice(0, GIFTS_LIMIT).map((g) => ({
    ...g,
    state: giftState(g, now),
    offerLabel: `Abonnement offert ${findGiftOffer(g.offerId)?.label ?? (g.months % 12 === 0 ? `${g.months / 12} an${g.months >= 24 ? 's' : ''}` : `${g.months} mois`)}`,
  }));
  return { ok: true, gifts, truncated: rows.length > GIFTS_LIMIT, counts };
}

// ---------------------------------------------------------------------------------------------
// The accountant's export

/** `factures`: invoices and credit notes; `dons`: donation receipts. (Statements sum receipts up: not exported.) */
export type ExportContent = 'factures' | 'dons';
const EXPORT_KINDS: Record<ExportContent, DocumentKind[]> = { factures: ['invoice', 'credit_note'], dons: ['receipt'] };

export interface ExportPeriod {
  /** Paris midnight of the first day. */
  from: Date;
  /** Paris midnight after the last day (excluded). */
  to: Date;
  /** For the file name: « 2026 », « 2026-01-01_2026-03-31 ». */
  slug: string;
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const validDay = (text: string): boolean => {
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};
const nextDay = (text: string): string => new Date(new Date(`${text}T12:00:00Z`).getTime() + 24 * 3600_000).toISOString().slice(0, 10);
const parisMidnight = (text: string): Date => fromZonedTime(`${text}T00:00:00`, PARIS);

/**
 * The export asked in the address (`?contenu=factures&annee=2026`, or `&du=2026-01-01&au=2026-03-31`,
 * both days included, Paris time): the content and the period, or a French refusal.
 */
export function parseExportRequest(params: URLSearchParams): Result<{ content: ExportContent; period: ExportPeriod }> {
  const content = params.get('contenu') ?? 'factures';
  if (content !== 'factures' && content !== 'dons') return fail(422, 'Export inconnu : choisissez « Factures et avoirs » ou « Dons ».');
  const du = params.get('du')?.trim() ?? '';
  const au = params.get('au')?.trim() ?? '';
  if (du || au) {
    if (!du || !au) return fail(422, 'Indiquez les deux dates de la période, ou laissez-les vides pour exporter l’année choisie.');
    if (!day.safeParse(du).success || !day.safeParse(au).success || !validDay(du) || !validDay(au))
      return fail(422, 'Date invalide : utilisez le format jj/mm/aaaa.');
    if (du > au) return fail(422, 'La date de début doit précéder la date de fin.');
    return { ok: true, content, period: { from: parisMidnight(du), to: parisMidnight(nextDay(au)), slug: `${du}_${au}` } };
  }
  const year = Number(params.get('annee') ?? '');
  if (!Number.isInteger(year) || year < 2000 || year > 2999) return fail(422, 'Choisissez une année, ou une période (du… au…).');
  return { ok: true, content, period: { from: parisMidnight(`${year}-01-01`), to: parisMidnight(`${year + 1}-01-01`), slug: String(year) } };
}

export const EXPORT_HEADER = [
  'Numéro',
  'Type',
  'Date',
  'Acheteur',
  'Entreprise',
  'SIREN',
  'Montant HT',
  'Taux de TVA (%)',
  'TVA',
  'Montant TTC',
  'Facture annulée',
  'Commande',
  'Référence de paiement',
  'Remboursé le',
];

const EXPORT_BATCH = 1000;
const frenchDay = (iso: string): string => formatInTimeZone(new Date(iso), PARIS, 'dd/MM/yyyy');

/** One line of the export: a credit note's amounts are negative, so that a column sums to what was kept. */
function exportLine(row: Awaited<ReturnType<typeof exportBatch>>[number]): CsvCell[] {
  const content = JSON.parse(row.content) as DocumentContent;
  const sign = row.kind === 'credit_note' ? -1 : 1;
  const rates = content.totals.vat.map((v) => v.rateBp);
  return [
    csvText(row.label),
    csvText(DOCUMENT_KIND_LABELS[row.kind]),
    csvText(frenchDay(row.issuedAt)),
    csvText(content.buyer.name),
    csvText(content.buyer.business?.company ?? ''),
    csvText(content.buyer.business?.siren ?? ''),
    csvAmount(sign * content.totals.htCents),
    rates.length <= 1 ? csvRate(rates[0] ?? 0) : csvText(rates.map((r) => csvRate(r).csv).join(' / ')),
    csvAmount(sign * content.totals.vatCents),
    csvAmount(sign * content.totals.ttcCents),
    csvText(content.refersTo?.label ?? ''),
    csvText(row.orderReference ?? ''),
    csvText(row.paymentRef ?? ''),
    csvText(row.refundedAt ? frenchDay(row.refundedAt) : ''),
  ];
}

/** The CSV of a period's invoices and credit notes, or of its donation receipts, oldest first. */
export async function accountingExport(
  deps: Deps,
  adminUserId: string,
  content: ExportContent,
  period: ExportPeriod,
): Promise<Result<{ csv: string; filename: string; count: number }>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  const lines: CsvCell[][] = [];
  let after: { issuedAt: string; id: string } | null = null;
  for (;;) {
    const batch = await exportBatch(deps.db, EXPORT_KINDS[content], period.from.toISOString(), period.to.toISOString(), after, EXPORT_BATCH);
    for (const row of batch) lines.push(exportLine(row));
    if (batch.length < EXPORT_BATCH) break;
    const last = batch[batch.length - 1]!;
    after = { issuedAt: last.issuedAt, id: last.id };
  }
  return { ok: true, csv: csvDocument(EXPORT_HEADER, lines), filename: `contrechamp-${content}-${period.slug}.csv`, count: lines.length };
}
