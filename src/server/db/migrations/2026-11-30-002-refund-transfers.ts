/**
 * Refunds that the payment provider cannot make, made by the treasurer as a bank transfer
 * (`share_refund_transfers`): a renunciation or a refusal of a bulletin paid by transfer, the
 * repayment of withdrawn shares, a transfer received twice (the overpayment recorded at
 * « Virement reçu »).
 *
 * A workflow row, like `share_withdrawals`: `awaiting_iban` (the member has not given where to
 * send it) → `to_make` → `made` (the day of the transfer and who made it). What the money does to
 * the register is written in the register, as a new entry, when the transfer is made.
 * `reference` (« RBT-2026-0007 ») comes from a counter row of `document_counters` per year, taken
 * in the row's own transaction: no gaps. `source_key` makes the opening idempotent: one refund per
 * renunciation, refusal, withdrawal or overpayment.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_refund_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    // renunciation | refusal | withdrawal | overpayment, then `:` and the bulletin's or withdrawal's id.
    .addColumn('source_key', 'text', (c) => c.notNull().unique())
    .addColumn('cause', 'text', (c) => c.notNull())
    // The account owed the money (null once deleted: the back-office then writes to the person).
    .addColumn('user_id', 'text')
    // The register's member, when shares are repaid (an admitted bulletin renounced, a withdrawal).
    .addColumn('member_id', 'text')
    .addColumn('bulletin_id', 'text')
    .addColumn('withdrawal_id', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    // Normalised (no spaces, capitals), checked with its ISO 13616 checksum.
    .addColumn('iban', 'text')
    .addColumn('account_holder', 'text')
    .addColumn('iban_given_at', 'text')
    // awaiting_iban → to_make → made
    .addColumn('status', 'text', (c) => c.notNull())
    // YYYY-MM-DD (Paris): the day the transfer left the cooperative's account.
    .addColumn('made_on', 'text')
    .addColumn('made_by', 'text')
    .addColumn('made_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_refund_transfers_user_idx').on('share_refund_transfers').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('share_refund_transfers_status_idx').on('share_refund_transfers').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('share_refund_transfers').execute();
}
