/**
 * Every subscription bulletin gets the short number a person reads and quotes (« B-2026-0042 »)
 * instead of its UUID: one gapless series per calendar year (Paris) of its signature, a row of
 * `document_counters` (`B-2026`) taken in the bulletin's own transaction (shares/bulletins.ts,
 * billing/numbering.ts). The bulletins already signed are numbered here, in the order they were
 * signed, and their year's counter set to the last number given; a unique index keeps them apart.
 */
import type { Kysely } from 'kysely';

// The format of shares/bulletins.ts at the time of this migration, kept here: a migration never changes.
const parisYear = (timestamp: string): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric' }).format(new Date(timestamp));
const format = (year: string, n: number): string => `B-${year}-${String(n).padStart(4, '0')}`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('share_bulletins').addColumn('number', 'text').execute();
  const rows: { id: string; accepted_at: string }[] = await db
    .selectFrom('share_bulletins')
    .select(['id', 'accepted_at'])
    .orderBy('accepted_at')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const last = new Map<string, number>();
  for (const row of rows) {
    const year = parisYear(row.accepted_at);
    const n = (last.get(year) ?? 0) + 1;
    last.set(year, n);
    await db
      .updateTable('share_bulletins')
      .set({ number: format(year, n) })
      .where('id', '=', row.id)
      .execute();
  }
  for (const [year, n] of last) {
    await db
      .insertInto('document_counters')
      .values({ series: `B-${year}`, last_number: n })
      .onConflict((oc) => oc.column('series').doUpdateSet({ last_number: n }))
      .execute();
  }
  await db.schema.createIndex('share_bulletins_number').on('share_bulletins').column('number').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('share_bulletins_number').execute();
  await db.schema.alterTable('share_bulletins').dropColumn('number').execute();
  await db.deleteFrom('document_counters').where('series', 'like', 'B-%').execute();
}
