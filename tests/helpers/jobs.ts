/**
 * Services under test with the real job machinery: `withJobs(base)` gives ServerDeps whose
 * scheduled work runs when the test calls `flush()` — every job due by the test's clock, with
 * the same handlers as the server (src/server/runtime.ts), until none is left.
 */
import type { ServerDeps } from '../../src/server/core/deps';
import { createJobWorker } from '../../src/server/jobs';
import { jobHandlers } from '../../src/server/runtime';
import { createSimulatedProvider } from '../../src/server/payments/simulated';

/** The simulated provider's signing key in tests. */
export const TEST_WEBHOOK_KEY = Buffer.alloc(32, 7);

/**
 * `base` without a provider gets the simulated one, with SEPA answers due at once (a test moves
 * its clock to see them pending first) and a fixed signing key.
 */
export function withJobs(
  base: Omit<ServerDeps, 'jobs' | 'payments'> & { payments?: ServerDeps['payments'] },
): ServerDeps & { flush(): Promise<number>; readonly wakes: number } {
  const deps: ServerDeps & { wakes: number } = {
    ...base,
    wakes: 0,
    jobs: {
      wake: () => {
        deps.wakes++;
      },
    },
  } as ServerDeps & { wakes: number };
  deps.payments = base.payments ?? createSimulatedProvider(deps, { sepaDelayMs: 0, signingKey: TEST_WEBHOOK_KEY });
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
