/**
 * The jobs domain's tables (the durable jobs), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Immutable, Timestamp } from '../db/column-types';

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: Immutable<string>;
  /** Which handler runs it (`JobDefinition.kind`). */
  kind: Immutable<string>;
  /** JSON text, validated by the handler's schema when the job runs. */
  payload: Immutable<string>;
  status: JobStatus;
  /** Due time ("échéance"): the job is not claimed before it. */
  run_at: Timestamp;
  /** Attempts started so far (incremented when a worker claims the job). */
  attempts: Generated<number>;
  max_attempts: Immutable<number>;
  timeout_ms: Immutable<number>;
  /** Worker holding the lease while running; null otherwise. */
  locked_by: string | null;
  /** End of the lease; past it, another worker may take the job again. */
  locked_until: Timestamp | null;
  /** Error name/code and a scrubbed message (no e-mail addresses, tokens or URLs). */
  last_error: string | null;
  /** Unique when set: enqueueing the same key again gives the same job. */
  unique_key: Immutable<string | null>;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface JobTables {
  jobs: JobsTable;
}
