/**
 * Billing and gifts: the legal documents of every payment (invoices, credit notes, donation
 * receipts and yearly statements) with their gapless counters and their PDFs, and the gift
 * subscriptions sold with their codes.
 *
 * `billing_documents` and `billing_pdfs` are append-only at the database level: a trigger
 * refuses any UPDATE or DELETE on both dialects, so that no code path, migration script or
 * console session can edit or remove a legal record (a correction is a new document).
 * `document_counters` holds the last number of each series; it is updated in the transaction
 * that inserts the document (billing/numbering.ts), so a rolled-back payment frees its number.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const APPEND_ONLY = ['billing_documents', 'billing_pdfs'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('document_counters')
    .addColumn('series', 'text', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('billing_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('series', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull().unique())
    // One document per thing documented: `invoice:<order>`, `credit_note:<order>`, `statement:<user>:<year>`.
    .addColumn('subject_key', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('refers_to_id', 'text')
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('vat_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    // The whole document as printed (seller, buyer, lines, totals, mentions), JSON.
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('billing_documents_series_number', ['series', 'number'])
    .execute();
  await db.schema.createIndex('billing_documents_owner_idx').on('billing_documents').columns(['owner_id', 'issued_at']).execute();
  await db.schema.createIndex('billing_documents_order_idx').on('billing_documents').column('order_id').execute();
  await db.schema.createIndex('billing_documents_kind_issued_idx').on('billing_documents').columns(['kind', 'issued_at']).execute();

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('billing_pdfs')
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('bytes', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  if (postgres) {
    await sql`create function refuse_change_of_legal_record() returns trigger language plpgsql as $$
      begin raise exception '% is append-only: a correction is a new document', TG_TABLE_NAME; end $$`.execute(db);
    for (const table of APPEND_ONLY) {
      await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)} for each row execute function refuse_change_of_legal_record()`.execute(
        db,
      );
    }
  } else {
    for (const table of APPEND_ONLY) {
      for (const op of ['update', 'delete']) {
        await sql`create trigger ${sql.raw(`${table}_no_${op}`)} before ${sql.raw(op)} on ${sql.table(table)} begin select raise(abort, ${sql.lit(`${table} is append-only: a correction is a new document`)}); end`.execute(
          db,
        );
      }
    }
  }

  await db.schema
    .createTable('gifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().unique())
    .addColumn('buyer_id', 'text')
    .addColumn('offer_id', 'text', (c) => c.notNull())
    .addColumn('months', 'integer', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    // Null when the buyer hands the gift over themselves.
    .addColumn('recipient_email', 'text')
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    // The day chosen (YYYY-MM-DD, Europe/Paris) and the instant the recipient's mail is due.
    .addColumn('deliver_on', 'text', (c) => c.notNull())
    .addColumn('deliver_at', 'text', (c) => c.notNull())
    // Set once paid: a keyed hash to find the code, the code sealed with a server key (for the
    // buyer's card and the recipient's mail), its last group for people to tell codes apart.
    .addColumn('code_hash', 'text', (c) => c.unique())
    .addColumn('code_sealed', 'text')
    .addColumn('code_hint', 'text')
    .addColumn('issued_at', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('sent_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sent_at', 'text')
    .addColumn('activated_at', 'text')
    .addColumn('activated_by', 'text')
    .addColumn('subscription_id', 'text')
    // 'new' (a gift subscription of its own) or 'after_paid' (added after the paid period).
    .addColumn('activation_mode', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('gifts_buyer_idx').on('gifts').columns(['buyer_id', 'created_at']).execute();
  await db.schema.createIndex('gifts_activated_by_idx').on('gifts').column('activated_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('gifts').execute();
  for (const table of ['billing_pdfs', 'billing_documents', 'document_counters']) await db.schema.dropTable(table).execute();
  if (postgres) await sql`drop function refuse_change_of_legal_record()`.execute(db);
}
