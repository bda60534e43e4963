/**
 * Jobs benchmark: 5,000 trivial jobs on SQLite (a temporary file, the production settings: WAL,
 * synchronous=FULL), run by one worker, then by two workers on two connections to the same file.
 * Prints enqueue and run rates, and fails if any job ran other than exactly once.
 *
 *   npx tsx scripts/bench/jobs.ts            (5000 jobs)
 *   npx tsx scripts/bench/jobs.ts 20000 2    (jobs, concurrency per worker)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { writeTransaction } from '../../src/server/db/transaction';
import { createJobWorker, defineJob, enqueueJob, type JobLogger } from '../../src/server/jobs';

const total = Number(process.argv[2] ?? 5000);
const concurrency = Number(process.argv[3] ?? 1);
const quiet: JobLogger = { debug: () => {}, info: () => {}, warn: console.warn, error: console.error };

const dir = mkdtempSync(join(tmpdir(), 'contrechamp-bench-jobs-'));
const config = { kind: 'sqlite' as const, path: join(dir, 'jobs.db') };
const first = openDatabase(config);
const second = openDatabase(config);
let failed = false;

try {
  await migrateToLatest(first.db);
  const runs = new Map<string, number>();
  const job = defineJob({
    kind: 'bench.noop',
    schema: z.object({ n: z.number() }),
    run: async ({ job: { id } }) => {
      runs.set(id, (runs.get(id) ?? 0) + 1);
    },
  });

  for (const workers of [1, 2]) {
    runs.clear();
    await first.db.deleteFrom('jobs').execute();
    const ids: string[] = [];
    let started = performance.now();
    // In batches of 500 per transaction, as a burst of requests would not be one transaction.
    for (let n = 0; n < total; n += 500) {
      await writeTransaction(first.db, async (trx) => {
        for (let i = n; i < Math.min(total, n + 500); i++) ids.push((await enqueueJob(trx, job, { n: i })).id);
      });
    }
    const enqueueSeconds = (performance.now() - started) / 1000;

    const handles = [first, second].slice(0, workers);
    const pool = handles.map((handle, i) => createJobWorker({ db: handle.db, handlers: [job], workerId: `bench-${i}`, concurrency, logger: quiet }));
    started = performance.now();
    const perWorker = await Promise.all(pool.map((worker) => worker.runDue()));
    const runSeconds = (performance.now() - started) / 1000;

    const twice = [...runs.values()].filter((count) => count > 1).length;
    const missing = ids.filter((id) => !runs.has(id)).length;
    const notDone = Number(
      (
        await first.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('status', '!=', 'done')
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.log(
      `${workers} worker(s) × concurrency ${concurrency}: enqueued ${total} in ${enqueueSeconds.toFixed(2)} s ` +
        `(${Math.round(total / enqueueSeconds)}/s); ran them in ${runSeconds.toFixed(2)} s ` +
        `(${Math.round(total / runSeconds)} jobs/s; per worker ${perWorker.join(' + ')}); ` +
        `ran twice: ${twice}, never ran: ${missing}, not done: ${notDone}`,
    );
    if (twice > 0 || missing > 0 || notDone > 0) failed = true;
  }
} finally {
  await second.close();
  await first.close();
  rmSync(dir, { recursive: true, force: true });
}
if (failed) {
  console.error('FAILED: some job did not run exactly once.');
  process.exitCode = 1;
}
