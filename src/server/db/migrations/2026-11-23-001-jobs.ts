/**
 * Jobs: durable work done after an HTTP answer or at a due time (mails, receipts, renewals,
 * webhook effects), claimed by workers through a lease. See src/server/jobs/CONTEXT.md.
 *
 * Portable like every migration: text ids, ISO-UTC text times written by the application (no
 * database clock), integers. `status` is not a CHECK constraint (a new value would need a table
 * rebuild on SQLite). `unique_key` is unique when set; both dialects let several rows hold null.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('unique_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // The claim: due pending jobs, oldest first…
  await db.schema.createIndex('jobs_status_run_at_idx').on('jobs').columns(['status', 'run_at']).execute();
  // …and running jobs whose lease has ended (a crashed or stalled worker).
  await db.schema.createIndex('jobs_status_locked_until_idx').on('jobs').columns(['status', 'locked_until']).execute();
  // The retention purge of finished jobs.
  await db.schema.createIndex('jobs_status_finished_at_idx').on('jobs').columns(['status', 'finished_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
