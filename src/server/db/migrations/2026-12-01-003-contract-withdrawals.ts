/**
 * The consumer's withdrawals (rétractation, CGV art. 8; art. 11a of the consumer rights
 * directive as amended by Directive (EU) 2023/2673): one row per contract withdrawn through the
 * function « Se rétracter du contrat ici », kept as the record of when and how it was made.
 *
 * Append-only, by triggers on both dialects (the billing migration's function on PostgreSQL):
 * no row is deleted, and the one change allowed is `user_id` set to null when the account is
 * deleted (account/parts.ts); the record of the withdrawal stays. `contract_key` (`order:<id>` or
 * `bulletin:<id>`) is unique: a second request for the same contract finds the first and asks
 * no second refund. What happened to the refund afterwards is read from the order (or the
 * bulletin), not stored here.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const FIXED = ['id', 'contract_key', 'contract_kind', 'order_id', 'bulletin_id', 'channel', 'refund_cents', 'refund_key', 'withdrawn_at', 'created_at'];

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

  const fixed = sql.raw(FIXED.join(', '));
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // refuse_change_of_legal_record() comes from the billing migration.
    await sql`create trigger contract_withdrawals_no_delete before delete on contract_withdrawals for each row execute function refuse_change_of_legal_record()`.execute(
      db,
    );
    await sql`create trigger contract_withdrawals_fixed before update of ${fixed} on contract_withdrawals for each row execute function refuse_change_of_legal_record()`.execute(
      db,
    );
    await sql`create trigger contract_withdrawals_user before update of user_id on contract_withdrawals for each row when (new.user_id is not null) execute function refuse_change_of_legal_record()`.execute(
      db,
    );
  } else {
    const refuse = sql.lit('contract_withdrawals is append-only: only an account deletion clears user_id');
    await sql`create trigger contract_withdrawals_no_delete before delete on contract_withdrawals begin select raise(abort, ${refuse}); end`.execute(db);
    await sql`create trigger contract_withdrawals_fixed before update of ${fixed} on contract_withdrawals begin select raise(abort, ${refuse}); end`.execute(
      db,
    );
    await sql`create trigger contract_withdrawals_user before update of user_id on contract_withdrawals when new.user_id is not null begin select raise(abort, ${refuse}); end`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('contract_withdrawals').execute();
}
