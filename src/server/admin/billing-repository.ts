/**
 * The back-office's read-only queries on billing and gifts: documents by number, buyer, year and
 * kind; the rows of the accountant's export; gifts sold with their state. Like repository.ts, it
 * reads the tables directly (one query with its joins) and writes nothing: documents are
 * append-only anyway, and gifts change only through gifts/service.ts.
 *
 * A gift's code is never read here: neither its keyed hash nor its sealed copy are selected,
 * only `code_hint` (the last group), which tells two gifts apart and opens nothing.
 */
import type { Kysely } from 'kysely';
import type { Database, DocumentKind } from '../db/database';

/** One document as the « Factures » list shows it. */
export interface DocumentListRow {
  id: string;
  kind: DocumentKind;
  label: string;
  issuedAt: Date;
  year: number;
  totalCents: number;
  vatCents: number;
  /** The name printed on the document (the company for a business buyer). */
  buyerName: string;
  /** The account's address, while the account exists. */
  ownerEmail: string | null;
  orderId: string | null;
  /** A credit note's invoice, or an invoice's credit note. */
  related: { id: string; label: string } | null;
}

export interface DocumentFilter {
  year?: number | undefined;
  kind?: DocumentKind | undefined;
  /** Exact number, in one series or (series undefined) in all. */
  number?: { series?: string | undefined; number: number } | undefined;
  ids?: string[] | undefined;
}

/** The years that have documents, newest first. */
export async function documentYears(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('billing_documents').select('year').distinct().orderBy('year', 'desc').execute();
  return rows.map((r) => Number(r.year));
}

function filtered(db: Kysely<Database>, filter: DocumentFilter) {
  let query = db.selectFrom('billing_documents as d');
  if (filter.year !== undefined) query = query.where('d.year', '=', filter.year);
  if (filter.kind !== undefined) query = query.where('d.kind', '=', filter.kind);
  if (filter.number) {
    query = query.where('d.number', '=', filter.number.number);
    if (filter.number.series) query = query.where('d.series', '=', filter.number.series);
  }
  if (filter.ids) query = query.where('d.id', 'in', filter.ids.length > 0 ? filter.ids : ['-']);
  return query;
}

/** Documents matching the filter, newest first. */
export async function listDocuments(db: Kysely<Database>, filter: DocumentFilter, limit: number): Promise<DocumentListRow[]> {
  const rows = await filtered(db, filter)
    .leftJoin('users as u', 'u.id', 'd.owner_id')
    .leftJoin('billing_documents as invoice', 'invoice.id', 'd.refers_to_id')
    .leftJoin('billing_documents as note', (join) => join.onRef('note.refers_to_id', '=', 'd.id').on('note.kind', '=', 'credit_note'))
    .select([
      'd.id', 'd.kind', 'd.label', 'd.issued_at', 'd.year', 'd.total_cents', 'd.vat_cents', 'd.buyer_name', 'd.order_id',
      'u.email as owner_email', 'invoice.id as invoice_id', 'invoice.label as invoice_label', 'note.id as note_id', 'note.label as note_label',
    ])
    .orderBy('d.issued_at', 'desc')
    .orderBy('d.number', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    label: r.label,
    issuedAt: new Date(r.issued_at),
    year: Number(r.year),
    totalCents: Number(r.total_cents),
    vatCents: Number(r.vat_cents),
    buyerName: r.buyer_name,
    ownerEmail: r.owner_email,
    orderId: r.order_id,
    related: r.invoice_id && r.invoice_label ? { id: r.invoice_id, label: r.invoice_label } : r.note_id && r.note_label ? { id: r.note_id, label: r.note_label } : null,
  }));
}

/**
 * The names on the documents of the filter (and their account's address), newest first, for a
 * search by buyer made in the service: accents and case are ignored there, which SQLite's
 * `lower` and `like` cannot do beyond ASCII. Three short columns per document.
 */
export async function documentBuyers(db: Kysely<Database>, filter: DocumentFilter): Promise<{ id: string; buyerName: string; email: string | null }[]> {
  const rows = await filtered(db, filter)
    .leftJoin('users as u', 'u.id', 'd.owner_id')
    .select(['d.id', 'd.buyer_name', 'u.email'])
    .orderBy('d.issued_at', 'desc')
    .orderBy('d.number', 'desc')
    .execute();
  return rows.map((r) => ({ id: r.id, buyerName: r.buyer_name, email: r.email }));
}

