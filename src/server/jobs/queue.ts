/**
 * Putting jobs in the queue: `enqueue` (any kind, untyped payload) and `enqueueJob` (a defined
 * kind, its payload typed and checked by its schema). Both take `Kysely<Database>` or a
 * `Transaction`: enqueued inside the caller's transaction, the job commits or rolls back with
 * the caller's own writes (a webhook's effects and its follow-up jobs, together).
 *
 * Enqueueing does not wake a worker: after the transaction has committed, call `worker.poke()`
 * (a poke before the commit may find nothing yet, and the job would wait for the next poll).
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { type Clock, systemClock } from '../core/clock';
import { type Database, type NewJobRow, newId, toTimestamp } from '../db/database';
import type { JobDefinition } from './definition';
import { InvalidJobPayloadError } from './errors';

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Longest timeout accepted: a lease longer than this would hide a crashed worker for too long. */
export const MAX_TIMEOUT_MS = 60 * 60_000;

export interface EnqueueRequest {
  kind: string;
  /** Any JSON-serialisable value; validated by the kind's schema when the job runs. */
  payload: unknown;
  /** Due time; now (by the clock) when absent. */
  runAt?: Date;
  /**
   * At most one job per key while its row exists (done and failed rows are purged after their
   * retention): enqueueing the key again gives back the existing job's id, with `created: false`,
   * whatever that job's payload, status or due time.
   */
  uniqueKey?: string;
  maxAttempts?: number;
  timeoutMs?: number;
}

export interface EnqueueOptions {
  /** Source of "now" for created_at and the default run_at. */
  clock?: Clock;
}

export interface Enqueued {
  id: string;
  /** False when a job with the same `uniqueKey` already existed (its id is returned). */
  created: boolean;
}

export async function enqueue(db: Kysely<Database>, request: EnqueueRequest, options: EnqueueOptions = {}): Promise<Enqueued> {
  const maxAttempts = request.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!request.kind) throw new Error('A job needs a kind.');
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new Error(`Invalid maxAttempts: ${maxAttempts}`);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) throw new Error(`Invalid timeoutMs: ${timeoutMs}`);
  if (request.uniqueKey === '') throw new Error('An empty uniqueKey would dedupe unrelated jobs.');
  const payload = JSON.stringify(request.payload);
  if (payload === undefined) throw new Error(`The payload of a ${request.kind} job is not JSON-serialisable.`);

  const now = toTimestamp((options.clock ?? systemClock).now());
  const row = (): NewJobRow => ({
    id: newId(),
    kind: request.kind,
    payload,
    status: 'pending',
    run_at: request.runAt ? toTimestamp(request.runAt) : now,
    attempts: 0,
    max_attempts: maxAttempts,
    timeout_ms: timeoutMs,
    locked_by: null,
    locked_until: null,
    last_error: null,
    unique_key: request.uniqueKey ?? null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  });

  const uniqueKey = request.uniqueKey;
  if (uniqueKey === undefined) {
    const values = row();
    await db.insertInto('jobs').values(values).execute();
    return { id: values.id, created: true };
  }
  // Insert-or-nothing is one statement, so it is safe between processes on both dialects (on
  // PostgreSQL it waits for a concurrent uncommitted insert of the same key, then does nothing or
  // inserts). The second try covers the existing row being purged in between.
  for (let attempt = 0; attempt < 2; attempt++) {
    const values = row();
    const inserted = await db
      .insertInto('jobs')
      .values(values)
      .onConflict((oc) => oc.column('unique_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, created: true };
    const existing = await db.selectFrom('jobs').select('id').where('unique_key', '=', uniqueKey).executeTakeFirst();
    if (existing) return { id: existing.id, created: false };
  }
  throw new Error(`Could not enqueue the ${request.kind} job with its unique key.`);
}

/**
 * Enqueues a job of a defined kind: the payload is typed and checked by the kind's schema now
 * (a bug in the caller throws here, inside its transaction, rather than failing the job later),
 * and the kind's `maxAttempts` / `timeoutMs` apply unless given.
 */
export async function enqueueJob<S extends z.ZodType>(
  db: Kysely<Database>,
  definition: JobDefinition<S>,
  payload: z.input<S>,
  options: Omit<EnqueueRequest, 'kind' | 'payload'> & EnqueueOptions = {},
): Promise<Enqueued> {
  const checked = definition.schema.safeParse(payload);
  if (!checked.success) throw new InvalidJobPayloadError(definition.kind, describeIssues(checked.error));
  const { clock, ...rest } = options;
  return enqueue(
    db,
    {
      ...rest,
      kind: definition.kind,
      payload,
      maxAttempts: options.maxAttempts ?? definition.maxAttempts,
      timeoutMs: options.timeoutMs ?? definition.timeoutMs,
    },
    clock ? { clock } : {},
  );
}

/** `path: code` for each issue, never the offending values (they may be personal data). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.code}`)
    .join('; ');
}

export interface Retention {
  /** Done jobs are deleted this many days after they finished (30). */
  doneDays: number;
  /** Failed jobs are kept for inspection this many days (90). */
  failedDays: number;
}

