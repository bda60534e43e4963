/**
 * Issuing the legal documents of payments, inside the transaction that records the payment (or
 * the refund): an invoice for a subscription or a gift, a receipt for a donation, a credit note
 * for a refund of an invoiced order, and each January a statement of a donor's year.
 *
 * Each document is found by its subject (`invoice:<order>`…) before one is issued, so a
 * replayed event or a second sweep issues nothing; the unique index on `subject_key` is the
 * backstop. Its number comes from the series' counter in the same transaction (numbering.ts).
 * Nothing here edits or deletes a document: the table refuses it.
 */
import type { Kysely } from 'kysely';
import { findUser } from '../auth/service';
import { catalog, formatRate } from '../../config/catalog';
import { formatSiren, formatVatNumber, PUBLISHER } from '../../config/publisher';
import { addMonths, addYears } from 'date-fns';
import { formatDate, parisYear, periodDays } from '../../lib/dates';
import { countryName } from '../../lib/countries';
import { formatEuros as formatAmount } from '../../lib/money';
import type { Database, DocumentKind } from '../db/database';
import { newId, toTimestamp } from '../db/database';
import type { BillingAddress, Order } from '../orders/public';
import type { DocumentBuyer, DocumentContent, DocumentLine, DocumentSeller, DocumentTotals, StatementLine } from './content';
import { allotNumber, formatNumber, SERIES } from './numbering';
import { formatInTimeZone } from 'date-fns-tz';

/** « 7,00 € »: a legal document always shows the cents. */
const formatEuros = (cents: number): string => formatAmount(cents, { cents: 'always' });

export interface IssuedDocument {
  id: string;
  kind: DocumentKind;
  label: string;
  /** False when it existed already (nothing was issued now). */
  created: boolean;
}

export const TITLES: Record<DocumentKind, string> = {
  invoice: 'Facture',
  credit_note: 'Avoir',
  receipt: 'Reçu de don',
  statement: 'Récapitulatif annuel des dons',
};

/** Which document a paid order of each purpose gets (shares: their certificate, elsewhere). */
export function documentKindFor(order: Pick<Order, 'purpose'>): 'invoice' | 'receipt' | null {
  if (order.purpose === 'subscription' || order.purpose === 'gift') return 'invoice';
  if (order.purpose === 'donation') return 'receipt';
  return null;
}

const isoDay = (date: Date): string => formatInTimeZone(date, 'Europe/Paris', 'yyyy-MM-dd');
export function seller(siteUrl: URL): DocumentSeller {
  const a = PUBLISHER.address;
  return {
    name: PUBLISHER.name,
    legalName: PUBLISHER.legalName,
    legalForm: PUBLISHER.legalForm,
    addressLines: [a.street, `${a.postalCode} ${a.city}`, a.country],
    siren: formatSiren(PUBLISHER.siren),
    registry: PUBLISHER.registry,
    vatNumber: formatVatNumber(PUBLISHER.vatNumber),
    email: PUBLISHER.email,
    website: siteUrl.host,
  };
}

export function addressLines(address: BillingAddress | null): string[] {
  if (!address) return [];
  return [address.line1, address.line2, `${address.postalCode} ${address.city}`.trim(), countryName(address.country || 'FR')].filter(
    (line) => line.trim() !== '',
  );
}

/**
 * Who pays, as of this order: the identity given at payment; for a renewal (which carries none),
 * the one given when the subscription was bought; failing both, the account's profile.
 */
async function buyerOf(trx: Kysely<Database>, order: Order): Promise<DocumentBuyer> {
  let name = order.billingName;
  let address = order.billingAddress;
  if (!name && order.subscriptionId) {
    const first = await trx
      .selectFrom('orders')
      .select(['billing_name', 'billing_address'])
      .where('subscription_id', '=', order.subscriptionId)
      .where('billing_name', '!=', '')
      .orderBy('created_at', 'asc')
      .executeTakeFirst();
    if (first) {
      name = first.billing_name;
      address = first.billing_address ? (JSON.parse(first.billing_address) as BillingAddress) : null;
    }
  }
  const user = order.userId ? await findUser(trx, order.userId) : undefined;
  if (!name && user) {
    name = `${user.givenName} ${user.familyName}`.trim();
    address = user.address;
  }
  const company = address?.company?.trim();
  const siren = address?.siren?.replace(/\s/g, '');
  return {
    name: name || user?.email || 'Client',
    addressLines: addressLines(address),
    business: company && siren ? { company, siren: formatSiren(siren) } : null,
    email: user?.email ?? '',
  };
}

