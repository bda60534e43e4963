/**
 * Opening the database: SQLite (better-sqlite3) by default, PostgreSQL (pg) when DATABASE_URL
 * is set. Both give a `Kysely<Database>` that behaves the same for the rest of the code.
 *
 * On SQLite every transaction Kysely opens is `BEGIN IMMEDIATE` (see `ImmediateSqliteDriver`):
 * `db.transaction()`, `writeTransaction()` and the migrator alike take the write lock up front,
 * so two processes sharing the file wait for each other (busy_timeout) instead of failing when
 * both try to upgrade a read lock to a write lock.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
import pg from 'pg';
import { type Config, config } from '../core/config';
import { log } from '../core/log';
import type { Database } from './database';
import { migrateToLatest } from './migrate';

export type DialectName = 'sqlite' | 'postgres';

/** An open database: the query builder, which dialect is behind it, and how to close it. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Closes the file or the pool; safe to call more than once. */
  close(): Promise<void>;
}

/** How long a SQLite writer waits for another process's write lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
const POSTGRES_POOL_MAX = 10;
const APPLICATION_NAME = 'contrechamp';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite rolls DDL back like anything else; saying so makes each migration all-or-nothing. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ContrechampSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(dialectConfig: SqliteDialectConfig) {
    super(dialectConfig);
    this.#config = dialectConfig;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** How many prepared statements a connection keeps: the application has a few hundred distinct queries. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * The connection as Kysely sees it, keeping each statement it prepares: Kysely prepares every
 * query anew, and compiling the same SQL on every request was a twentieth of a signed-in page's
 * time (docs/performance.md). better-sqlite3 runs a statement to its end before returning, so a
 * statement is reused only once it is free (one being iterated is `busy`: a fresh one is made).
 * SQLite prepares a kept statement again by itself when a migration changes the schema.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, size = STATEMENT_CACHE_SIZE): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const kept = statements.get(sql);
      if (kept && !kept.busy) return kept;
      const statement = sqlite.prepare(sql);
      if (!kept) {
        if (statements.size >= size) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openSqlite(path: string): DatabaseHandle {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path, { timeout: SQLITE_BUSY_TIMEOUT_MS });
  const mode = sqlite.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal' && path !== ':memory:') log.warn('database.wal_unavailable', { journalMode: mode });
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // Identity and money are written here: a committed transaction must survive a power cut.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new ContrechampSqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: once(() => db.destroy()) };
}

/** count(*) and other bigint results come back as numbers, as they do from SQLite. */
function postgresTypes(): pg.TypeOverrides {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return types;
}

function openPostgres(url: string): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_MAX,
    application_name: APPLICATION_NAME,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    types: postgresTypes(),
  });
  // An idle client losing its server emits here; without a listener the process would exit.
  pool.on('error', (error) => log.error('database.pool_error', { error }));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: once(() => db.destroy()) };
}

/** Opens the configured database. Does not migrate: see `migrateToLatest` or `getDatabase`. */
export function openDatabase(databaseConfig: Config['database']): DatabaseHandle {
  return databaseConfig.kind === 'sqlite' ? openSqlite(databaseConfig.path) : openPostgres(databaseConfig.url);
}

let shared: Promise<DatabaseHandle> | undefined;

/**
 * The process's database, opened from `config().database` and migrated to the latest schema on
 * first use. Concurrent first calls share one opening and one migration; a failed opening is
 * forgotten, so that the next call tries again.
 */
export function getDatabase(): Promise<DatabaseHandle> {
  if (shared) return shared;
  const opening = (async () => {
    const handle = openDatabase(config().database);
    try {
      const applied = await migrateToLatest(handle.db);
      if (applied.length > 0) log.info('database.migrated', { dialect: handle.dialect, applied });
      return handle;
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  })();
  shared = opening;
  opening.catch(() => {
    if (shared === opening) shared = undefined;
  });
  return opening;
}

/** Closes the process's database, if it was opened (graceful shutdown, end of a script). */
export async function closeDatabase(): Promise<void> {
  const opening = shared;
  shared = undefined;
  const handle = await opening?.catch(() => undefined);
  await handle?.close();
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
