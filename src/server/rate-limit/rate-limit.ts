/**
 * Rate limits, counted in the database so that they hold across processes and restarts.
 * Fixed windows: one row per (rule, subject, window); a request past the limit answers 429.
 * Subjects are hashed: neither e-mail addresses nor IP addresses are stored.
 *
 * This domain owns the `rate_limits` table and the mechanism; each domain declares its own
 * rules (`auth/rate-limits.ts`, `newsletter/rate-limits.ts`, `contact/rate-limits.ts`). Rows of
 * windows that ended long ago are purged daily (`purgeEndedWindows`, the job in `jobs.ts`).
 */
import { createHmac } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import { countOf } from '../../lib/text';
import { toTimestamp } from '../db/database';
import { fail, type Failure } from '../core/result';
import { log } from '../core/log';
import { subkey } from '../core/keys';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

export const MINUTE = 60_000;

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window ends, for the Retry-After header. */
  retryAfterSeconds: number;
}

/** "Trop de tentatives. Réessayez dans 2 minutes." — the one wording of every 429. */
export function retryLater(what: string, retryAfterSeconds: number): string {
  return `${what} Réessayez dans ${countOf(Math.max(1, Math.ceil(retryAfterSeconds / 60)), 'minute')}.`;
}

/**
 * Counts one attempt (or `weight` of them: a piece of evidence that counts more than one)
 * against a rule for a subject, and says whether it is allowed.
 */
export async function hit(db: Kysely<Database>, rule: RateLimitRule, subject: string, now: Date, weight = 1): Promise<RateLimitResult & { count: number }> {
  const start = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  const key = `${rule.name}:${subject}`;
  const windowStart = toTimestamp(new Date(start));
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: weight })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ count: sql<number>`rate_limits.count + ${weight}` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  // Older windows of this key are over: drop them (the primary key makes this cheap).
  await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', windowStart).execute();
  return { allowed: row.count <= rule.limit, retryAfterSeconds: Math.ceil((start + rule.windowMs - now.getTime()) / 1000), count: row.count };
}

/**
 * How long a window's row is kept after the window started. `hit` drops the older windows of a
 * key it counts again, but a key used once (a spent sign-up challenge, a client that never comes
 * back) is never counted again: `purgeEndedWindows` drops those, daily (`rate-limit/jobs.ts`).
 * It must outlast the longest rule's window (an hour: `SIGN_UP_LIMITS`, the gifts', the
 * newsletter's; `rate-limit.test.ts` checks every rule) plus the life of a sign-up challenge,
 * whose single use is counted in the window of its issue (`spendChallenge`: 30 minutes). A day
 * leaves a wide margin, and a row older than that counts for nothing any more.
 */
export const RATE_LIMIT_RETENTION_MS = 24 * 60 * MINUTE;

/** Deletes the rows of windows that started more than `RATE_LIMIT_RETENTION_MS` before `now`; how many. */
export async function purgeEndedWindows(db: Kysely<Database>, now: Date): Promise<number> {
  const before = toTimestamp(new Date(now.getTime() - RATE_LIMIT_RETENTION_MS));
  const result = await db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** How many attempts a subject has made against a rule in the current window, without counting one. */
export async function countIn(db: Kysely<Database>, rule: RateLimitRule, subject: string, now: Date): Promise<number> {
  const start = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  const row = await db
    .selectFrom('rate_limits')
    .select('count')
    .where('key', '=', `${rule.name}:${subject}`)
    .where('window_start', '=', toTimestamp(new Date(start)))
    .executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/**
 * Counts one attempt against each rule for its subject, in order; the first rule exceeded
 * refuses with a 429 and the French sentence `what` + "Réessayez dans N minutes.".
 */
export async function limit(
  deps: { db: Kysely<Database>; clock: { now(): Date } },
  checks: ReadonlyArray<readonly [RateLimitRule, string]>,
  what = 'Trop de tentatives.',
): Promise<Failure | null> {
  const now = deps.clock.now();
  for (const [rule, subject] of checks) {
    const result = await hit(deps.db, rule, subject, now);
    if (!result.allowed) {
      log.warn('rate limited', { rule: rule.name });
      return fail(429, retryLater(what, result.retryAfterSeconds), result.retryAfterSeconds);
    }
  }
  return null;
}

/** An e-mail address as a rate-limit subject: normalised and keyed-hashed, so that the table
 * does not reveal which addresses were tried. */
export function emailSubject(email: string): string {
  return createHmac('sha256', subkey('rate-limit')).update(email.trim().toLowerCase()).digest('hex');
}

/**
 * Several values as one rate-limit subject (a client and an address, a device), keyed-hashed
 * like `emailSubject`. The parts are told apart by their kind, so that no subject of one kind
 * can equal a subject of another.
 */
export function subjectOf(kind: string, ...parts: string[]): string {
  return createHmac('sha256', subkey('rate-limit'))
    .update(JSON.stringify([kind, ...parts]))
    .digest('hex');
}
