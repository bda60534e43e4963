/**
 * Supporters' personal podcast feeds (issue 27 §2).
 *
 * `podcast_feeds`: one row per account, created on the first visit of « Mes podcasts ». The
 * address's secret is never stored: it is derived (HMAC, key `podcast-feed` at `key_version`, the
 * account and `generation`) and only its SHA-256 is kept, unique, for the lookup of an incoming
 * address. A reset bumps `generation`: a new secret, a new hash, the old address unknown at once.
 *
 * `podcast_feed_fetches`: which networks fetched each feed on each Paris day, as keyed hashes
 * (never an address), kept a few days (`podcasts/sharing.ts`): what tells a feed shared widely.
 *
 * `podcast_feed_flags`: a feed fetched from more networks in a day than a listener has, for the
 * back-office; `resolved_at` once staff reset the address (or dismissed the flag).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('podcast_feeds')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_version', 'integer', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('reset_at', 'text')
    .execute();
  await db.schema
    .createTable('podcast_feed_fetches')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('podcast_feed_fetches_pk', ['user_id', 'day', 'network'])
    .execute();
  await db.schema.createIndex('podcast_feed_fetches_day_idx').on('podcast_feed_fetches').column('day').execute();
  await db.schema
    .createTable('podcast_feed_flags')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('networks', 'integer', (c) => c.notNull())
    .addColumn('flagged_at', 'text', (c) => c.notNull())
    // 'reset' | 'dismissed', with who and when.
    .addColumn('resolution', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'text')
    .addUniqueConstraint('podcast_feed_flags_user_day', ['user_id', 'day'])
    .execute();
  await db.schema.createIndex('podcast_feed_flags_open_idx').on('podcast_feed_flags').columns(['resolved_at', 'flagged_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('podcast_feed_flags').execute();
  await db.schema.dropTable('podcast_feed_fetches').execute();
  await db.schema.dropTable('podcast_feeds').execute();
}
