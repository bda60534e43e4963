/**
 * A fresh, migrated database per suite, on either dialect.
 *
 *   describeEachDialect('accounts', (kind) => {
 *     let t: TestDatabase;
 *     beforeAll(async () => { t = await createTestDatabase(kind); });
 *     afterAll(() => t.close());
 *     it('…', async () => { … t.db … });
 *   });
 *
 * SQLite: a file in a temporary folder, removed on close. PostgreSQL: `CREATE DATABASE
 * test_<random>` on the server given by the global setup (tests/setup/postgres.ts) or by env
 * TEST_POSTGRES_URL, dropped on close.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import type { Config } from '../../src/server/core/config';
import { type DatabaseHandle, type DialectName, openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';

export interface TestDatabase extends DatabaseHandle {
  /** What `openDatabase` was given: open it again for a second connection to the same database. */
  config: Config['database'];
  /** Names applied by the initial migration. */
  migrated: string[];
  /** Closes the database, then removes the file or drops the database. */
  close(): Promise<void>;
}

/** Address of the test PostgreSQL server, or undefined when there is none (suites skip). */
export function testPostgresUrl(): string | undefined {
  return inject('postgresUrl') ?? process.env.TEST_POSTGRES_URL ?? undefined;
}

/** Both dialects, with whether each can run here. */
export function testDialects(): { kind: DialectName; available: boolean }[] {
  return [
    { kind: 'sqlite', available: true },
    { kind: 'postgres', available: testPostgresUrl() !== undefined },
  ];
}

/**
 * Declares the suite once per dialect of `testDialects()`, titled `<title> (<dialect>)`; the
 * PostgreSQL one is skipped (`describe.skipIf`) when no server is available.
 */
export function describeEachDialect(title: string, body: (kind: DialectName) => void): void {
  for (const { kind, available } of testDialects()) describe.skipIf(!available)(`${title} (${kind})`, () => body(kind));
}

export async function createTestDatabase(kind: DialectName, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const prepared = kind === 'sqlite' ? prepareSqlite() : await preparePostgres();
  const handle = openDatabase(prepared.config);
  let migrated: string[] = [];
  try {
    if (options.migrate !== false) migrated = await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    await prepared.dispose();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    config: prepared.config,
    migrated,
    close: () =>
      (closing ??= (async () => {
        await handle.close();
        await prepared.dispose();
      })()),
  };
}

interface Prepared {
  config: Config['database'];
  dispose(): Promise<void>;
}

function prepareSqlite(): Prepared {
  const dir = mkdtempSync(join(tmpdir(), 'contrechamp-db-'));
  return {
    config: { kind: 'sqlite', path: join(dir, 'test.db') },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function preparePostgres(): Promise<Prepared> {
  const serverUrl = testPostgresUrl();
  if (!serverUrl) throw new Error('No PostgreSQL server for tests (TEST_POSTGRES_URL); skip the suite with testDialects().');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    // FORCE: a connection a failed test left open must not keep the database alive.
    dispose: () => admin(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
