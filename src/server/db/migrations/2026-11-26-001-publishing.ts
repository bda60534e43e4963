/**
 * Publishing: the build queue and its history (`site_builds`), and every change of the live build
 * (`site_switches`, append-only). See src/server/editorial/CONTEXT.md.
 *
 * At most one build waits and at most one runs: two partial unique indexes make a second
 * `queued` or `running` row fail on both dialects, so two processes racing to queue or to claim
 * cannot both succeed.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('site_builds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('not_before', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('runner', 'text')
    .addColumn('heartbeat_at', 'text')
    .addColumn('pages', 'integer')
    .addColumn('content_version', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('log', 'text')
    .execute();
  await db.schema.createIndex('site_builds_one_queued').on('site_builds').column('status').unique().where(sql.ref('status'), '=', 'queued').execute();
  await db.schema.createIndex('site_builds_one_running').on('site_builds').column('status').unique().where(sql.ref('status'), '=', 'running').execute();
  await db.schema.createIndex('site_builds_queued_at_idx').on('site_builds').column('queued_at').execute();

  await db.schema
    .createTable('site_switches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('build_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_switches_at_idx').on('site_switches').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('site_switches').execute();
  await db.schema.dropTable('site_builds').execute();
}
