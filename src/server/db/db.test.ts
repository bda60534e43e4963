import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { type Kysely, NO_MIGRATIONS, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { closeDatabase, getDatabase } from './client';
import { type Database, type NewUserRow, newId, toTimestamp } from './database';
import { createMigrator, migrateToLatest, migrations } from './migrate';
import { writeTransaction } from './transaction';

const NOW = new Date('2026-11-21T10:00:00Z');
const LATER = new Date('2026-12-21T10:00:00Z');

function userRow(overrides: Partial<NewUserRow> = {}): NewUserRow {
  return {
    id: newId(),
    email: `${newId()}@example.fr`,
    password_hash: null,
    given_name: 'Camille',
    family_name: 'Martin',
    email_verified_at: null,
    created_at: toTimestamp(NOW),
    updated_at: toTimestamp(NOW),
    ...overrides,
  };
}

async function createUser(db: Kysely<Database>, overrides: Partial<NewUserRow> = {}) {
  const row = userRow(overrides);
  await db.insertInto('users').values(row).execute();
  return row;
}

async function createSession(db: Kysely<Database>, userId: string) {
  await db
    .insertInto('sessions')
    .values({
      id_hash: newId(),
      user_id: userId,
      persistent: 1,
      created_at: toTimestamp(NOW),
      expires_at: toTimestamp(LATER),
      last_seen_at: toTimestamp(NOW),
      user_agent: null,
    })
    .execute();
}

async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return n;
}