function lineOf(order: Order, period: DocumentLine['period']): DocumentLine {
  const quantity = Math.max(1, order.quantity);
  const htCents = order.amountCents - order.vatCents;
  return {
    description: order.description,
    period,
    quantity,
    unitHtCents: Math.round(htCents / quantity),
    vatRateBp: order.vatRateBp,
    htCents,
    vatCents: order.vatCents,
    ttcCents: order.amountCents,
  };
}

function totalsOf(lines: DocumentLine[]): DocumentTotals {
  const byRate = new Map<number, { rateBp: number; baseCents: number; vatCents: number }>();
  for (const line of lines) {
    if (line.vatRateBp === 0) continue;
    const row = byRate.get(line.vatRateBp) ?? { rateBp: line.vatRateBp, baseCents: 0, vatCents: 0 };
    row.baseCents += line.htCents;
    row.vatCents += line.vatCents;
    byRate.set(line.vatRateBp, row);
  }
  const sum = (f: (l: DocumentLine) => number) => lines.reduce((n, l) => n + f(l), 0);
  return { htCents: sum((l) => l.htCents), vat: [...byRate.values()], vatCents: sum((l) => l.vatCents), ttcCents: sum((l) => l.ttcCents) };
}

/**
 * The service period printed on a paid subscription order's invoice: the order's own period (a
 * renewal's), else the first one, from the payment to the end the provider gave (`periodEnd`) or,
 * failing it, one interval later, as the subscription itself counts it (date-fns: 31 January
 * plus a month is 28 February). The end is printed inclusive, the day before the next period
 * starts (`periodDays`), so that two consecutive invoices never cover the same day. Only new
 * documents are concerned: one already issued keeps the period it was issued with.
 */
export function periodOf(order: Pick<Order, 'purpose' | 'periodStart' | 'periodEnd' | 'interval'>, paidAt: Date, periodEnd?: Date): DocumentLine['period'] {
  if (order.purpose !== 'subscription') return null;
  if (order.periodStart && order.periodEnd) return periodDays(order.periodStart, order.periodEnd);
  if (!order.interval) return null;
  const end = periodEnd && periodEnd > paidAt ? periodEnd : order.interval === 'month' ? addMonths(paidAt, 1) : addYears(paidAt, 1);
  return periodDays(paidAt, end);
}

const LATE_PAYMENT_TERMS =
  'Facture acquittée à la date d’émission ; aucun escompte pour paiement anticipé. En cas de retard de paiement, pénalités au taux d’intérêt appliqué par la Banque centrale européenne à son opération de refinancement la plus récente, majoré de 10 points, et indemnité forfaitaire pour frais de recouvrement de 40 € (Code de commerce, art. L441-10 et D441-5).';

/** Why a press subscription carries 2.1 % (or the standard rate). */
function vatNote(rateBp: number): string {
  return rateBp === 210
    ? `TVA au taux de ${formatRate(rateBp)} : service de presse en ligne reconnu par la Commission paritaire des publications et agences de presse (CGI, art. 298 septies ; CPPAP n° ${PUBLISHER.cppap}).`
    : `TVA au taux de ${formatRate(rateBp)}.`;
}

/** What a donation receipt must say: no tax reduction, and the route that gives one. */
export function donationTaxNotice(): string[] {
  const fund =
    catalog.donations.pressFundName && catalog.donations.pressFundUrl
      ? ` Pour bénéficier de la réduction d’impôt de 66 % (CGI, art. 200-1 f bis), vous pouvez donner par l’intermédiaire de ${catalog.donations.pressFundName} (${catalog.donations.pressFundUrl}), qui délivre ses propres reçus fiscaux.`
      : '';
  return [
    `Contrechamp est une entreprise de presse : un don qui lui est fait directement n’ouvre droit à aucune réduction d’impôt. Ce document est un accusé de réception numéroté ; ce n’est pas un reçu fiscal au sens de l’article 200 du Code général des impôts (modèle cerfa n° 11580).${fund}`,
    'Un don est une libéralité sans contrepartie : il n’entre pas dans le champ de la TVA.',
  ];
}

