/**
 * The daily purge of the networks that fetched personal feeds (`purgeOldFetches`, kept
 * `FETCH_RETENTION_DAYS`), as a durable job: one per UTC day (its unique key), queued at each
 * start of the background writer and by each run for the next day, as `rate-limit/jobs.ts` does.
 */
import { z } from 'zod';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { handle, jobType, schedule } from '../jobs/schedule';
import { purgeOldFetches } from './sharing';

const DAY_MS = 24 * 3600 * 1000;

export const PURGE_FEED_FETCHES = jobType({
  kind: 'podcasts.purge-fetches',
  schema: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  maxAttempts: 5,
});

/** Queues the purge of the UTC day of `at`, due at 03:30 UTC that day (now, if that is past). */
export async function scheduleFeedFetchPurge(deps: Pick<ServerDeps, 'db' | 'clock'>, at: Date = deps.clock.now()): Promise<void> {
  const day = at.toISOString().slice(0, 10);
  await schedule(deps, deps.db, PURGE_FEED_FETCHES, { day }, { uniqueKey: `podcasts.purge-fetches:${day}`, runAt: new Date(`${day}T03:30:00.000Z`) });
}

export const podcastJobs = (deps: Pick<ServerDeps, 'db' | 'clock'>) => [
  handle(PURGE_FEED_FETCHES, async () => {
    const now = deps.clock.now();
    await scheduleFeedFetchPurge(deps, new Date(now.getTime() + DAY_MS));
    const deleted = await purgeOldFetches(deps.db, now);
    if (deleted > 0) log.info('podcast_feed_fetches.purged', { deleted });
  }),
];
