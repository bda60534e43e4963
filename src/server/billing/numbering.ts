/**
 * Gapless numbering: one series per document type, each a row of `document_counters` holding
 * the last number given. `allotNumber` runs inside the transaction that inserts the document:
 * the update locks the row until that transaction ends (PostgreSQL row lock; SQLite's single
 * writer), so numbers follow each other in commit order, and a transaction that rolls back
 * (a crash, a failed insert, an injected fault) gives its number back with it. A PostgreSQL
 * sequence would leave a gap for every rollback: never use one for these.
 */
import type { Kysely } from 'kysely';
import type { Database, DocumentKind } from '../db/database';

/** The printed prefix of each series: F-000001, AV-000001, RD-000001, RA-000001. */
export const SERIES: Record<DocumentKind, string> = { invoice: 'F', credit_note: 'AV', receipt: 'RD', statement: 'RA' };

/** The next number of the series, taken in the caller's transaction. */
export async function allotNumber(trx: Kysely<Database>, series: string): Promise<number> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const next = await trx
      .updateTable('document_counters')
      .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
      .where('series', '=', series)
      .returning('last_number')
      .executeTakeFirst();
    if (next) return Number(next.last_number);
    // First document of the series: create its row (another transaction may be doing the same;
    // on PostgreSQL this waits for it, then does nothing), and take the number again.
    await trx
      .insertInto('document_counters')
      .values({ series, last_number: 0 })
      .onConflict((oc) => oc.column('series').doNothing())
      .execute();
  }
  throw new Error(`No counter row for series ${series}`);
}

/** « F-000042 » */
export const formatNumber = (series: string, number: number): string => `${series}-${String(number).padStart(6, '0')}`;