async function insertDocument(
  trx: Kysely<Database>,
  doc: {
    kind: DocumentKind;
    subjectKey: string;
    ownerId: string | null;
    orderId: string | null;
    refersToId: string | null;
    year: number;
    now: Date;
    buyerName: string;
  },
  build: (label: string) => DocumentContent,
): Promise<IssuedDocument> {
  const series = SERIES[doc.kind];
  const number = await allotNumber(trx, series);
  const label = formatNumber(series, number);
  const content = build(label);
  const id = newId();
  await trx
    .insertInto('billing_documents')
    .values({
      id,
      kind: doc.kind,
      series,
      number,
      label,
      subject_key: doc.subjectKey,
      owner_id: doc.ownerId,
      order_id: doc.orderId,
      refers_to_id: doc.refersToId,
      year: doc.year,
      issued_at: toTimestamp(doc.now),
      total_cents: content.totals.ttcCents,
      vat_cents: content.totals.vatCents,
      currency: 'EUR',
      buyer_name: doc.buyerName,
      content: JSON.stringify(content),
      created_at: toTimestamp(doc.now),
    })
    .execute();
  return { id, kind: doc.kind, label, created: true };
}

/** The document issued for a subject (`receipt:{order}`, `invoice:{order}`…), if any. */
export async function issuedFor(trx: Kysely<Database>, subjectKey: string): Promise<IssuedDocument | undefined> {
  const row = await trx.selectFrom('billing_documents').select(['id', 'kind', 'label']).where('subject_key', '=', subjectKey).executeTakeFirst();
  return row ? { id: row.id, kind: row.kind, label: row.label, created: false } : undefined;
}

/**
 * The invoice (subscription, gift) or receipt (donation) of a paid order, issued now unless it
 * exists. Undefined for a purpose that has neither (shares).
 */
export async function issueForPayment(
  trx: Kysely<Database>,
  siteUrl: URL,
  order: Order,
  context: { methodLabel: string; now: Date; periodEnd?: Date },
): Promise<IssuedDocument | undefined> {
  const kind = documentKindFor(order);
  if (!kind) return undefined;
  const subjectKey = `${kind}:${order.id}`;
  const found = await issuedFor(trx, subjectKey);
  if (found) return found;
  const paidAt = order.paidAt ?? context.now;
  const buyer = await buyerOf(trx, order);
  const line = lineOf(order, periodOf(order, paidAt, context.periodEnd));
  const totals = totalsOf([line]);
  const method =
    context.methodLabel || (order.method === 'sepa_debit' ? 'Prélèvement SEPA' : order.method === 'card' ? 'Carte bancaire' : 'Moyen de paiement enregistré');
  return insertDocument(
    trx,
    {
      kind,
      subjectKey,
      ownerId: order.userId,
      orderId: order.id,
      refersToId: null,
      year: parisYear(context.now),
      now: context.now,
      buyerName: buyer.business?.company ?? buyer.name,
    },
    (label) => ({
      version: 1,
      kind,
      title: TITLES[kind],
      label,
      issuedAt: toTimestamp(context.now),
      seller: seller(siteUrl),
      buyer,
      lines: [line],
      totals,
      payment: { at: toTimestamp(paidAt), method, reference: order.reference },
      refersTo: null,
      businessTerms: kind === 'invoice' && buyer.business ? { dueDate: isoDay(paidAt), latePaymentTerms: LATE_PAYMENT_TERMS } : null,
      statement: null,
      notes:
        kind === 'invoice'
          ? [vatNote(order.vatRateBp), `Facture acquittée le ${formatDate(paidAt)} : ${formatEuros(order.amountCents)} TTC.`]
          : donationTaxNotice(),
    }),
  );
}

/**
 * The credit note of a refunded order that was invoiced: the same lines, referring to the
 * invoice. A refunded donation gets none (its receipt stays, and the yearly statement leaves
 * it out); undefined then.
 */