export const DEFAULT_RETENTION: Retention = { doneDays: 30, failedDays: 90 };

const DAY_MS = 24 * 60 * 60_000;

/**
 * Deletes done jobs finished more than `doneDays` ago and failed ones more than `failedDays`
 * ago (payloads may hold personal data). Pending and running jobs are never deleted. Returns the
 * number of rows deleted. Idempotent: several workers may run it at once.
 */
export async function purgeFinishedJobs(db: Kysely<Database>, now: Date, retention: Retention = DEFAULT_RETENTION): Promise<number> {
  let deleted = 0;
  for (const [status, days] of [
    ['done', retention.doneDays],
    ['failed', retention.failedDays],
  ] as const) {
    const before = toTimestamp(new Date(now.getTime() - days * DAY_MS));
    const result = await db.deleteFrom('jobs').where('status', '=', status).where('finished_at', '<', before).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** A job failed for good, as the back-office lists it (never its payload: it may hold personal data). */
export interface FailedJob {
  id: string;
  kind: string;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** Jobs failed for good, the most recent failure first. */
export async function listFailedJobs(db: Kysely<Database>, limit = 100): Promise<FailedJob[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'kind', 'attempts', 'max_attempts', 'last_error', 'created_at', 'finished_at'])
    .where('status', '=', 'failed')
    .orderBy('finished_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    lastError: r.last_error,
    createdAt: new Date(r.created_at),
    finishedAt: r.finished_at ? new Date(r.finished_at) : null,
  }));
}

/**
 * Puts a job failed for good back in the queue, due now: an operator's « Relancer » once the
 * cause is fixed. Its attempts are kept, so it gets one more attempt (and is failed again at once
 * if that one fails too); its last error stays until then. Only a failed job moves (a conditional
 * update): a double click, or a job already retried, changes nothing and answers false.
 */
export async function retryFailedJob(db: Kysely<Database>, id: string, now: Date): Promise<boolean> {
  const at = toTimestamp(now);
  const result = await db
    .updateTable('jobs')
    .set({ status: 'pending', run_at: at, locked_by: null, locked_until: null, finished_at: null, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The queue at a glance, for the health check: counts only, never a kind, payload or error. */
export interface QueueState {
  /** Pending jobs whose due time has come (waiting for a worker). */
  due: number;
  /** Jobs running under a live lease. */
  running: number;
  /** Running jobs whose lease has ended: their worker died; another will take them again. */
  stalled: number;
  /** Jobs failed for good, kept for inspection (« Relancer » in the back-office). */
  failed: number;
  /** How long the oldest due job has waited, in whole seconds (0 when none is due). */
  oldestDueSeconds: number;
}

/** Counts of the queue's jobs as of `now` (the injected clock's time). */
export async function queueState(db: Kysely<Database>, now: Date): Promise<QueueState> {
  const at = toTimestamp(now);
  const [due, running, stalled, failed] = await Promise.all([
    db
      .selectFrom('jobs')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('run_at').as('oldest')])
      .where('status', '=', 'pending')
      .where('run_at', '<=', at)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'running')
      .where('locked_until', '>', at)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'running')
      .where('locked_until', '<=', at)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'failed')
      .executeTakeFirstOrThrow(),
  ]);
  const oldest = typeof due.oldest === 'string' ? Date.parse(due.oldest) : NaN;
  return {
    due: Number(due.n),
    running: Number(running.n),
    stalled: Number(stalled.n),
    failed: Number(failed.n),
    oldestDueSeconds: Number.isNaN(oldest) ? 0 : Math.max(0, Math.floor((now.getTime() - oldest) / 1000)),
  };
}
