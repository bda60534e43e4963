/**
 * Rate limits, counted in the database so that they hold across processes and restarts.
 * Fixed windows: one row per (rule, subject, window); a request past the limit answers 429.
 * Subjects are hashed: neither e-mail addresses nor IP addresses are stored.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import { countOf } from '../../lib/text';
import { toTimestamp } from '../db/database';
import { subkey } from '../core/keys';

export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

export const RATE_LIMITS = {
  /** Password attempts on one account. */
  loginByEmail: { name: 'login:email', limit: 10, windowMs: 15 * MINUTE },
  /** Password attempts from one client, whatever the account. */
  loginByClient: { name: 'login:client', limit: 30, windowMs: 15 * MINUTE },
  /** Account mails sent to one address (sign-in link, reset, change of address). */
  mailByEmail: { name: 'mail:email', limit: 5, windowMs: 60 * MINUTE },
  /** Newsletter confirmations sent to one address: a bucket of its own, so that sign-ups by a
   * stranger never block the owner's account recovery. */
  newsletterByEmail: { name: 'newsletter:email', limit: 5, windowMs: 60 * MINUTE },
  /** Checks of the current password by a signed-in member (change, e-mail change, deletion). */
  passwordCheckByAccount: { name: 'password-check:account', limit: 10, windowMs: 15 * MINUTE },
  /** Mail requests from one client. */
  mailByClient: { name: 'mail:client', limit: 20, windowMs: 60 * MINUTE },
  /** Token redemptions from one client (guessing is hopeless at 256 bits; this keeps it so). */
  tokenByClient: { name: 'token:client', limit: 30, windowMs: 15 * MINUTE },
  /** Contact messages from one client. */
  contactByClient: { name: 'contact:client', limit: 5, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window ends, for the Retry-After header. */
  retryAfterSeconds: number;
}

/** "Trop de tentatives. Réessayez dans 2 minutes." — the one wording of every 429. */
export function retryLater(what: string, retryAfterSeconds: number): string {
  return `${what} Réessayez dans ${countOf(Math.max(1, Math.ceil(retryAfterSeconds / 60)), 'minute')}.`;
}

/** Counts one attempt against a rule for a subject, and says whether it is allowed. */
export async function hit(db: Kysely<Database>, rule: RateLimitRule, subject: string, now: Date): Promise<RateLimitResult> {
  const start = Math.floor(now.getTime() / rule.windowMs) * rule.windowMs;
  const key = `${rule.name}:${subject}`;
  const windowStart = toTimestamp(new Date(start));
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ count: sql<number>`rate_limits.count + 1` }))
    .returning('count')
    .executeTakeFirstOrThrow();
  // Older windows of this key are over: drop them (the primary key makes this cheap).
  await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', windowStart).execute();
  return { allowed: row.count <= rule.limit, retryAfterSeconds: Math.ceil((start + rule.windowMs - now.getTime()) / 1000) };
}

/** An e-mail address as a rate-limit subject: normalised and keyed-hashed, so that the table
 * does not reveal which addresses were tried. */
export function emailSubject(email: string): string {
  return createHmac('sha256', subkey('rate-limit')).update(email.trim().toLowerCase()).digest('hex');
}

let secret: Buffer | undefined;
/**
 * Legacy: rate limits now use `subkey('rate-limit')` and `subkey('client-key')` from
 * src/server/core/keys.ts. This secret only still signs the newsletter's unsubscribe tokens,
 * until that domain moves to the `u1.` tokens described there; then it goes.
 *
 * The key that made client identifiers non-reversible. It must outlive the process (limits
 * survive restarts) and be shared by every instance: RATE_LIMIT_SECRET when set, else a
 * random key kept in the data folder.
 */
export function rateLimitSecret(dataDir = process.env.DATA_DIR ?? 'data'): Buffer {
  if (secret) return secret;
  if (process.env.RATE_LIMIT_SECRET) return (secret = Buffer.from(process.env.RATE_LIMIT_SECRET));
  const file = resolve(dataDir, 'rate-limit.key');
  try {
    secret = readFileSync(file);
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    const fresh = randomBytes(32);
    try {
      // 'wx': if another process created it first, read theirs.
      writeFileSync(file, fresh, { flag: 'wx', mode: 0o600 });
      secret = fresh;
    } catch {
      secret = readFileSync(file);
    }
  }
  return secret;
}
