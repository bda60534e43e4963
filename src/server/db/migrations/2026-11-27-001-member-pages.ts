/**
 * The member's subscriptions come in the order of their creation from the index itself: without
 * `created_at` in it, SQLite sorted them in a temporary B-tree on every member page, which cost
 * about 55 µs even for a member with no subscription (docs/performance.md). The new index starts
 * with `user_id`, so it also serves every lookup the old one did.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('subscriptions_user_created_idx').on('subscriptions').columns(['user_id', 'created_at']).execute();
  await db.schema.dropIndex('subscriptions_user_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').column('user_id').execute();
  await db.schema.dropIndex('subscriptions_user_created_idx').execute();
}
