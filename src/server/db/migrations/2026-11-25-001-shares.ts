/**
 * The cooperative's shares: subscription bulletins, the register of members and their shares,
 * and withdrawals.
 *
 * - `share_bulletins`: one signed bulletin (what was subscribed, by whom, under which statutes,
 *   and the fingerprint of the text accepted). Its content never changes; its `status` follows
 *   the payment and the cooperative's decision (conditional updates, like an order).
 * - `share_members`: a person in the register, with the member number given at their first
 *   admission and their identity as registered. Append-only: a new address or college is a new
 *   entry of `share_register`, never an edit.
 * - `share_register`: the legal record. Every admission of shares, withdrawal, repayment and
 *   change of college is a new dated entry with a gapless entry number; the holdings, the
 *   capital and the list of members are derived from it. Append-only through triggers (the same
 *   function as billing's), on both dialects.
 * - `share_withdrawals`: a member's request to withdraw shares, then the cooperative's decision
 *   and the repayment (a workflow; what it does to the register is written in the register).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const APPEND_ONLY = ['share_members', 'share_register'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('share_bulletins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('order_id', 'text', (c) => c.unique())
    .addColumn('college_id', 'text', (c) => c.notNull())
    .addColumn('shares', 'integer', (c) => c.notNull())
    .addColumn('nominal_cents', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    // The identity the register needs, JSON (person kind, names, address, legal person's name,
    // SIREN and representative), as the subscriber gave it.
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('statutes_version', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text', (c) => c.notNull())
    .addColumn('accepted_from', 'text', (c) => c.notNull())
    // sha256 of the bulletin's text as shown and accepted (shares/bulletin.ts).
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    // For a bank transfer: the reference the subscriber puts on it.
    .addColumn('transfer_reference', 'text', (c) => c.unique())
    // awaiting_payment → paid → admitted | refused; renounced (14 days); canceled (never paid).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decision_note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_bulletins_user_idx').on('share_bulletins').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('share_bulletins_status_idx').on('share_bulletins').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('share_members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('member_number', 'integer', (c) => c.notNull().unique())
    // The account that holds the membership; the register keeps the person even without it.
    .addColumn('user_id', 'text', (c) => c.unique())
    .addColumn('person', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('identity', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('share_register')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('entry_number', 'integer', (c) => c.notNull().unique())
    .addColumn('member_id', 'text', (c) => c.notNull())
    // admission | withdrawal | repayment | college | identity | correction
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('college_id', 'text', (c) => c.notNull())
    // Shares added (admission) or taken out (withdrawal, negative); 0 for other entries.
    .addColumn('shares_delta', 'integer', (c) => c.notNull())
    .addColumn('nominal_cents', 'integer', (c) => c.notNull())
    // Money paid back to the member (repayment), in cents; 0 otherwise.
    .addColumn('repaid_cents', 'integer', (c) => c.notNull())
    // An admission's certificate: consecutive numbers, one certificate per admission.
    .addColumn('certificate_number', 'integer', (c) => c.unique())
    .addColumn('bulletin_id', 'text', (c) => c.unique())
    .addColumn('withdrawal_id', 'text')
    // The day the entry takes effect (YYYY-MM-DD, Paris): admission day, close of the year of a withdrawal.
    .addColumn('effective_on', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('note', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_register_member_idx').on('share_register').columns(['member_id', 'entry_number']).execute();

  await db.schema
    .createTable('share_withdrawals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('shares', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'text', (c) => c.notNull())
    // requested → accepted (register entry written, effective at the close of the year) → repaid; refused.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('effective_on', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decision_note', 'text')
    .addColumn('repaid_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('share_withdrawals_member_idx').on('share_withdrawals').columns(['member_id', 'requested_at']).execute();
  // One open request per member at a time.
  await sql`create unique index share_withdrawals_one_open on share_withdrawals (member_id) where status = 'requested'`.execute(db);

  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    // refuse_change_of_legal_record() comes from the billing migration.
    for (const table of APPEND_ONLY) {
      await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)} for each row execute function refuse_change_of_legal_record()`.execute(
        db,
      );
    }
  } else {
    for (const table of APPEND_ONLY) {
      for (const op of ['update', 'delete']) {
        await sql`create trigger ${sql.raw(`${table}_no_${op}`)} before ${sql.raw(op)} on ${sql.table(table)} begin select raise(abort, ${sql.lit(`${table} is append-only: a correction is a new entry`)}); end`.execute(
          db,
        );
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['share_withdrawals', 'share_register', 'share_members', 'share_bulletins']) await db.schema.dropTable(table).execute();
}
