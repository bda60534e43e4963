/**
 * Job types and scheduling, for the domains. A domain declares each kind of work once, without
 * its handler (`jobType`), so that a service can schedule it inside its own transaction; the
 * handler is attached where the process's dependencies exist (`handle`, in the domain's
 * `jobs.ts`), and `runtime.ts` gives every handler to the worker.
 *
 *   export const SIGN_IN_LINK = jobType({ kind: 'auth.sign-in-link', schema: z.object({ email: z.email() }) });
 *   await schedule(deps, trx, SIGN_IN_LINK, { email });   // commits or rolls back with trx
 *   handle(SIGN_IN_LINK, async ({ payload }) => { … });     // in auth/jobs.ts
 */
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ServerDeps } from '../core/deps';
import type { Database } from '../db/database';
import { defineJob, type JobDefinition } from './definition';
import { InvalidJobPayloadError } from './errors';
import { describeIssues, enqueue, type Enqueued } from './queue';

export interface JobType<S extends z.ZodType> {
  readonly kind: string;
  readonly schema: S;
  readonly maxAttempts?: number;
  readonly timeoutMs?: number;
}

export const jobType = <S extends z.ZodType>(type: JobType<S>): JobType<S> => Object.freeze({ ...type });

/** The handler of a job type. */
export const handle = <S extends z.ZodType>(type: JobType<S>, run: JobDefinition<S>['run']): JobDefinition<S> => defineJob({ ...type, run });

/**
 * Schedules a job of that type, in `db` (the caller's transaction, or the database), due now
 * by the services' clock unless `runAt` says otherwise. The payload is checked now: a bug in the
 * caller throws here, inside its transaction. Wake the worker (`deps.jobs.wake()`) once the
 * transaction has committed, so that the work starts at once rather than at the next poll.
 */
export function schedule<S extends z.ZodType>(
  deps: Pick<ServerDeps, 'clock'>,
  db: Kysely<Database>,
  type: JobType<S>,
  payload: z.input<S>,
  options: { runAt?: Date; uniqueKey?: string; timeoutMs?: number } = {},
): Promise<Enqueued> {
  const checked = type.schema.safeParse(payload);
  if (!checked.success) throw new InvalidJobPayloadError(type.kind, describeIssues(checked.error));
  return enqueue(
    db,
    {
      kind: type.kind,
      payload,
      ...(options.runAt ? { runAt: options.runAt } : {}),
      ...(options.uniqueKey ? { uniqueKey: options.uniqueKey } : {}),
      ...(type.maxAttempts ? { maxAttempts: type.maxAttempts } : {}),
      ...((options.timeoutMs ?? type.timeoutMs) ? { timeoutMs: options.timeoutMs ?? type.timeoutMs } : {}),
    },
    { clock: deps.clock },
  );
}
