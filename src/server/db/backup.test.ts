import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { type BackupPaths, backupPaths, createBackup, DatabaseInUseError, readBackup, restoreBackup } from './backup';
import { openDatabase } from './client';
import { migrateToLatest } from './migrate';

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * A writer in another thread, as the server would be: one committed transaction per row
 * (`probe-<n>` in rate_limits, n = 1, 2, …), the count of acknowledged (committed) rows kept in
 * shared memory, updated right after each commit.
 */
function startWriter(path: string) {
  const shared = new Int32Array(new SharedArrayBuffer(8)); // [stop, acknowledged]
  const worker = new Worker(
    `const { workerData: w } = require('node:worker_threads');
     const db = new (require(w.driver))(w.path, { timeout: 5000 });
     db.pragma('journal_mode = WAL'); db.pragma('synchronous = FULL');
     const insert = db.prepare("insert into rate_limits (key, window_start, count) values (?, '2026-11-26T10:00:00.000Z', ?)");
     for (let n = 1; Atomics.load(w.shared, 0) === 0; n++) {
       insert.run('probe-' + n, n);
       Atomics.store(w.shared, 1, n);
     }
     db.close();`,
    { eval: true, workerData: { driver, path, shared } },
  );
  const exited = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  return {
    acknowledged: () => Atomics.load(shared, 1),
    stop: async () => {
      Atomics.store(shared, 0, 1);
      await exited;
      return Atomics.load(shared, 1);
    },
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function deployment(root: string): BackupPaths {
  const dataDir = join(root, 'data');
  return { sqlitePath: join(dataDir, 'contrechamp.db'), dataDir, outboxDir: join(dataDir, 'outbox') };
}

async function probeRows(path: string): Promise<number[]> {
  const handle = openDatabase({ kind: 'sqlite', path });
  try {
    const rows = await handle.db.selectFrom('rate_limits').select('count').where('key', 'like', 'probe-%').execute();
    return rows.map((r) => r.count).sort((a, b) => a - b);
  } finally {
    await handle.close();
  }
}

describe('backup and restore (SQLite)', () => {
  let root: string;
  let live: BackupPaths;
  let backup: { dir: string };
  let acknowledgedBefore = 0;
  let acknowledgedAfter = 0;
  let lastWritten = 0;
  const secret = randomBytes(32);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'backup-'));
    live = deployment(join(root, 'live'));
    const handle = openDatabase({ kind: 'sqlite', path: live.sqlitePath });
    await migrateToLatest(handle.db);
    // A few megabytes already there, so that the copy takes a while.
    const filler = 'x'.repeat(400);
    for (let batch = 0; batch < 20; batch++) {
      await handle.db
        .insertInto('rate_limits')
        .values(Array.from({ length: 500 }, (_, i) => ({ key: `filler-${batch}-${i}-${filler}`, window_start: '2026-11-26T09:00:00.000Z', count: 0 })))
        .execute();
    }
    await handle.close();
    writeFileSync(join(live.dataDir, 'secret.key'), secret, { mode: 0o600 });
    mkdirSync(live.outboxDir!, { recursive: true });
    writeFileSync(join(live.outboxDir!, '2026-11-26-welcome.eml'), 'Subject: Bienvenue\r\n\r\nBonjour');
    // A message whose writer was killed midway (`kill -9`): never a message.
    writeFileSync(join(live.outboxDir!, '2026-11-26-coupe.eml.1a2b3c4d.tmp'), 'Subject: Coup');

    const writer = startWriter(live.sqlitePath);
    await until(() => writer.acknowledged() >= 200);
    acknowledgedBefore = writer.acknowledged();
    backup = await createBackup(live, join(root, 'backups'));
    acknowledgedAfter = writer.acknowledged();
    await until(() => writer.acknowledged() >= acknowledgedAfter + 50);
    lastWritten = await writer.stop();
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('was taken while the writer kept committing', () => {
    expect(acknowledgedAfter).toBeGreaterThan(acknowledgedBefore);
    expect(lastWritten).toBeGreaterThan(acknowledgedAfter);
    expect(readdirSync(join(root, 'backups'))).toEqual([backup.dir.split('/').pop()]);
    expect(backup.dir).toMatch(/contrechamp-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
  });

  it('restores elsewhere with every write acknowledged before it began, and the app migrates and opens it', async () => {
    const elsewhere = deployment(join(root, 'elsewhere'));
    const { manifest, setAside } = restoreBackup(backup.dir, elsewhere);
    expect(setAside).toBeUndefined();
    expect(manifest.keys).toEqual(['secret.key']);

    const handle = openDatabase({ kind: 'sqlite', path: elsewhere.sqlitePath });
    try {
      expect(await migrateToLatest(handle.db)).toEqual([]);
      const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(handle.db);
      expect(integrity.rows[0]?.integrity_check).toBe('ok');
      const users = await handle.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(users.n)).toBe(0);
    } finally {
      await handle.close();
    }
    const rows = await probeRows(elsewhere.sqlitePath);
    // Every acknowledged write up to the start is there, in an unbroken run (no hole, nothing torn)…
    expect(rows.length).toBeGreaterThanOrEqual(acknowledgedBefore);
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    // …and nothing written after the copy ended.
    expect(rows.length).toBeLessThanOrEqual(acknowledgedAfter);

    expect(readFileSync(join(elsewhere.dataDir, 'secret.key'))).toEqual(secret);
    expect(readFileSync(join(elsewhere.outboxDir!, '2026-11-26-welcome.eml'), 'utf8')).toContain('Bienvenue');
  });

  it('holds the outbox’s messages, not the temporary file a killed writer left; restoring an older backup brings none back', () => {
    expect(readdirSync(join(backup.dir, 'outbox'))).toEqual(['2026-11-26-welcome.eml']);
    expect(readBackup(backup.dir).outbox).toEqual({ files: 1 });
    // A backup taken before temporary files were left out.
    const older = join(root, 'older-backup');
    cpSync(backup.dir, older, { recursive: true });
    writeFileSync(join(older, 'outbox', '2026-11-25-coupe.eml.0f0f0f0f.tmp'), 'Subject: Coup');
    const target = deployment(join(root, 'from-older'));
    restoreBackup(older, target);
    expect(readdirSync(target.outboxDir!)).toEqual(['2026-11-26-welcome.eml']);
  });

  it('refuses to restore over a database that a server holds open, and changes nothing', async () => {
    const handle = openDatabase({ kind: 'sqlite', path: live.sqlitePath });
    try {
      await handle.db.selectFrom('users').select('id').limit(1).execute();
      expect(() => restoreBackup(backup.dir, live)).toThrow(DatabaseInUseError);
      expect(readdirSync(live.dataDir).some((name) => name.startsWith('pre-restore-'))).toBe(false);
    } finally {
      await handle.close();
    }
    expect(await probeRows(live.sqlitePath)).toHaveLength(lastWritten);
  });

  it('restores over the stopped deployment, setting what it replaces aside', async () => {
    const { setAside } = restoreBackup(backup.dir, live, new Date('2026-11-26T12:00:00Z'));
    expect(setAside).toBe(join(live.dataDir, 'pre-restore-2026-11-26T12-00-00Z'));
    expect(await probeRows(join(setAside!, 'contrechamp.db'))).toHaveLength(lastWritten);
    const restored = await probeRows(live.sqlitePath);
    expect(restored.length).toBeGreaterThanOrEqual(acknowledgedBefore);
    expect(restored.length).toBeLessThan(lastWritten);
    expect(existsSync(join(setAside!, 'secret.key'))).toBe(true);
  });

  it('refuses a damaged or unfinished backup', () => {
    const damaged = join(root, 'damaged');
    rmSync(damaged, { recursive: true, force: true });
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'manifest.json'), readFileSync(join(backup.dir, 'manifest.json')));
    writeFileSync(join(damaged, 'contrechamp.db'), 'not a database');
    expect(() => readBackup(damaged)).toThrow(/ne correspond pas/);
    expect(() => readBackup(`${backup.dir}.partial`)).toThrow(/interrompue/);
    expect(() => readBackup(join(root, 'live'))).toThrow(/manifest/);
  });

  it('sends PostgreSQL deployments to pg_dump', () => {
    expect(() => backupPaths(loadConfig({ DATABASE_URL: 'postgres://u:p@db/contrechamp', APP_MODE: 'demo' }))).toThrow(/pg_dump/);
    expect(backupPaths(loadConfig({ DATA_DIR: '/srv/data' }))).toEqual({
      sqlitePath: '/srv/data/contrechamp.db',
      dataDir: '/srv/data',
      outboxDir: '/srv/data/outbox',
    });
  });
});