/** One document's id, label and kind (the admin's PDF download). */
export async function documentById(db: Kysely<Database>, id: string): Promise<{ id: string; label: string; kind: DocumentKind } | undefined> {
  return db.selectFrom('billing_documents').select(['id', 'label', 'kind']).where('id', '=', id).executeTakeFirst();
}

/** One document of the accountant's export, with its order's payment. */
export interface ExportRow {
  id: string;
  kind: DocumentKind;
  label: string;
  issuedAt: string;
  content: string;
  orderId: string | null;
  /** The order's reference, as its PDF and mails print it. */
  orderReference: string | null;
  paymentRef: string | null;
  orderStatus: string | null;
  /** When the order was refunded (the refund's line in its history). */
  refundedAt: string | null;
}

/**
 * Documents of these kinds issued in [from, to), oldest first, a batch at a time: the next batch
 * starts after `after` (issued_at, id), so that a year of documents never sits in memory at once.
 */
export async function exportBatch(db: Kysely<Database>, kinds: DocumentKind[], from: string, to: string, after: { issuedAt: string; id: string } | null, limit: number): Promise<ExportRow[]> {
  let query = db
    .selectFrom('billing_documents as d')
    .leftJoin('orders as o', 'o.id', 'd.order_id')
    .select((eb) => [
      'd.id', 'd.kind', 'd.label', 'd.issued_at', 'd.content', 'd.order_id', 'o.reference', 'o.payment_ref', 'o.status',
      eb.selectFrom('order_events as e').select((e) => e.fn.min('e.at').as('at')).whereRef('e.order_id', '=', 'd.order_id').where('e.to_status', '=', 'refunded').as('refunded_at'),
    ])
    .where('d.kind', 'in', kinds)
    .where('d.issued_at', '>=', from)
    .where('d.issued_at', '<', to);
  if (after) query = query.where((eb) => eb.or([eb('d.issued_at', '>', after.issuedAt), eb.and([eb('d.issued_at', '=', after.issuedAt), eb('d.id', '>', after.id)])]));
  const rows = await query.orderBy('d.issued_at').orderBy('d.id').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    label: r.label,
    issuedAt: r.issued_at,
    content: r.content,
    orderId: r.order_id,
    orderReference: r.reference ?? null,
    paymentRef: r.payment_ref,
    orderStatus: r.status,
    refundedAt: (r.refunded_at as string | null) ?? null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Gifts

/** Where a gift stands, as the back-office filters them. */
export type GiftState = 'pending' | 'issued' | 'delivered' | 'activated' | 'expired' | 'revoked';
export const GIFT_STATES: readonly GiftState[] = ['pending', 'issued', 'delivered', 'activated', 'expired', 'revoked'];

export interface GiftListRow {
  id: string;
  orderId: string;
  offerId: string;
  months: number;
  createdAt: Date;
  issuedAt: Date | null;
  expiresAt: Date | null;
  deliverOn: string;
  deliveredAt: Date | null;
  sentCount: number;
  activatedAt: Date | null;
  activationMode: string | null;
  revokedAt: Date | null;
  codeHint: string | null;
  recipientName: string;
  recipientEmail: string | null;
  buyerName: string;
  buyerEmail: string | null;
  activatedByEmail: string | null;
  amountCents: number | null;
  invoice: { id: string; label: string } | null;
}

/**
 * The state of a gift, in this order: not paid yet; revoked (refunded before activation);
 * activated; expired unused; delivered (the recipient's mail went, or it was handed over on
 * paper); paid and waiting for its day.
 */
export function giftState(g: Pick<GiftListRow, 'issuedAt' | 'revokedAt' | 'activatedAt' | 'expiresAt' | 'deliveredAt'>, now: Date): GiftState {
  if (!g.issuedAt) return 'pending';
  if (g.revokedAt) return 'revoked';
  if (g.activatedAt) return 'activated';
  if (g.expiresAt && g.expiresAt <= now) return 'expired';
  if (g.deliveredAt) return 'delivered';
  return 'issued';
}

function giftsOfState(db: Kysely<Database>, state: GiftState | undefined, now: string) {
  const query = db.selectFrom('gifts as g');
  if (!state) return query;
  if (state === 'pending') return query.where('g.issued_at', 'is', null);
  const issued = query.where('g.issued_at', 'is not', null);
  if (state === 'revoked') return issued.where('g.revoked_at', 'is not', null);
  const standing = issued.where('g.revoked_at', 'is', null);
  if (state === 'activated') return standing.where('g.activated_at', 'is not', null);
  const unused = standing.where('g.activated_at', 'is', null);
  if (state === 'expired') return unused.where('g.expires_at', '<=', now);
  const live = unused.where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', now)]));
  return state === 'delivered' ? live.where('g.delivered_at', 'is not', null) : live.where('g.delivered_at', 'is', null);
}

/** Gifts sold (of one state), newest first. */
export async function listGifts(db: Kysely<Database>, state: GiftState | undefined, now: Date, limit: number): Promise<GiftListRow[]> {
  const rows = await giftsOfState(db, state, now.toISOString())
    .leftJoin('users as buyer', 'buyer.id', 'g.buyer_id')
    .leftJoin('users as recipient', 'recipient.id', 'g.activated_by')
    .leftJoin('orders as o', 'o.id', 'g.order_id')
    .leftJoin('billing_documents as invoice', (join) => join.onRef('invoice.order_id', '=', 'g.order_id').on('invoice.kind', '=', 'invoice'))
    .select([
      'g.id', 'g.order_id', 'g.offer_id', 'g.months', 'g.created_at', 'g.issued_at', 'g.expires_at', 'g.deliver_on', 'g.delivered_at', 'g.sent_count',
      'g.activated_at', 'g.activation_mode', 'g.revoked_at', 'g.code_hint', 'g.recipient_name', 'g.recipient_email',
      'buyer.email as buyer_email', 'buyer.given_name as buyer_given_name', 'buyer.family_name as buyer_family_name', 'o.billing_name', 'o.amount_cents',
      'recipient.email as activated_by_email', 'invoice.id as invoice_id', 'invoice.label as invoice_label',
    ])
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id')
    .limit(limit)
    .execute();
  const date = (v: string | null) => (v ? new Date(v) : null);
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    offerId: r.offer_id,
    months: Number(r.months),
    createdAt: new Date(r.created_at),
    issuedAt: date(r.issued_at),
    expiresAt: date(r.expires_at),
    deliverOn: r.deliver_on,
    deliveredAt: date(r.delivered_at),
    sentCount: Number(r.sent_count),
    activatedAt: date(r.activated_at),
    activationMode: r.activation_mode,
    revokedAt: date(r.revoked_at),
    codeHint: r.code_hint,
    recipientName: r.recipient_name,
    recipientEmail: r.recipient_email,
    // The name given at payment (the invoice's), else the account's.
    buyerName: r.billing_name || [r.buyer_given_name, r.buyer_family_name].filter(Boolean).join(' '),
    buyerEmail: r.buyer_email,
    activatedByEmail: r.activated_by_email,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    invoice: r.invoice_id && r.invoice_label ? { id: r.invoice_id, label: r.invoice_label } : null,
  }));
}

/** How many gifts are in each state. */
export async function giftStateCounts(db: Kysely<Database>, now: Date): Promise<Record<GiftState, number>> {
  const counts = Object.fromEntries(GIFT_STATES.map((s) => [s, 0])) as Record<GiftState, number>;
  for (const state of GIFT_STATES) {
    const row = await giftsOfState(db, state, now.toISOString()).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    counts[state] = Number(row?.n ?? 0);
  }
  return counts;
}

/** The documents of these orders (invoice or receipt, credit note), by order, oldest first. */
export async function documentsOfOrders(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, { id: string; kind: DocumentKind; label: string }[]>> {
  const byOrder = new Map<string, { id: string; kind: DocumentKind; label: string }[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await db.selectFrom('billing_documents').select(['id', 'kind', 'label', 'order_id']).where('order_id', 'in', orderIds).orderBy('issued_at').orderBy('number').execute();
  for (const r of rows) if (r.order_id) byOrder.get(r.order_id)?.push({ id: r.id, kind: r.kind, label: r.label });
  return byOrder;
}
