/**
 * The daily purge of the rows of ended windows (`purgeEndedWindows`), as a durable job: one per
 * UTC day (its unique key), queued at each start of the background writer and by each run for
 * the next day, so that it survives restarts and runs once a day whatever the number of
 * processes (the unique key and the queue's conditional claim, on SQLite and PostgreSQL alike).
 * Each run queues the next day's before it purges: a run that fails for good does not end the
 * chain. Handed to the worker by runtime.ts.
 */
import { z } from 'zod';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { handle, jobType, schedule } from '../jobs/schedule';
import { MINUTE, purgeEndedWindows } from './rate-limit';

const DAY_MS = 24 * 60 * MINUTE;

export const PURGE_RATE_LIMITS = jobType({ kind: 'rate-limit.purge', schema: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }), maxAttempts: 5 });

/** Queues the purge of the UTC day of `at`, due at 03:00 UTC that day (now, if that is past). */
export async function scheduleRateLimitPurge(deps: Pick<ServerDeps, 'db' | 'clock'>, at: Date = deps.clock.now()): Promise<void> {
  const day = at.toISOString().slice(0, 10);
  await schedule(deps, deps.db, PURGE_RATE_LIMITS, { day }, { uniqueKey: `rate-limit.purge:${day}`, runAt: new Date(`${day}T03:00:00.000Z`) });
}

export const rateLimitJobs = (deps: Pick<ServerDeps, 'db' | 'clock'>) => [
  handle(PURGE_RATE_LIMITS, async () => {
    const now = deps.clock.now();
    await scheduleRateLimitPurge(deps, new Date(now.getTime() + DAY_MS));
    const deleted = await purgeEndedWindows(deps.db, now);
    if (deleted > 0) log.info('rate_limits.purged', { deleted });
  }),
];
