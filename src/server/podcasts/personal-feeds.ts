/**
 * Supporters' personal podcast feeds: one secret address per account (glossary: « flux
 * personnel »), for all shows and per show.
 *
 * The secret is derived, never stored: HMAC(key `podcast-feed` at the row's key version,
 * `secret:<userId>:<generation>`), so that « Mes podcasts » can show it again on every visit;
 * the table holds its SHA-256 only, unique, by which an incoming address is looked up. A reset
 * bumps the generation: the old address's hash is gone from the table at once, in every process
 * (nothing caches a secret → account mapping). Ending support does not touch the row: the same
 * address serves the notice feed meanwhile, and the episodes again when support resumes.
 */
import { createHash, createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { keyring } from '../core/keys';
import { toTimestamp, type Database } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { isSupportingUser } from './entitlement';

/** What an address's secret looks like: 32 base64url characters (192 bits). */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const hashFeedSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

function deriveSecret(userId: string, keyVersion: number, generation: number): string {
  return createHmac('sha256', keyring().subkey('podcast-feed', keyVersion)).update(`secret:${userId}:${generation}`).digest('base64url').slice(0, 32);
}

export interface PersonalFeed {
  secret: string;
  generation: number;
  createdAt: Date;
  resetAt: Date | null;
}

type FeedRow = { key_version: number; generation: number; created_at: string; reset_at: string | null };

const toFeed = (userId: string, row: FeedRow): PersonalFeed => ({
  secret: deriveSecret(userId, row.key_version, row.generation),
  generation: row.generation,
  createdAt: new Date(row.created_at),
  resetAt: row.reset_at ? new Date(row.reset_at) : null,
});

const readRow = (db: Kysely<Database>, userId: string) =>
  db.selectFrom('podcast_feeds').select(['key_version', 'generation', 'created_at', 'reset_at']).where('user_id', '=', userId).executeTakeFirst();

/** The account's feed, if it has one. */
export async function findFeed(db: Kysely<Database>, userId: string): Promise<PersonalFeed | null> {
  const row = await readRow(db, userId);
  return row ? toFeed(userId, row) : null;
}

/** The account's feed, created on the first call (the first visit of « Mes podcasts » as a supporter). */
export async function ensureFeed(db: Kysely<Database>, userId: string, now: Date): Promise<PersonalFeed> {
  const existing = await readRow(db, userId);
  if (existing) return toFeed(userId, existing);
  const keyVersion = keyring().currentVersion('podcast-feed');
  await db
    .insertInto('podcast_feeds')
    .values({
      user_id: userId,
      secret_hash: hashFeedSecret(deriveSecret(userId, keyVersion, 1)),
      key_version: keyVersion,
      generation: 1,
      created_at: toTimestamp(now),
      reset_at: null,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  // Two first visits at once: the row that won is the one to show.
  const row = await readRow(db, userId);
  if (!row) throw new Error(`podcast feed of ${userId} missing right after its creation`);
  return toFeed(userId, row);
}

/**
 * A new address for the account's feed: the old one answers the « no longer valid » notice at
 * once. One conditional update (the generation read is the one bumped), so that two resets at
 * once give two generations, never one secret for two rows.
 */
export async function resetFeed(db: Kysely<Database>, userId: string, now: Date): Promise<PersonalFeed> {
  await ensureFeed(db, userId, now);
  const keyVersion = keyring().currentVersion('podcast-feed');
  return writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom('podcast_feeds').select(['generation', 'created_at']).where('user_id', '=', userId).executeTakeFirstOrThrow();
    const generation = row.generation + 1;
    const updated = await trx
      .updateTable('podcast_feeds')
      .set({ secret_hash: hashFeedSecret(deriveSecret(userId, keyVersion, generation)), key_version: keyVersion, generation, reset_at: toTimestamp(now) })
      .where('user_id', '=', userId)
      .where('generation', '=', row.generation)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new Error(`podcast feed of ${userId} changed during its reset`);
    return { secret: deriveSecret(userId, keyVersion, generation), generation, createdAt: new Date(row.created_at), resetAt: now };
  });
}

export type FeedAccess = { state: 'invalid' } | { state: 'ended' | 'active'; userId: string; generation: number };

/**
 * What an incoming address opens: the secret's hash looked up (unique index), then the account's
 * support (`isSupportingUser`, indexed on the account), cheap enough for every hourly poll of
 * every app. Support is a running subscription (a gift included) or monthly donation, or shares
 * held today.
 */
export async function resolveFeed(db: Kysely<Database>, secret: string, now: Date): Promise<FeedAccess> {
  if (!SECRET_PATTERN.test(secret)) return { state: 'invalid' };
  const row = await db.selectFrom('podcast_feeds').select(['user_id', 'generation']).where('secret_hash', '=', hashFeedSecret(secret)).executeTakeFirst();
  if (!row) return { state: 'invalid' };
  return { state: (await isSupportingUser(db, row.user_id, now)) ? 'active' : 'ended', userId: row.user_id, generation: row.generation };
}

/** What the account's export says of its feed: when it was made and last reset, never its address. */
export async function exportUserFeed(db: Kysely<Database>, userId: string) {
  const feed = await db.selectFrom('podcast_feeds').select(['created_at', 'reset_at', 'generation']).where('user_id', '=', userId).executeTakeFirst();
  const fetches = await db
    .selectFrom('podcast_feed_fetches')
    .select(['day'])
    .select((eb) => eb.fn.countAll<number>().as('networks'))
    .where('user_id', '=', userId)
    .groupBy('day')
    .orderBy('day')
    .execute();
  return feed
    ? {
        created_at: feed.created_at,
        reset_at: feed.reset_at,
        resets: feed.generation - 1,
        networks_by_day: fetches.map((f) => ({ day: f.day, networks: Number(f.networks) })),
      }
    : null;
}

/** Removes the account's feed, its fetches and flags (account deletion): the address dies with it. */
export async function eraseUserFeed(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('podcast_feed_flags').where('user_id', '=', userId).execute();
  await db.deleteFrom('podcast_feed_fetches').where('user_id', '=', userId).execute();
  await db.deleteFrom('podcast_feeds').where('user_id', '=', userId).execute();
}
