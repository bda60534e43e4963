/**
 * A kind of job: its name, the zod schema of its payload, its defaults, and the handler.
 *
 *   export const sendMailJob = defineJob({
 *     kind: 'mail.send',
 *     schema: z.object({ template: z.string(), to: z.email() }),
 *     timeoutMs: 30_000,
 *     run: async ({ payload, job, signal }) => { … },
 *   });
 */
import type { z } from 'zod';

/** What a handler is given for one run. */
export interface JobContext<P> {
  /** The payload, parsed by the kind's schema. */
  payload: P;
  job: {
    id: string;
    kind: string;
    /** 1 for the first run, 2 for the first retry… */
    attempt: number;
    maxAttempts: number;
  };
  /**
   * Aborted when the run exceeds the job's timeout (reason `JobTimeoutError`) or when the worker
   * stops and its grace time runs out (`JobShutdownError`). Pass it on (fetch, mail transport) or
   * check it: a handler that ignores it may still be running when the job is taken again.
   */
  signal: AbortSignal;
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  /** Unique among the worker's handlers; stored in `jobs.kind`. Renaming it orphans queued jobs. */
  readonly kind: string;
  /** Validates the payload when the job runs; an invalid payload fails the job without retry. */
  readonly schema: S;
  /** Default for `enqueueJob` (5 when neither says). */
  readonly maxAttempts?: number;
  /** Default for `enqueueJob` (60 s when neither says). */
  readonly timeoutMs?: number;
  /**
   * Does the work. Must be idempotent: a job runs at least once (see CONTEXT.md). Resolving marks
   * the job done; throwing counts as a failed attempt.
   */
  run(context: JobContext<z.output<S>>): Promise<void>;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  if (!/^[a-z0-9][a-z0-9._:-]{0,99}$/.test(definition.kind)) {
    throw new Error(`Invalid job kind ${JSON.stringify(definition.kind)}: lower-case letters, digits, '.', '_', ':' and '-'.`);
  }
  return Object.freeze({ ...definition });
}
