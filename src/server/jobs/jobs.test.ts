import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { fakeClock } from '../core/clock';
import { openDatabase } from '../db/client';
import { type JobRow, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { defineJob, type JobContext } from './definition';
import { describeError, InvalidJobPayloadError } from './errors';
import { enqueue, enqueueJob, listFailedJobs, purgeFinishedJobs, retryFailedJob } from './queue';
import { createJobWorker, exponentialBackoff, type JobLogger, type JobWorkerOptions } from './worker';

const START = new Date('2026-11-21T10:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** A logger that keeps what it was told, for assertions (and a quiet test run). */
function captureLogger() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, fields });
  const logger: JobLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

const payloadSchema = z.object({ n: z.number().int() });

/** A kind that counts its runs per job id and does what `behaviour` says. */
function probe(behaviour: (context: JobContext<{ n: number }>) => Promise<void> = async () => undefined) {
  const runs = new Map<string, number>();
  const definition = defineJob({
    kind: 'test.probe',
    schema: payloadSchema,
    run: async (context) => {
      runs.set(context.job.id, (runs.get(context.job.id) ?? 0) + 1);
      await behaviour(context);
    },
  });
  return { definition, runs, total: () => [...runs.values()].reduce((a, b) => a + b, 0) };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('describeError', () => {
  it('keeps the name, the code and a scrubbed message', () => {
    const error = Object.assign(new Error('550 <Lea.Martin@example.fr> refused, see https://relay.example/x?t=abc for token AbCdEf0123456789AbCdEf0123'), {
      code: 'EENVELOPE',
    });
    const text = describeError(error);
    expect(text).toBe('Error (EENVELOPE): 550 <[email]> refused, see [url] for token [redacted]');
    expect(describeError(new Error('x'.repeat(1000))).length).toBeLessThanOrEqual(300);
    expect(describeError({ secret: 'lea@example.fr' })).toBe('NonError');
  });
});

describe('exponentialBackoff', () => {
  it('doubles from 30 s, is capped at one hour, and jitters between half and all of it', () => {
    const top = exponentialBackoff({ random: () => 1 });
    const bottom = exponentialBackoff({ random: () => 0 });
    expect([1, 2, 3, 4].map(top)).toEqual([30 * SECOND, 60 * SECOND, 120 * SECOND, 240 * SECOND]);
    expect(top(20)).toBe(60 * MINUTE);
    expect(bottom(1)).toBe(15 * SECOND);
  });
});

describeEachDialect('jobs', (kind) => {
  let t: TestDatabase;
  let clock: ReturnType<typeof fakeClock>;
  let log: ReturnType<typeof captureLogger>;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
    clock = fakeClock(START);
    log = captureLogger();
  });

  const worker = (options: Partial<JobWorkerOptions> & Pick<JobWorkerOptions, 'handlers'>) =>
    createJobWorker({ db: t.db, clock, logger: log.logger, retryDelay: exponentialBackoff({ random: () => 1 }), ...options });
  const row = (id: string): Promise<JobRow> => t.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const count = async () =>
    Number(
      (
        await t.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('enqueued inside a transaction, commits and rolls back with it', async () => {
    const { definition } = probe();
    await expect(
      writeTransaction(t.db, async (trx) => {
        await enqueueJob(trx, definition, { n: 1 }, { clock });
        throw new Error('webhook failed');
      }),
    ).rejects.toThrow('webhook failed');
    expect(await count()).toBe(0);

    const { id } = await writeTransaction(t.db, (trx) => enqueueJob(trx, definition, { n: 2 }, { clock }));
    expect(await row(id)).toMatchObject({
      kind: 'test.probe',
      payload: '{"n":2}',
      status: 'pending',
      attempts: 0,
      max_attempts: 5,
      timeout_ms: 60_000,
      run_at: toTimestamp(START),
      created_at: toTimestamp(START),
    });
  });

  it('runs a due job once and marks it done', async () => {
    const { definition, runs } = probe();
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock });
    const w = worker({ handlers: [definition] });
    expect(await w.runDue()).toBe(1);
    clock.advance(DAY);
    expect(await w.runDue()).toBe(0);
    expect(runs.get(id)).toBe(1);
    expect(await row(id)).toMatchObject({
      status: 'done',
      attempts: 1,
      locked_by: null,
      locked_until: null,
      finished_at: toTimestamp(START),
    });
  });

  it('does not run a scheduled job before its due time, and runs it then', async () => {
    const { definition, runs } = probe();
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock, runAt: new Date(START.getTime() + 60 * MINUTE) });
    const w = worker({ handlers: [definition] });
    expect(await w.runDue()).toBe(0);
    clock.advance(60 * MINUTE - 1);
    expect(await w.runDue()).toBe(0);
    clock.advance(1);
    expect(await w.runDue()).toBe(1);
    expect(runs.get(id)).toBe(1);
    expect((await row(id)).status).toBe('done');
  });

  it('retries a throwing handler with exponential backoff, then fails it for good after max attempts', async () => {
    const { definition, runs } = probe(async () => {
      throw new Error('relay refused lea@example.fr');
    });
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock, maxAttempts: 3 });
    const w = worker({ handlers: [definition] });

    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      run_at: toTimestamp(new Date(START.getTime() + 30 * SECOND)),
      last_error: 'Error: relay refused [email]',
      locked_by: null,
    });
    clock.advance(30 * SECOND - 1);
    expect(await w.runDue()).toBe(0);
    clock.advance(1);
    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 2 });
    expect((await row(id)).run_at).toBe(toTimestamp(new Date(clock.now().getTime() + 60 * SECOND)));
    clock.advance(60 * SECOND);
    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 3, finished_at: toTimestamp(clock.now()) });
    clock.advance(DAY);
    expect(await w.runDue()).toBe(0);
    expect(runs.get(id)).toBe(3);

    const errors = log.lines.filter((line) => line.level === 'error');
    expect(errors.map((line) => line.msg)).toEqual(['job.failed']);
    expect(JSON.stringify(log.lines)).not.toContain('@');
  });

  it('lists a job failed for good and, relaunched, gives it one more attempt, due now; only a failed job moves', async () => {
    let broken = true;
    const { definition, runs } = probe(async () => {
      if (broken) throw new Error('relay down');
    });
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock, maxAttempts: 1 });
    const w = worker({ handlers: [definition] });
    expect(await w.runDue()).toBe(1);
    expect(await listFailedJobs(t.db)).toEqual([
      { id, kind: 'test.probe', attempts: 1, maxAttempts: 1, lastError: 'Error: relay down', createdAt: START, finishedAt: START },
    ]);

    clock.advance(DAY);
    expect(await retryFailedJob(t.db, id, clock.now())).toBe(true);
    // A double click: already pending, nothing changes.
    expect(await retryFailedJob(t.db, id, clock.now())).toBe(false);
    expect(await row(id)).toMatchObject({
      status: 'pending',
      run_at: toTimestamp(clock.now()),
      attempts: 1,
      finished_at: null,
      last_error: 'Error: relay down',
    });
    expect(await listFailedJobs(t.db)).toEqual([]);

    // One more attempt: failing again, it is failed again at once (no retry series).
    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await retryFailedJob(t.db, id, clock.now())).toBe(true);
    broken = false;
    expect(await w.runDue()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'done', attempts: 3 });
    expect(runs.get(id)).toBe(3);
    expect(await retryFailedJob(t.db, id, clock.now())).toBe(false);
    expect(await retryFailedJob(t.db, 'no-such-job', clock.now())).toBe(false);
  });

  it('aborts a run that overruns its timeout, counts it as a failed attempt, and retries it', async () => {
    const signals: AbortSignal[] = [];
    const { definition, runs } = probe(async ({ signal, job }) => {
      signals.push(signal);
      if (job.attempt === 1) {
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }
    });
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock, timeoutMs: 50 });
    const w = worker({ handlers: [definition] });
    const started = Date.now();
    expect(await w.runDue()).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(signals[0]?.aborted).toBe(true);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'JobTimeoutError: exceeded 50 ms' });
    clock.advance(30 * SECOND);
    expect(await w.runDue()).toBe(1);
    expect(signals[1]?.aborted).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(runs.get(id)).toBe(2);
  });

  it('takes again a job whose worker crashed, once its lease has ended', async () => {
    const { definition, runs } = probe();
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock, timeoutMs: 10 * SECOND });
    // A worker claimed it, then its process died: the row stays running under its lease.
    await t.db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 1, locked_by: 'crashed-worker', locked_until: toTimestamp(new Date(START.getTime() + 40 * SECOND)) })
      .where('id', '=', id)
      .execute();
    const w = worker({ handlers: [definition] });
    clock.advance(40 * SECOND - 1);
    expect(await w.runDue()).toBe(0);
    clock.advance(1);
    expect(await w.runDue()).toBe(1);
    expect(runs.get(id)).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'done', attempts: 2, locked_by: null });
  });

  it('gives one job for one unique key, even enqueued at once', async () => {
    const { definition, runs } = probe();
    const key = 'renewal:sub-1:2026-12';
    const results = await Promise.all(Array.from({ length: 5 }, (_, n) => enqueueJob(t.db, definition, { n }, { clock, uniqueKey: key })));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    // Still deduplicated once the job is done (while its row is kept), and inside a transaction.
    await worker({ handlers: [definition] }).runDue();
    const again = await writeTransaction(t.db, (trx) => enqueueJob(trx, definition, { n: 9 }, { clock, uniqueKey: key }));
    expect(again).toEqual({ id: results[0]?.id, created: false });
    expect(await count()).toBe(1);
    expect(runs.size).toBe(1);
    // Jobs without a key are never deduplicated.
    await enqueueJob(t.db, definition, { n: 1 }, { clock });
    await enqueueJob(t.db, definition, { n: 1 }, { clock });
    expect(await count()).toBe(3);
  });

  it('fails a job with an invalid payload at once, without running or retrying it', async () => {
    const { definition, runs } = probe();
    await expect(enqueueJob(t.db, definition, { n: 'lea@example.fr' } as never, { clock })).rejects.toBeInstanceOf(InvalidJobPayloadError);
    const { id } = await enqueue(t.db, { kind: 'test.probe', payload: { n: 'lea@example.fr' }, maxAttempts: 5 }, { clock });
    const w = worker({ handlers: [definition] });
    expect(await w.runDue()).toBe(1);
    clock.advance(DAY);
    expect(await w.runDue()).toBe(0);
    expect(runs.size).toBe(0);
    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, last_error: 'InvalidPayload: n: invalid_type' });
    expect(JSON.stringify(log.lines)).not.toContain('@');
  });

  it('leaves alone the jobs of kinds it has no handler for', async () => {
    const { definition } = probe();
    const { id } = await enqueue(t.db, { kind: 'test.newer-release', payload: {} }, { clock });
    expect(await worker({ handlers: [definition] }).runDue()).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('wakes at once when poked, without waiting for the next poll', async () => {
    const { definition, runs } = probe();
    const w = worker({ handlers: [definition], pollIntervalMs: 60_000 });
    w.start();
    try {
      await until(() => log.lines.some((line) => line.msg === 'jobs.worker_started'));
      await new Promise((r) => setTimeout(r, 50)); // the loop is now asleep
      const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock });
      const poked = Date.now();
      w.poke();
      await until(async () => (await row(id)).status === 'done', 2000);
      expect(Date.now() - poked).toBeLessThan(1000);
      expect(runs.get(id)).toBe(1);
    } finally {
      await w.stop({ graceMs: 1000 });
    }
  });

  it('drains on stop: finishes the running job, claims nothing new', async () => {
    const gate = deferred();
    const started = deferred();
    const { definition, runs } = probe(async () => {
      started.resolve();
      await gate.promise;
    });
    const w = worker({ handlers: [definition], pollIntervalMs: 10 });
    const first = await enqueueJob(t.db, definition, { n: 1 }, { clock });
    w.start();
    await started.promise;
    const stopping = w.stop({ graceMs: 5000 });
    const second = await enqueueJob(t.db, definition, { n: 2 }, { clock });
    w.poke();
    await new Promise((r) => setTimeout(r, 50));
    gate.resolve();
    expect(await stopping).toEqual({ drained: true });
    expect((await row(first.id)).status).toBe('done');
    await new Promise((r) => setTimeout(r, 50));
    expect(await row(second.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(runs.has(second.id)).toBe(false);
  });

  it('aborts what still runs at the end of the grace time and gives it back without counting the attempt', async () => {
    const started = deferred();
    const { definition } = probe(async ({ signal }) => {
      started.resolve();
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const w = worker({ handlers: [definition], pollIntervalMs: 10 });
    const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock });
    w.start();
    await started.promise;
    expect(await w.stop({ graceMs: 50 })).toEqual({ drained: false });
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null, run_at: toTimestamp(START) });
  });

  it('cannot finish a job whose lease was taken over by another worker', async () => {
    const gateA = deferred();
    const gateB = deferred();
    const startedA = deferred();
    const startedB = deferred();
    const a = probe(async () => {
      startedA.resolve();
      await gateA.promise;
    });
    const b = probe(async () => {
      startedB.resolve();
      await gateB.promise;
      throw new Error('still broken');
    });
    const { id } = await enqueueJob(t.db, a.definition, { n: 1 }, { clock, timeoutMs: 60 * SECOND });
    const workerA = worker({ handlers: [a.definition], workerId: 'worker-a', leaseMarginMs: 30 * SECOND });
    const workerB = worker({ handlers: [b.definition], workerId: 'worker-b' });
    const runningA = workerA.runDue();
    await startedA.promise;
    expect(await row(id)).toMatchObject({ status: 'running', locked_by: 'worker-a', attempts: 1 });

    // A stalls past its lease (by the clock); B takes the job over.
    clock.advance(90 * SECOND - 1);
    expect(await workerB.runDue()).toBe(0);
    clock.advance(1);
    const runningB = workerB.runDue();
    await startedB.promise;
    expect(await row(id)).toMatchObject({ status: 'running', locked_by: 'worker-b', attempts: 2 });

    // A finally succeeds: it must not mark done a job that is now B's.
    gateA.resolve();
    expect(await runningA).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'running', locked_by: 'worker-b', attempts: 2, finished_at: null });
    expect(log.lines.filter((line) => line.msg === 'job.lease_lost').map((line) => line.fields.workerId)).toEqual(['worker-a']);

    // B's outcome is the one recorded.
    gateB.resolve();
    expect(await runningB).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 2, last_error: 'Error: still broken' });
  });

  it('purges done jobs after 30 days and failed ones after 90, never pending ones', async () => {
    const { definition } = probe();
    const at = (days: number) => new Date(START.getTime() - days * DAY);
    const make = async (status: 'pending' | 'done' | 'failed', finishedDaysAgo: number | null) => {
      const { id } = await enqueueJob(t.db, definition, { n: 1 }, { clock: fakeClock(at(200)) });
      await t.db
        .updateTable('jobs')
        .set({ status, finished_at: finishedDaysAgo === null ? null : toTimestamp(at(finishedDaysAgo)) })
        .where('id', '=', id)
        .execute();
      return id;
    };
    const kept = [await make('done', 29), await make('failed', 89), await make('failed', 31), await make('pending', null)];
    await make('done', 31);
    await make('failed', 91);
    expect(await purgeFinishedJobs(t.db, START)).toBe(2);
    const left = await t.db.selectFrom('jobs').select('id').execute();
    expect(left.map((r) => r.id).sort()).toEqual([...kept].sort());

    // The worker purges when it starts, then from time to time.
    await make('done', 31);
    const w = worker({ handlers: [definition], pollIntervalMs: 10 });
    w.start();
    await until(() => log.lines.some((line) => line.msg === 'jobs.purged'));
    await w.stop({ graceMs: 1000 });
    expect(await count()).toBe(4);
  });

  it('runs each of 200 jobs exactly once with two workers on two connections', async () => {
    const second = openDatabase(t.config);
    try {
      const { definition, runs } = probe(async () => {
        await new Promise((r) => setImmediate(r));
      });
      const ids = new Set<string>();
      await writeTransaction(t.db, async (trx) => {
        for (let n = 0; n < 200; n++) ids.add((await enqueueJob(trx, definition, { n }, { clock })).id);
      });
      const one = worker({ handlers: [definition], workerId: 'one', concurrency: 2 });
      const two = createJobWorker({ db: second.db, clock, logger: log.logger, handlers: [definition], workerId: 'two', concurrency: 2 });
      const [byOne, byTwo] = await Promise.all([one.runDue(), two.runDue()]);
      expect(byOne + byTwo).toBe(200);
      expect(byOne).toBeGreaterThan(0);
      expect(byTwo).toBeGreaterThan(0);
      expect([...runs.keys()].sort()).toEqual([...ids].sort());
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      const statuses = await t.db.selectFrom('jobs').select(['status', 'attempts']).execute();
      expect(statuses.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
      expect(log.lines.filter((line) => line.level !== 'debug')).toEqual([]);
    } finally {
      await second.close();
    }
    // 200 jobs claimed one by one against a real server: seconds on a busy CI machine.
  }, 30_000);
});
