/**
 * The consumer's withdrawals (rétractation, CGV art. 8; art. 11a of the consumer rights
 * directive as amended by Directive (EU) 2023/2673): one row per contract withdrawn through the
 * function « Se rétracter du contrat ici », kept as the record of when and how it was made.
 *
 * Append-only in practice (the service never updates it). `contract_key` (`order:<id>` or
 * `bulletin:<id>`) is unique: a second request for the same contract finds the first and asks
 * no second refund. What happened to the refund afterwards is read from the order (or the
 * bulletin), not stored here.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('contract_withdrawals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('contract_key', 'text', (c) => c.notNull().unique())
    // subscription | gift | shares
    .addColumn('contract_kind', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('bulletin_id', 'text')
    // Null once the account is deleted; the record stays.
    .addColumn('user_id', 'text')
    // account | mailed_link
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('refund_cents', 'integer', (c) => c.notNull())
    // The idempotency key the provider was asked under ('' when the refund is not the provider's).
    .addColumn('refund_key', 'text', (c) => c.notNull())
    .addColumn('withdrawn_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('contract_withdrawals_user_idx').on('contract_withdrawals').columns(['user_id', 'withdrawn_at']).execute();
  await db.schema.createIndex('contract_withdrawals_at_idx').on('contract_withdrawals').columns(['withdrawn_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contract_withdrawals').execute();
}
