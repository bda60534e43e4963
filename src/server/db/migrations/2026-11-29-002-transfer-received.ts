/**
 * A share bulletin paid by transfer records what the treasurer saw arrive: the amount received
 * (`transfer_received_cents`; the day is `paid_at`). A mismatch is recorded only when the
 * back-office overrode the check, and the decisions list shows it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('share_bulletins').addColumn('transfer_received_cents', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('share_bulletins').dropColumn('transfer_received_cents').execute();
}
