/**
 * An assembly held on second call names the first-call assembly that did not reach its quorum
 * (`first_call_id`): the notice, the pages and the minutes say so, and a first call has at most
 * one second call (the unique index).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('assemblies').addColumn('first_call_id', 'text').execute();
  await db.schema.createIndex('assemblies_first_call_idx').unique().on('assemblies').column('first_call_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('assemblies_first_call_idx').execute();
  await db.schema.alterTable('assemblies').dropColumn('first_call_id').execute();
}
