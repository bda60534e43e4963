/**
 * Services under test with the real job machinery: `withJobs(base)` gives ServerDeps whose
 * scheduled work runs when the test calls `flush()` — every job due by the test's clock, with
 * the same handlers as the server (src/server/runtime.ts), until none is left.
 */
import type { ServerDeps } from '../../src/server/core/deps';
import { createJobWorker } from '../../src/server/jobs';
import { jobHandlers } from '../../src/server/runtime';

export function withJobs(base: Omit<ServerDeps, 'jobs'>): ServerDeps & { flush(): Promise<number>; readonly wakes: number } {
  const deps = { ...base, wakes: 0, jobs: { wake: () => { deps.wakes++; } } };
  return Object.assign(deps, {
    /** Runs the due jobs (and the jobs they schedule); resolves with the number of runs. */
    async flush() {
      const worker = createJobWorker({ db: base.db, handlers: jobHandlers(deps), clock: base.clock, retryDelay: () => 0 });
      let total = 0;
      for (let round = 0; round < 10; round++) {
        const ran = await worker.runDue();
        total += ran;
        if (ran === 0) break;
      }
      await worker.stop({ graceMs: 0 });
      return total;
    },
  });
}