export async function issueCreditNote(trx: Kysely<Database>, siteUrl: URL, order: Order, now: Date): Promise<IssuedDocument | undefined> {
  const subjectKey = `credit_note:${order.id}`;
  const found = await issuedFor(trx, subjectKey);
  if (found) return found;
  const invoiceRow = await trx.selectFrom('billing_documents').selectAll().where('subject_key', '=', `invoice:${order.id}`).executeTakeFirst();
  if (!invoiceRow) return undefined;
  const invoice = JSON.parse(invoiceRow.content) as DocumentContent;
  return insertDocument(
    trx,
    {
      kind: 'credit_note',
      subjectKey,
      ownerId: invoiceRow.owner_id,
      orderId: order.id,
      refersToId: invoiceRow.id,
      year: parisYear(now),
      now,
      buyerName: invoiceRow.buyer_name,
    },
    (label) => ({
      ...invoice,
      kind: 'credit_note',
      title: TITLES.credit_note,
      label,
      issuedAt: toTimestamp(now),
      seller: seller(siteUrl),
      payment: { at: toTimestamp(now), method: 'Remboursement sur le moyen de paiement utilisé', reference: order.reference },
      refersTo: { label: invoiceRow.label, issuedAt: invoiceRow.issued_at },
      businessTerms: null,
      notes: [
        `Cet avoir annule la facture n° ${invoiceRow.label} du ${formatDate(new Date(invoiceRow.issued_at))}. Le montant de ${formatEuros(invoiceRow.total_cents)} TTC a été remboursé le ${formatDate(now)} sur le moyen de paiement utilisé.`,
        vatNote(invoice.lines[0]?.vatRateBp ?? 0),
      ],
    }),
  );
}

/** The donations a statement sums up: paid (not refunded) donation orders of the Paris calendar year. */
export async function donationsOfYear(trx: Kysely<Database>, userId: string, year: number): Promise<StatementLine[]> {
  // Selected by the account alone (its index), the status and the year checked here: with them
  // in the query, SQLite's planner (no statistics) takes the (status, paid_at) index and walks
  // every paid order of the year for each donor, so the January run grew with donors squared.
  const rows = await trx
    .selectFrom('orders')
    .leftJoin('billing_documents as d', (join) => join.onRef('d.order_id', '=', 'orders.id').on('d.kind', '=', 'receipt'))
    .select(['orders.paid_at', 'orders.status', 'orders.description', 'orders.amount_cents', 'd.label'])
    .where('orders.user_id', '=', userId)
    .where('orders.purpose', '=', 'donation')
    .orderBy('orders.paid_at', 'asc')
    .execute();
  return rows
    .filter((r) => r.status === 'paid' && r.paid_at && parisYear(new Date(r.paid_at)) === year)
    .map((r) => ({ date: isoDay(new Date(r.paid_at!)), description: r.description, amountCents: r.amount_cents, receiptLabel: r.label }));
}

/**
 * A donor's statement of a calendar year, issued once (undefined when they gave nothing that
 * year). Sent each January (billing/service.ts).
 */
export async function issueStatement(trx: Kysely<Database>, siteUrl: URL, userId: string, year: number, now: Date): Promise<IssuedDocument | undefined> {
  const subjectKey = `statement:${userId}:${year}`;
  const found = await issuedFor(trx, subjectKey);
  if (found) return found;
  const donations = await donationsOfYear(trx, userId, year);
  if (donations.length === 0) return undefined;
  const user = await findUser(trx, userId);
  if (!user) return undefined;
  const name = `${user.givenName} ${user.familyName}`.trim() || user.email;
  const buyer: DocumentBuyer = { name, addressLines: addressLines(user.address), business: null, email: user.email };
  const total = donations.reduce((n, d) => n + d.amountCents, 0);
  return insertDocument(trx, { kind: 'statement', subjectKey, ownerId: userId, orderId: null, refersToId: null, year, now, buyerName: name }, (label) => ({
    version: 1,
    kind: 'statement',
    title: `${TITLES.statement} ${year}`,
    label,
    issuedAt: toTimestamp(now),
    seller: seller(siteUrl),
    buyer,
    lines: [],
    totals: { htCents: total, vat: [], vatCents: 0, ttcCents: total },
    payment: null,
    refersTo: null,
    businessTerms: null,
    statement: { year, donations },
    notes: [`Total des dons reçus en ${year} : ${formatEuros(total)}.`, ...donationTaxNotice()],
  }));
}
