/**
 * Roles are staff roles only (reader, editor, admin): being a subscriber or a sociétaire is
 * derived from subscriptions and the share register, so the two old role values become
 * 'reader'. Data only; the schema does not change.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('users').set({ role: 'reader' }).where('role', 'in', ['subscriber', 'shareholder']).execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: which readers were marked as subscribers is not worth keeping.
}