describeEachDialect('database', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.close());

  it('applies the migrations once: a second run applies nothing', async () => {
    expect(t.migrated).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('migrates down and up again', async () => {
    const down = await createMigrator(t.db).migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    const tables = await t.db.introspection.getTables();
    expect(tables.map((table) => table.name).filter((name) => !name.startsWith('kysely_'))).toEqual([]);
    expect(await migrateToLatest(t.db)).toEqual(Object.keys(migrations));
  });

  it('gives the orders made before references existed one each, all different', async () => {
    const before = await createMigrator(t.db).migrateTo('2026-11-29-002-transfer-received');
    expect(before.error).toBeUndefined();
    const at = toTimestamp(NOW);
    const old = (n: number) => ({
      id: newId(),
      user_id: null,
      purpose: 'donation',
      reason: 'initial',
      offer_id: 'don',
      description: 'Don',
      interval: null,
      quantity: 1,
      amount_cents: 1000,
      vat_rate_bp: 0,
      vat_cents: 0,
      currency: 'EUR',
      source: null,
      status: 'paid',
      method: 'card',
      provider: 'simulated',
      checkout_ref: null,
      payment_ref: null,
      subscription_id: null,
      attempt_key: `avant-references-${n}-${newId()}`,
      billing_name: 'Ancienne commande',
      billing_address: '',
      terms_accepted_at: null,
      immediate_start_at: null,
      period_start: null,
      period_end: null,
      failure_reason: null,
      submitted_at: null,
      paid_at: at,
      created_at: at,
      updated_at: at,
    });
    const rows = [old(1), old(2), old(3)];
    await (t.db as Kysely<any>).insertInto('orders').values(rows).execute();
    expect(await migrateToLatest(t.db)).toContain('2026-11-30-007-order-references');
    const references = await t.db
      .selectFrom('orders')
      .select('reference')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(references).toHaveLength(3);
    for (const { reference } of references) expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(new Set(references.map((r) => r.reference)).size).toBe(3);
    await t.db.deleteFrom('order_events').execute();
    await t.db
      .deleteFrom('orders')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
  });

  it('leaves no trace of a migration that fails halfway, and says which one failed', async () => {
    const broken = {
      ...migrations,
      '2099-01-01-001-broken': {
        up: async (db: Kysely<any>) => {
          await db.schema.createTable('half_done').addColumn('id', 'text').execute();
          throw new Error('cassée');
        },
      },
    };
    await expect(migrateToLatest(t.db, broken)).rejects.toThrow('Échec de la migration de la base (2099-01-01-001-broken) : cassée');
    expect((await t.db.introspection.getTables()).map((table) => table.name)).not.toContain('half_done');
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('fills the defaults and reads back integers, flags and timestamps the same way', async () => {
    const { id } = await createUser(t.db, { given_name: undefined, family_name: undefined });
    const user = await t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      role: 'reader',
      country: 'FR',
      newsletter: 0,
      given_name: '',
      address_line2: '',
      created_at: '2026-11-21T10:00:00.000Z',
    });
    expect(typeof (await countRows(t.db, 'users'))).toBe('number');
  });

  it('refuses a second account with the same e-mail, and an e-mail not lower-cased', async () => {
    await createUser(t.db, { email: 'lea@example.fr' });
    await expect(createUser(t.db, { email: 'lea@example.fr' })).rejects.toThrow(/unique|duplicate/i);
    await expect(createUser(t.db, { email: 'Lea.Autre@example.fr' })).rejects.toThrow(/check/i);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'lea@example.fr').execute()).toHaveLength(1);
  });

  it('deletes the sessions and tokens of a deleted user', async () => {
    const other = await createUser(t.db);
    await createSession(t.db, other.id);
    const user = await createUser(t.db);
    await createSession(t.db, user.id);
    await createSession(t.db, user.id);
    await t.db
      .insertInto('tokens')
      .values({
        id_hash: newId(),
        purpose: 'password_reset',
        user_id: user.id,
        email: user.email,
        created_at: toTimestamp(NOW),
        expires_at: toTimestamp(LATER),
      })
      .execute();

    await t.db.deleteFrom('users').where('id', '=', user.id).execute();

    expect(await t.db.selectFrom('sessions').select('user_id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('tokens').select('id_hash').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('sessions').select('user_id').where('user_id', '=', other.id).execute()).toHaveLength(1);
  });

  it('refuses a session for a user that does not exist', async () => {
    await expect(createSession(t.db, newId())).rejects.toThrow(/foreign key/i);
  });

  it('commits what a write transaction did, and returns its result', async () => {
    const row = userRow();
    const result = await writeTransaction(t.db, async (trx) => {
      await trx.insertInto('users').values(row).execute();
      await createSession(trx, row.id);
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', row.id).execute()).toHaveLength(1);
  });

  it('rolls back everything a write transaction did when it throws, and rethrows', async () => {
    const [users, sessions] = [await countRows(t.db, 'users'), await countRows(t.db, 'sessions')];
    const failure = new Error('échec simulé');
    const row = userRow();
    await expect(
      writeTransaction(t.db, async (trx) => {
        await trx.insertInto('users').values(row).execute();
        await createSession(trx, row.id);
        // A service that opens its own write transaction joins the caller's.
        await writeTransaction(trx, async (inner) => {
          await inner.updateTable('users').set({ given_name: 'Joint' }).execute();
        });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect([await countRows(t.db, 'users'), await countRows(t.db, 'sessions')]).toEqual([users, sessions]);
    expect(await t.db.selectFrom('users').select('id').where('given_name', '=', 'Joint').execute()).toEqual([]);
  });

  describe.runIf(kind === 'sqlite')('SQLite settings', () => {
    const pragma = async (name: string) => {
      const { rows } = await sql<Record<string, unknown>>`pragma ${sql.raw(name)}`.execute(t.db);
      return Object.values(rows[0] ?? {})[0];
    };

    it('runs in WAL mode with synchronous FULL, foreign keys and a busy timeout', async () => {
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(2);
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    });

    it('takes the write lock when a write transaction opens, before any statement', async () => {
      if (t.config.kind !== 'sqlite') throw new Error('unreachable');
      const other = new SqliteDatabase(t.config.path, { timeout: 0 });
      try {
        await writeTransaction(t.db, async () => {
          expect(() => other.exec('begin immediate')).toThrow(/locked|busy/i);
        });
        other.exec('begin immediate');
        other.exec('rollback');
      } finally {
        other.close();
      }
    });

    it('serialises write transactions from two connections instead of failing', async () => {
      if (t.config.kind !== 'sqlite') throw new Error('unreachable');
      const key = { key: `test:${newId()}`, window_start: toTimestamp(NOW) };
      await t.db
        .insertInto('rate_limits')
        .values({ ...key, count: 0 })
        .execute();
      const holdMs = 150;
      // Another connection, in another thread as it would be in another process: it holds the
      // write lock for a while, in the middle of a read-then-write.
      const worker = new Worker(
        `const { parentPort, workerData: w } = require('node:worker_threads');
         const db = new (require(w.driver))(w.path, { timeout: 5000 });
         db.exec('begin immediate');
         const { count } = db.prepare('select count from rate_limits where key = ? and window_start = ?').get(w.key, w.window_start);
         parentPort.postMessage('locked');
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, w.holdMs);
         db.prepare('update rate_limits set count = ? where key = ? and window_start = ?').run(count + 1, w.key, w.window_start);
         db.exec('commit');
         db.close();`,
        { eval: true, workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path: t.config.path, holdMs, ...key } },
      );
      const exited = new Promise<number>((resolve, reject) => {
        worker.once('error', reject);
        worker.once('exit', resolve);
      });
      await new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
      });

      const started = Date.now();
      await writeTransaction(t.db, async (trx) => {
        const { count } = await trx
          .selectFrom('rate_limits')
          .select('count')
          .where('key', '=', key.key)
          .where('window_start', '=', key.window_start)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('rate_limits')
          .set({ count: count + 1 })
          .where('key', '=', key.key)
          .where('window_start', '=', key.window_start)
          .execute();
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(holdMs / 2);
      expect(await exited).toBe(0);

      const { count } = await t.db.selectFrom('rate_limits').select('count').where('key', '=', key.key).executeTakeFirstOrThrow();
      expect(count).toBe(2);
    });
  });

  describe.runIf(kind === 'postgres')('PostgreSQL settings', () => {
    it('names its connections', async () => {
      const { rows } = await sql<{ name: string }>`select current_setting('application_name') as name`.execute(t.db);
      expect(rows[0]?.name).toBe('contrechamp');
    });
  });
});

describe('getDatabase', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'contrechamp-getdb-'));
  });
  afterAll(async () => {
    await closeDatabase();
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens and migrates the configured database once, however many callers ask at first', async () => {
    vi.stubEnv('DATABASE_URL', '');
    vi.stubEnv('SQLITE_PATH', join(dir, 'nested', 'site.db'));
    const [a, b] = await Promise.all([getDatabase(), getDatabase()]);
    expect(a).toBe(b);
    expect(a.dialect).toBe('sqlite');
    expect(await countRows(a.db, 'users')).toBe(0);
    expect(await migrateToLatest(a.db)).toEqual([]);
  });
});
