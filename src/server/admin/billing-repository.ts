/**
 * The back-office's read-only queries on billing: documents by number, buyer, year and kind; the
 * rows of the accountant's export. Like repository.ts, it reads the tables directly (one query
 * with its joins) and writes nothing: documents are append-only anyway. The gifts sold and their
 * state are the gifts domain's query (gifts/queries.ts, through gifts/public.ts).
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
      'd.id',
      'd.kind',
      'd.label',
      'd.issued_at',
      'd.year',
      'd.total_cents',
      'd.vat_cents',
      'd.buyer_name',
      'd.order_id',
      'u.email as owner_email',
      'invoice.id as invoice_id',
      'invoice.label as invoice_label',
      'note.id as note_id',
      'note.label as note_label',
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
    related:
      r.invoice_id && r.invoice_label
        ? { id: r.invoice_id, label: r.invoice_label }
        : r.note_id && r.note_label
          ? { id: r.note_id, label: r.note_label }
          : null,
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
export async function exportBatch(
  db: Kysely<Database>,
  kinds: DocumentKind[],
  from: string,
  to: string,
  after: { issuedAt: string; id: string } | null,
  limit: number,
): Promise<ExportRow[]> {
  let query = db
    .selectFrom('billing_documents as d')
    .leftJoin('orders as o', 'o.id', 'd.order_id')
    .select((eb) => [
      'd.id',
      'd.kind',
      'd.label',
      'd.issued_at',
      'd.content',
      'd.order_id',
      'o.reference',
      'o.payment_ref',
      'o.status',
      eb
        .selectFrom('order_events as e')
        .select((e) => e.fn.min('e.at').as('at'))
        .whereRef('e.order_id', '=', 'd.order_id')
        .where('e.to_status', '=', 'refunded')
        .as('refunded_at'),
    ])
    .where('d.kind', 'in', kinds)
    .where('d.issued_at', '>=', from)
    .where('d.issued_at', '<', to);
  if (after)
    query = query.where((eb) => eb.or([eb('d.issued_at', '>', after.issuedAt), eb.and([eb('d.issued_at', '=', after.issuedAt), eb('d.id', '>', after.id)])]));
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

/** The documents of these orders (invoice or receipt, credit note), by order, oldest first. */
export async function documentsOfOrders(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, { id: string; kind: DocumentKind; label: string }[]>> {
  const byOrder = new Map<string, { id: string; kind: DocumentKind; label: string }[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return byOrder;
  const rows = await db
    .selectFrom('billing_documents')
    .select(['id', 'kind', 'label', 'order_id'])
    .where('order_id', 'in', orderIds)
    .orderBy('issued_at')
    .orderBy('number')
    .execute();
  for (const r of rows) if (r.order_id) byOrder.get(r.order_id)?.push({ id: r.id, kind: r.kind, label: r.label });
  return byOrder;
}
