/**
 * Sharing of personal feeds: a feed fetched from more networks in a Paris day than one listener
 * has (home, phone, work, a podcast app's servers) is flagged for the back-office, where staff
 * reset its address, and the supporter is told by mail.
 *
 * A network is the client's /24 (IPv4) or /64 (IPv6), kept as a keyed hash (key `podcast-feed`),
 * never as an address, for `FETCH_RETENTION_DAYS` (the privacy page says so). Each process
 * remembers the (feed, day, network) it has recorded, so that an app polling every hour from the
 * same network costs one write a day, not one per poll.
 */
import { createHmac } from 'node:crypto';
import { formatInTimeZone } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { TIME_ZONE } from '../../lib/dates';
import { keyring } from '../core/keys';
import { log } from '../core/log';
import { newId, toTimestamp, type Database } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { rateLimitSubject } from '../http/request-guards';

/** More networks than this in one Paris day flag the feed. */
export const SHARING_NETWORKS_PER_DAY = 12;

/** How long the hashed networks of each day are kept. */
export const FETCH_RETENTION_DAYS = 7;

const parisDay = (at: Date) => formatInTimeZone(at, TIME_ZONE, 'yyyy-MM-dd');

/** The client's network as a keyed hash: its /24 for IPv4, its /64 for IPv6 (`rateLimitSubject`). */
export function networkOf(address: string): string {
  const subject = rateLimitSubject(address);
  const network = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(subject) ? subject.replace(/\.\d+$/, '.0/24') : subject;
  return createHmac('sha256', keyring().subkey('podcast-feed')).update(`network:${network}`).digest('hex').slice(0, 32);
}

/** How long fetches wait in memory before they are written, together. */
export const FETCH_FLUSH_MS = 2_000;

interface PendingFetch {
  userId: string;
  day: string;
  network: string;
  at: Date;
}

const seen = new Set<string>();
let pending: PendingFetch[] = [];
let pendingDb: Kysely<Database> | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

/**
 * Notes that `userId`'s feed was fetched from `address` at `now`. Fetches are written together,
 * at most `FETCH_FLUSH_MS` later (`flushFetches`), and each process writes a (feed, network, day)
 * once: an app polling every hour costs one row a day, and a feed answers without waiting for a
 * write. What a killed process had not written yet is lost; it is a count, not a record anyone
 * was told of. Never throws.
 */
export function recordFetch(db: Kysely<Database>, userId: string, address: string, now: Date): void {
  const day = parisDay(now);
  const network = networkOf(address);
  const key = `${day}|${userId}|${network}`;
  if (seen.has(key)) return;
  seen.add(key);
  pending.push({ userId, day, network, at: now });
  pendingDb = db;
  timer ??= setTimeout(() => void flushFetches(), FETCH_FLUSH_MS);
  timer.unref?.();
}

/**
 * Writes the fetches noted so far in one transaction, then flags each feed they took past
 * `SHARING_NETWORKS_PER_DAY` networks that day (once a day, its count raised as more come).
 */
export async function flushFetches(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  const batch = pending;
  const db = pendingDb;
  pending = [];
  if (!db || batch.length === 0) return;
  try {
    await writeTransaction(db, async (trx) => {
      const grown = new Map<string, PendingFetch>();
      for (const fetch of batch) {
        const inserted = await trx
          .insertInto('podcast_feed_fetches')
          .values({ user_id: fetch.userId, day: fetch.day, network: fetch.network })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) grown.set(`${fetch.userId}|${fetch.day}`, fetch);
      }
      for (const fetch of grown.values()) {
        const { count } = await trx
          .selectFrom('podcast_feed_fetches')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', fetch.userId)
          .where('day', '=', fetch.day)
          .executeTakeFirstOrThrow();
        const networks = Number(count);
        if (networks <= SHARING_NETWORKS_PER_DAY) continue;
        await trx
          .insertInto('podcast_feed_flags')
          .values({
            id: newId(),
            user_id: fetch.userId,
            day: fetch.day,
            networks,
            flagged_at: toTimestamp(fetch.at),
            resolution: null,
            resolved_by: null,
            resolved_at: null,
          })
          .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet({ networks }))
          .execute();
        log.warn('podcast feed flagged', { networks });
      }
    });
  } catch (error) {
    // Noted again next time: a busy database must not lose the count for the day.
    for (const fetch of batch) seen.delete(`${fetch.day}|${fetch.userId}|${fetch.network}`);
    log.error('podcast feed fetches not recorded', { error: String(error) });
  }
  // A day's keys are dropped once that day has passed.
  const today = parisDay(new Date());
  for (const key of seen) if (key.slice(0, 10) < today) seen.delete(key);
}

/** Forgets what this process noted of fetches, written or not (tests). */
export function forgetRecordedFetches(): void {
  seen.clear();
  pending = [];
  pendingDb = null;
  if (timer) clearTimeout(timer);
  timer = null;
}

/** Deletes the networks of days older than `FETCH_RETENTION_DAYS` before `now`; how many rows. */
export async function purgeOldFetches(db: Kysely<Database>, now: Date): Promise<number> {
  const oldest = parisDay(new Date(now.getTime() - FETCH_RETENTION_DAYS * 24 * 3600 * 1000));
  const result = await db.deleteFrom('podcast_feed_fetches').where('day', '<', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SharingFlag {
  id: string;
  userId: string;
  email: string;
  name: string;
  day: string;
  networks: number;
  flaggedAt: Date;
  resolution: 'reset' | 'dismissed' | null;
  resolvedAt: Date | null;
}

/** The flags for the back-office, 200 at most: the open ones first, then the resolved ones, newest first. */
export async function listSharingFlags(db: Kysely<Database>): Promise<SharingFlag[]> {
  const rows = await db
    .selectFrom('podcast_feed_flags as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.id', 'f.user_id', 'f.day', 'f.networks', 'f.flagged_at', 'f.resolution', 'f.resolved_at', 'u.email', 'u.given_name', 'u.family_name'])
    .orderBy((eb) => eb.case().when('f.resolved_at', 'is', null).then(0).else(1).end())
    .orderBy('f.flagged_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    email: r.email,
    name: [r.given_name, r.family_name].filter(Boolean).join(' ') || r.email,
    day: r.day,
    networks: r.networks,
    flaggedAt: new Date(r.flagged_at),
    resolution: r.resolution,
    resolvedAt: r.resolved_at ? new Date(r.resolved_at) : null,
  }));
}

/**
 * Marks an open flag resolved by `staffId`; the flag's account, or null when the flag is unknown
 * or already resolved (a second click, another administrator first).
 */
export async function resolveFlag(
  db: Kysely<Database>,
  input: { flagId: string; staffId: string; resolution: 'reset' | 'dismissed'; now: Date },
): Promise<string | null> {
  return writeTransaction(db, async (trx) => {
    const flag = await trx
      .selectFrom('podcast_feed_flags')
      .select(['user_id'])
      .where('id', '=', input.flagId)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (!flag) return null;
    const updated = await trx
      .updateTable('podcast_feed_flags')
      .set({ resolution: input.resolution, resolved_by: input.staffId, resolved_at: toTimestamp(input.now) })
      .where('id', '=', input.flagId)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1 ? flag.user_id : null;
  });
}
