/**
 * The job worker: claims due jobs (see repository.ts), runs them with a timeout, records the
 * outcome, retries with backoff, purges old finished jobs, and drains on shutdown.
 *
 *   const worker = createJobWorker({ db, handlers: [sendMailJob], concurrency: 2 });
 *   await worker.runDue();          // a first pass at start (optional: start() also begins at once)
 *   worker.start();
 *   …after a commit that enqueued: worker.poke();
 *   …on SIGTERM: await worker.stop({ graceMs: 10_000 });
 *
 * Time for the table (run_at, leases, retention) comes from the injected clock; the timeout of a
 * run and the poll interval are real timers.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { type Clock, systemClock } from '../core/clock';
import { type Database, type JobRow, toTimestamp } from '../db/database';
import { log } from '../core/log';
import type { JobDefinition } from './definition';
import { describeError, JobShutdownError, JobTimeoutError } from './errors';
import { DEFAULT_RETENTION, describeIssues, purgeFinishedJobs, type Retention } from './queue';
import { claimJob, completeJob, type Fence, failJob, findCandidates, releaseJob } from './repository';

export type JobLogger = Pick<typeof log, 'debug' | 'info' | 'warn' | 'error'>;

export interface JobWorkerOptions {
  db: Kysely<Database>;
  handlers: readonly JobDefinition[];
  clock?: Clock;
  /** Stored in `locked_by`; unique per process (default: host, pid and a random suffix). */
  workerId?: string;
  /** Jobs run at once by this worker (1). */
  concurrency?: number;
  /** How often an idle worker looks for due jobs (1 s); `poke()` wakes it sooner. */
  pollIntervalMs?: number;
  /** Lease = timeout + this margin (30 s): time to record the outcome after a timeout. */
  leaseMarginMs?: number;
  /** After aborting a run, how long to wait for its handler to settle (5 s; less than the margin). */
  abortGraceMs?: number;
  /** Delay before the next attempt after attempt `n` failed (default `exponentialBackoff()`). */
  retryDelay?: (attempt: number) => number;
  retention?: Partial<Retention> & { everyMs?: number };
  logger?: JobLogger;
}

export interface JobWorker {
  readonly id: string;
  /** Starts claiming in the background (`concurrency` loops). Does nothing if already started. */
  start(): void;
  /**
   * Stops claiming, waits up to `graceMs` (10 s) for running jobs to finish (draining); then
   * aborts the ones still running (signal reason `JobShutdownError`; a run that then settles is
   * given back as pending without counting the attempt; one that doesn't is left to its lease),
   * and resolves. `drained` says whether every run finished within the grace time. Final.
   */
  stop(options?: { graceMs?: number }): Promise<{ drained: boolean }>;
  /** Claims and runs every job due now (by the clock), `concurrency` at a time; resolves with the number of runs. */
  runDue(): Promise<number>;
  /** Wakes idle loops at once (call after committing an enqueue). */
  poke(): void;
}

/** 30 s × 2^(attempt−1), capped at 1 h, with "equal jitter" (between half and all of it). */
export function exponentialBackoff({ baseMs = 30_000, capMs = 60 * 60_000, random = Math.random } = {}) {
  return (attempt: number): number => {
    const full = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(full / 2 + (random() * full) / 2);
  };
}

