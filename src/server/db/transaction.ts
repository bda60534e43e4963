/**
 * Write transactions, the same call on both dialects.
 *
 * On SQLite the transaction opens with `BEGIN IMMEDIATE`: the dialect built by `openDatabase`
 * does that for every Kysely transaction, so the write lock is taken before the first read and a
 * second process waits (busy_timeout) instead of failing with SQLITE_BUSY halfway through. On
 * PostgreSQL it is an ordinary READ COMMITTED transaction: make read-then-write sequences atomic
 * with a single statement (`update … set n = n + 1 returning n`, `insert … on conflict`).
 *
 * Keep the body short and free of network calls (mail, payment provider): on SQLite the process
 * has one connection, and every other query waits for the transaction to end.
 */
import { type Kysely, Transaction } from 'kysely';
import type { Database } from './database';

/**
 * Runs `fn` in a write transaction: commits what it did if it resolves, rolls everything back
 * and rethrows if it throws. Inside, use only `trx` (on SQLite, a query through the outer `db`
 * would wait for the transaction to end, which waits for that query).
 *
 * Called with a transaction as `db`, it joins it instead of nesting: a service that opens its
 * own transaction can also run inside a caller's. The outer transaction then decides, so an inner
 * error caught by the caller does not undo the inner writes.
 *
 * `db` must come from `openDatabase` (or `getDatabase`): a Kysely built elsewhere on SQLite would
 * open deferred transactions.
 */
export async function writeTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db instanceof Transaction) return fn(db);
  return db.transaction().execute(fn);
}
