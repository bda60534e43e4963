/**
 * The worker's statements on `jobs`: finding candidates, claiming one, and writing the outcome
 * of a run. Portable (no `FOR UPDATE`, absent from SQLite; no database clock).
 *
 * Claiming is one conditional UPDATE per job: `… where id = :id and (claimable)`. On SQLite
 * writes are serialised, so the second of two racing workers finds the condition false. On
 * PostgreSQL under READ COMMITTED, the second UPDATE waits for the first to commit, then
 * re-evaluates its WHERE on the new row version (status running, lease in the future) and updates
 * nothing. A worker takes a job only when its UPDATE returned the row (exactly one updated).
 *
 * Every write of an outcome is fenced by `id`, `status = 'running'`, `locked_by = me` and
 * `attempts = the attempt I claimed`: a worker whose lease ended and whose job was taken again
 * (by another worker, or by itself later) updates nothing, and says so.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import { type Database, type JobRow, toTimestamp } from '../db/database';

/** Due pending jobs, and running jobs whose lease has ended. */
function claimable(eb: ExpressionBuilder<Database, 'jobs'>, now: string) {
  return eb.or([eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]), eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', now)])]);
}

export interface Candidate {
  id: string;
  timeout_ms: number;
}

/**
 * Up to `limit` candidates of the given kinds: expired leases first (they are the oldest work),
 * then due pending jobs by due time. Two queries, each served in order by its index, rather than
 * one OR that would sort every due job to return a few.
 */
export async function findCandidates(db: Kysely<Database>, kinds: readonly string[], now: string, limit: number): Promise<Candidate[]> {
  const expired = await db
    .selectFrom('jobs')
    .select(['id', 'timeout_ms'])
    .where('status', '=', 'running')
    .where('locked_until', '<=', now)
    .where('kind', 'in', kinds)
    .orderBy('locked_until')
    .limit(limit)
    .execute();
  if (expired.length >= limit) return expired;
  const due = await db
    .selectFrom('jobs')
    .select(['id', 'timeout_ms'])
    .where('status', '=', 'pending')
    .where('run_at', '<=', now)
    .where('kind', 'in', kinds)
    .orderBy('run_at')
    .limit(limit - expired.length)
    .execute();
  return [...expired, ...due];
}

/**
 * Claims one job if it is still claimable: running, leased to `workerId` until
 * now + timeout + margin, one more attempt. Returns the claimed row, or undefined when another
 * worker got it first.
 */
export async function claimJob(db: Kysely<Database>, candidate: Candidate, workerId: string, now: Date, leaseMarginMs: number): Promise<JobRow | undefined> {
  const nowText = toTimestamp(now);
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      locked_by: workerId,
      locked_until: toTimestamp(new Date(now.getTime() + candidate.timeout_ms + leaseMarginMs)),
      attempts: eb('attempts', '+', 1),
      updated_at: nowText,
    }))
    .where('id', '=', candidate.id)
    .where((eb) => claimable(eb, nowText))
    .returningAll()
    .executeTakeFirst();
}

/** Identifies one run of one job: the lease holder and the attempt it claimed. */
export interface Fence {
  id: string;
  workerId: string;
  attempt: number;
}

function fenced(db: Kysely<Database>, fence: Fence) {
  return db
    .updateTable('jobs')
    .where('id', '=', fence.id)
    .where('status', '=', 'running')
    .where('locked_by', '=', fence.workerId)
    .where('attempts', '=', fence.attempt);
}

const updatedOne = (result: { numUpdatedRows: bigint }) => result.numUpdatedRows === 1n;

/** Marks the run done. False when the lease was lost (nothing written). */
export async function completeJob(db: Kysely<Database>, fence: Fence, now: Date): Promise<boolean> {
  const at = toTimestamp(now);
  const result = await fenced(db, fence)
    .set({ status: 'done', locked_by: null, locked_until: null, finished_at: at, updated_at: at })
    .executeTakeFirstOrThrow();
  return updatedOne(result);
}

/**
 * Records a failed attempt: back to pending at `retryAt`, or failed for good when `retryAt` is
 * null. False when the lease was lost (nothing written).
 */
export async function failJob(db: Kysely<Database>, fence: Fence, now: Date, error: string, retryAt: Date | null): Promise<boolean> {
  const at = toTimestamp(now);
  const result = await fenced(db, fence)
    .set(
      retryAt
        ? { status: 'pending', run_at: toTimestamp(retryAt), locked_by: null, locked_until: null, last_error: error, updated_at: at }
        : { status: 'failed', locked_by: null, locked_until: null, last_error: error, finished_at: at, updated_at: at },
    )
    .executeTakeFirstOrThrow();
  return updatedOne(result);
}

/**
 * Gives back a run stopped by the worker's shutdown: pending again, due now, and the attempt not
 * counted (the job did not fail). False when the lease was lost.
 */
export async function releaseJob(db: Kysely<Database>, fence: Fence, now: Date): Promise<boolean> {
  const at = toTimestamp(now);
  const result = await fenced(db, fence)
    .set((eb) => ({
      status: 'pending',
      run_at: at,
      locked_by: null,
      locked_until: null,
      attempts: eb('attempts', '-', 1),
      updated_at: at,
    }))
    .executeTakeFirstOrThrow();
  return updatedOne(result);
}