type Outcome = { ok: true } | { ok: false; error: unknown };

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const {
    db,
    clock = systemClock,
    workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    concurrency = 1,
    pollIntervalMs = 1000,
    leaseMarginMs = 30_000,
    abortGraceMs = 5000,
    retryDelay = exponentialBackoff(),
    logger = log,
  } = options;
  const retention: Retention = { ...DEFAULT_RETENTION, ...options.retention };
  const purgeEveryMs = options.retention?.everyMs ?? 60 * 60_000;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Invalid concurrency: ${concurrency}`);
  if (abortGraceMs >= leaseMarginMs) throw new Error('abortGraceMs must be shorter than leaseMarginMs.');
  const handlers = new Map<string, JobDefinition>();
  for (const handler of options.handlers) {
    if (handlers.has(handler.kind)) throw new Error(`Two handlers for the job kind ${handler.kind}.`);
    handlers.set(handler.kind, handler);
  }
  if (handlers.size === 0) throw new Error('A job worker needs at least one handler.');
  const kinds = [...handlers.keys()];

  let started = false;
  let stopping = false;
  let pokes = 0;
  let nextPurgeAt = Number.NEGATIVE_INFINITY;
  /** Background loops and runDue passes, awaited by stop(). */
  const active = new Set<Promise<unknown>>();
  /** Runs in progress, to abort them at the end of the grace time. */
  const controllers = new Map<string, AbortController>();
  /** Jobs whose handler has not settled yet (even abandoned after a timeout): never claimed again here. */
  const unsettled = new Set<string>();
  const sleepers = new Set<() => void>();

  function track<T>(promise: Promise<T>): Promise<T> {
    active.add(promise);
    promise.finally(() => active.delete(promise)).catch(() => undefined);
    return promise;
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  }

  function poke(): void {
    pokes++;
    for (const wake of [...sleepers]) wake();
  }

  /** Claims one job, trying a few candidates in random order (two workers rarely want the same one). */
  async function claimNext(): Promise<JobRow | undefined> {
    const want = 4 * concurrency + 8;
    const now = clock.now();
    const candidates = (await findCandidates(db, kinds, toTimestamp(now), want + unsettled.size)).filter((candidate) => !unsettled.has(candidate.id));
    for (let i = candidates.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [candidates[i], candidates[j]] = [candidates[j] as (typeof candidates)[number], candidates[i] as (typeof candidates)[number]];
    }
    for (const candidate of candidates) {
      if (stopping) return undefined;
      const row = await claimJob(db, candidate, workerId, clock.now(), leaseMarginMs);
      if (row && stopping) {
        // stop() was called while this claim was on its way: give the job back untouched.
        await releaseJob(db, { id: row.id, workerId, attempt: row.attempts }, clock.now());
        return undefined;
      }
      if (row) return row;
    }
    return undefined;
  }

  function settleRun(definition: JobDefinition, row: JobRow, payload: unknown, controller: AbortController): Promise<Outcome> {
    const { signal } = controller;
    return new Promise<Outcome>((resolve) => {
      let running: Promise<void>;
      try {
        running = Promise.resolve(
          definition.run({
            payload,
            job: { id: row.id, kind: row.kind, attempt: row.attempts, maxAttempts: row.max_attempts },
            signal,
          }),
        );
      } catch (error) {
        running = Promise.reject(error);
      }
      unsettled.add(row.id);
      let abandon: ReturnType<typeof setTimeout> | undefined;
      running
        .then(
          () => resolve({ ok: true }),
          (error: unknown) => resolve({ ok: false, error }),
        )
        .finally(() => {
          unsettled.delete(row.id);
          clearTimeout(abandon);
        });
      // A handler that ignores its signal is not waited for past the abort grace.
      const onAbort = () => {
        abandon = setTimeout(() => resolve({ ok: false, error: signal.reason }), abortGraceMs);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function execute(row: JobRow): Promise<void> {
    const definition = handlers.get(row.kind);
    const fence: Fence = { id: row.id, workerId, attempt: row.attempts };
    const fields = { jobId: row.id, kind: row.kind, attempt: row.attempts, workerId };
    try {
      if (!definition) throw new Error(`No handler for ${row.kind}`); // not claimed: kinds filter
      const parsed = parsePayload(definition, row.payload);
      if (!parsed.ok) {
        // Retrying would not make the payload valid.
        const recorded = await failJob(db, fence, clock.now(), parsed.error, null);
        if (recorded) logger.error('job.failed', { ...fields, error: parsed.error });
        else logger.warn('job.lease_lost', fields);
        return;
      }
      const controller = new AbortController();
      controllers.set(row.id, controller);
      const timer = setTimeout(() => controller.abort(new JobTimeoutError(row.timeout_ms)), row.timeout_ms);
      let outcome: Outcome;
      try {
        outcome = await settleRun(definition, row, parsed.payload, controller);
      } finally {
        clearTimeout(timer);
        controllers.delete(row.id);
      }
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      const now = clock.now();
      let recorded: boolean;
      if (outcome.ok) {
        // Finished, even if late: its effects happened, running it again would only repeat them.
        if (reason) logger.warn('job.overran', { ...fields, error: describeError(reason) });
        recorded = await completeJob(db, fence, now);
        if (recorded) logger.debug('job.done', fields);
      } else if (reason instanceof JobShutdownError) {
        recorded = await releaseJob(db, fence, now);
        if (recorded) logger.info('job.released', fields);
      } else {
        // A timed-out run usually rejects with an AbortError: the timeout is the useful cause.
        const error = describeError(reason instanceof JobTimeoutError ? reason : outcome.error);
        const final = row.attempts >= row.max_attempts;
        const retryAt = final ? null : new Date(now.getTime() + Math.max(0, retryDelay(row.attempts)));
        recorded = await failJob(db, fence, now, error, retryAt);
        if (recorded && final) logger.error('job.failed', { ...fields, error });
        else if (recorded) logger.warn('job.retry_scheduled', { ...fields, error, runAt: retryAt?.toISOString() });
      }
      if (!recorded) logger.warn('job.lease_lost', fields);
    } catch (error) {
      // The database refused the outcome: the lease will end and the job be taken again.
      logger.error('job.record_failed', { ...fields, error: describeError(error) });
    }
  }

  async function maybePurge(): Promise<void> {
    const now = clock.now();
    if (now.getTime() < nextPurgeAt) return;
    nextPurgeAt = now.getTime() + purgeEveryMs;
    try {
      const deleted = await purgeFinishedJobs(db, now, retention);
      if (deleted > 0) logger.info('jobs.purged', { workerId, deleted });
    } catch (error) {
      logger.error('jobs.purge_failed', { workerId, error: describeError(error) });
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      const seen = pokes;
      let row: JobRow | undefined;
      try {
        await maybePurge();
        row = await claimNext();
      } catch (error) {
        logger.error('jobs.claim_failed', { workerId, error: describeError(error) });
        await sleep(pollIntervalMs);
        continue;
      }
      if (row) await execute(row);
      else if (pokes === seen && !stopping) await sleep(pollIntervalMs);
    }
  }

  return {
    id: workerId,
    start() {
      if (started || stopping) return;
      started = true;
      for (let i = 0; i < concurrency; i++) track(loop());
      logger.info('jobs.worker_started', { workerId, concurrency, kinds });
    },
    async runDue() {
      let runs = 0;
      const lane = async () => {
        while (!stopping) {
          const row = await claimNext();
          if (!row) return;
          runs++;
          await execute(row);
        }
      };
      // Each lane tracked on its own: stop() waits for every running job, even if one lane failed.
      await Promise.all(Array.from({ length: concurrency }, () => track(lane())));
      return runs;
    },
    poke,
    async stop({ graceMs = 10_000 } = {}) {
      stopping = true;
      poke();
      const all = () => Promise.allSettled([...active]).then(() => true);
      let drained = await raceTimer(all(), graceMs);
      if (!drained) {
        for (const controller of controllers.values()) controller.abort(new JobShutdownError());
        await raceTimer(all(), abortGraceMs + 100);
      }
      logger.info('jobs.worker_stopped', { workerId, drained });
      return { drained };
    },
  };
}

function parsePayload(definition: JobDefinition, text: string): { ok: true; payload: unknown } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'InvalidPayload: not JSON' };
  }
  const checked = definition.schema.safeParse(value);
  return checked.success ? { ok: true, payload: checked.data } : { ok: false, error: `InvalidPayload: ${describeIssues(checked.error)}` };
}

/** True if `promise` settled within `ms`, false otherwise. */
async function raceTimer(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
