/**
 * The daily erasure of sign-ups never confirmed: one job per Paris day (its unique key), queued
 * at each start of the background writer and by each run for the next day, so that it survives
 * restarts and never runs twice for a day, whatever the number of processes.
 */
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { TIME_ZONE } from '../../lib/dates';
import type { ServerDeps } from '../core/deps';
import { schedule } from '../jobs/schedule';
import { PURGE_UNCONFIRMED } from './job-types';

/** Queues the purge of the Paris day of `at`, due at 04:00 that day (now, if that is past). */
export async function scheduleDailyPurge(deps: Pick<ServerDeps, 'db' | 'clock'>, at: Date = deps.clock.now()): Promise<void> {
  const day = formatInTimeZone(at, TIME_ZONE, 'yyyy-MM-dd');
  const due = fromZonedTime(`${day}T04:00:00`, TIME_ZONE);
  await schedule(deps, deps.db, PURGE_UNCONFIRMED, { day }, { uniqueKey: `newsletter-purge:${day}`, runAt: due });
}
