import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { AUTH_LIMITS } from '../auth/rate-limits';
import { CHALLENGE_TTL_MS, issueChallenge, SIGN_UP_LIMITS, spendChallenge } from '../auth/sign-up-guard';
import { BULLETINS_BY_ACCOUNT } from '../checkout/service';
import { CONTACT_LIMITS } from '../contact/rate-limits';
import { fakeClock } from '../core/clock';
import { createJobWorker, type JobLogger } from '../jobs/worker';
import { NEWSLETTER_LIMITS } from '../newsletter/rate-limits';
import { GIFT_LIMITS } from '../gifts/service';
import { PURGE_RATE_LIMITS, rateLimitJobs, scheduleRateLimitPurge } from './jobs';
import { countIn, hit, MINUTE, RATE_LIMIT_RETENTION_MS, retryLater, type RateLimitRule } from './rate-limit';

const HOUR = 60 * MINUTE;
const quiet: JobLogger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe('429 message', () => {
  it('says how many minutes to wait, in French, singular under two', () => {
    expect(retryLater('Trop de tentatives.', 30)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(retryLater('Trop de tentatives.', 60)).toBe('Trop de tentatives. Réessayez dans 1 minute.');
    expect(retryLater('Trop de demandes.', 61)).toBe('Trop de demandes. Réessayez dans 2 minutes.');
  });
});

describe('retention of ended windows', () => {
  it('outlasts every rule’s window, and a sign-up challenge’s life after its window', () => {
    const rules: RateLimitRule[] = [
      ...Object.values(AUTH_LIMITS),
      ...Object.values(SIGN_UP_LIMITS),
      ...Object.values(NEWSLETTER_LIMITS),
      ...Object.values(CONTACT_LIMITS),
      ...Object.values(GIFT_LIMITS),
      BULLETINS_BY_ACCOUNT,
    ];
    const longest = Math.max(...rules.map((rule) => rule.windowMs));
    expect(longest + CHALLENGE_TTL_MS).toBeLessThan(RATE_LIMIT_RETENTION_MS);
    // Every file that declares rules is in the list above: a new one must be added there.
    const declaring = readdirSync('src', { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => join('src', file).split(sep).join('/'))
      .filter((file) => file !== 'src/server/rate-limit/rate-limit.ts' && /\bwindowMs:/.test(readFileSync(file, 'utf8')));
    expect(declaring.sort()).toEqual([
      'src/server/auth/rate-limits.ts',
      'src/server/auth/sign-up-guard.ts',
      'src/server/checkout/service.ts',
      'src/server/contact/rate-limits.ts',
      'src/server/gifts/service.ts',
      'src/server/newsletter/rate-limits.ts',
    ]);
  });
});

describeEachDialect('the daily purge of ended windows', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.close());

  it('drops the windows of a day ago as a durable job, once a day, and keeps current ones: a spent challenge stays spent', async () => {
    // 10:20 UTC; the job of the day is due at 03:00.
    const clock = fakeClock(new Date('2026-12-02T10:20:00Z'));
    const deps = { db: t.db, clock };
    const rule: RateLimitRule = { name: 'test:client', limit: 5, windowMs: HOUR };
    // Keys never counted again: a client of yesterday morning, one of yesterday noon.
    await hit(t.db, rule, 'gone', new Date('2026-12-01T09:10:00Z'), 3);
    await hit(t.db, rule, 'recent', new Date('2026-12-01T12:10:00Z'), 2);
    // This hour's counts, and a challenge issued at 09:55 and spent at 10:20 (counted in 09:00's window).
    await hit(t.db, rule, 'now', clock.now(), 4);
    const client = 'c'.repeat(64);
    const challenge = issueChallenge(client, new Date('2026-12-02T09:55:00Z'), 14, 15);
    expect(await spendChallenge(t.db, challenge.token)).toBe(true);
    const before = await t.db.selectFrom('rate_limits').select('key').execute();
    expect(before).toHaveLength(4);

    // Two processes queue the day's purge (two starts, or two hosts on one PostgreSQL): one job.
    await scheduleRateLimitPurge(deps);
    await scheduleRateLimitPurge(deps);
    const jobs = () =>
      t.db.selectFrom('jobs').select(['unique_key', 'status', 'run_at']).where('kind', '=', PURGE_RATE_LIMITS.kind).orderBy('run_at').execute();
    expect(await jobs()).toEqual([{ unique_key: 'rate-limit.purge:2026-12-02', status: 'pending', run_at: '2026-12-02T03:00:00.000Z' }]);

    // Two workers at once: it runs once.
    const worker = () => createJobWorker({ db: t.db, clock, handlers: rateLimitJobs(deps), logger: quiet, retryDelay: () => 0 });
    const [a, b] = [worker(), worker()];
    const runs = await Promise.all([a.runDue(), b.runDue()]);
    await Promise.all([a.stop({ graceMs: 0 }), b.stop({ graceMs: 0 })]);
    expect(runs[0]! + runs[1]!).toBe(1);

    // Gone: the window of 09:00 yesterday. Kept: yesterday noon's (ended less than a day ago), this hour's, the challenge's.
    const keys = (await t.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).not.toContain('test:client:gone');
    expect(keys).toEqual(expect.arrayContaining(['test:client:recent', 'test:client:now']));
    expect(keys).toHaveLength(3);
    expect(await countIn(t.db, rule, 'now', clock.now())).toBe(4);
    expect(await spendChallenge(t.db, challenge.token)).toBe(false);

    // The run queued tomorrow's, so that the purge goes on across restarts; nothing more runs today.
    expect(await jobs()).toEqual([
      { unique_key: 'rate-limit.purge:2026-12-02', status: 'done', run_at: '2026-12-02T03:00:00.000Z' },
      { unique_key: 'rate-limit.purge:2026-12-03', status: 'pending', run_at: '2026-12-03T03:00:00.000Z' },
    ]);
    await scheduleRateLimitPurge(deps);
    const again = worker();
    expect(await again.runDue()).toBe(0);
    await again.stop({ graceMs: 0 });
  });
});
