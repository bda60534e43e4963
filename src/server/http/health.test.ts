import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { toTimestamp } from '../db/database';
import { enqueue } from '../jobs/queue';
import { log } from '../core/log';
import { findClientDir, healthReport, LATE_AFTER_SECONDS } from './health';

const NOW = new Date('2026-11-26T10:00:00Z');
const clock = { now: () => NOW };
const secondsBefore = (s: number) => new Date(NOW.getTime() - s * 1000);

let scratch: string;
let builtClient: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'health-'));
  builtClient = join(scratch, 'dist/client');
  mkdirSync(builtClient, { recursive: true });
  writeFileSync(join(builtClient, 'index.html'), '<!doctype html>');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describeEachDialect('health report', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await t.db.deleteFrom('jobs').execute();
  });

  const report = (clientDir = builtClient) => healthReport({ database: async () => t.db, clock, clientDir, buildId: '2026-11-26T09:00:00.000Z' });

  it('is ready (200) with the database answering and the build present, and names the build', async () => {
    const { status, body } = await report();
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', live: true, ready: true });
    expect(body.checks.database).toEqual({ status: 'ok' });
    expect(body.checks.build).toEqual({ status: 'ok', id: '2026-11-26T09:00:00.000Z' });
    expect(body.checks.queue).toEqual({ status: 'ok', due: 0, running: 0, stalled: 0, failed: 0, oldestDueSeconds: 0 });
    expect(body.checks.publishing).toEqual({ status: 'ok', queued: 0, running: 0 });
  });

  it('tells whether a build of the site waits or runs', async () => {
    const row = (id: string, status: 'queued' | 'running' | 'failed') => ({
      id,
      status,
      trigger: 'cms' as const,
      queued_at: toTimestamp(NOW),
      not_before: toTimestamp(NOW),
    });
    await t.db
      .insertInto('site_builds')
      .values([row('b1', 'running'), row('b2', 'queued'), row('b3', 'failed')])
      .execute();
    try {
      expect((await report()).body.checks.publishing).toEqual({ status: 'ok', queued: 1, running: 1 });
    } finally {
      await t.db.deleteFrom('site_builds').execute();
    }
  });

  it('counts due, running, stalled and failed jobs, and says the queue is late', async () => {
    const add = async (runAt: Date, status?: 'running' | 'failed' | 'done', lockedUntil?: Date) => {
      const { id } = await enqueue(t.db, { kind: 'test.noop', payload: {}, runAt }, { clock });
      if (status) {
        await t.db
          .updateTable('jobs')
          .set({ status, locked_by: status === 'running' ? 'w1' : null, locked_until: lockedUntil ? toTimestamp(lockedUntil) : null })
          .where('id', '=', id)
          .execute();
      }
    };
    await add(secondsBefore(90)); // due for 90 s
    await add(secondsBefore(10)); // due for 10 s
    await add(new Date(NOW.getTime() + 60_000)); // not due yet
    await add(secondsBefore(5), 'running', new Date(NOW.getTime() + 30_000));
    await add(secondsBefore(5), 'failed');
    await add(secondsBefore(5), 'done');

    let { status, body } = await report();
    expect(status).toBe(200);
    expect(body.checks.queue).toEqual({ status: 'ok', due: 2, running: 1, stalled: 0, failed: 1, oldestDueSeconds: 90 });

    // A worker died holding a job: its lease has ended, the queue is late (readiness unchanged).
    await add(secondsBefore(120), 'running', secondsBefore(1));
    ({ status, body } = await report());
    expect(status).toBe(200);
    expect(body.checks.queue).toMatchObject({ status: 'late', running: 1, stalled: 1 });

    // A due job waiting too long makes it late too.
    await t.db.updateTable('jobs').set({ status: 'done', locked_until: null }).where('status', '=', 'running').execute();
    await add(secondsBefore(LATE_AFTER_SECONDS + 1));
    ({ body } = await report());
    expect(body.checks.queue).toMatchObject({ status: 'late', stalled: 0, due: 3, oldestDueSeconds: LATE_AFTER_SECONDS + 1 });
  });

  it('is not ready (503) when the build is missing', async () => {
    const { status, body } = await report(join(scratch, 'nowhere'));
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: 'unavailable', live: true, ready: false });
    expect(body.checks.build).toEqual({ status: 'missing' });
    expect(body.checks.database).toEqual({ status: 'ok' });
    expect((await healthReport({ database: async () => t.db, clock, clientDir: undefined, buildId: 'b1' })).status).toBe(503);
  });
});

describe('health report without a database', () => {
  it('is not ready (503) and tells nothing of the error', async () => {
    const secretish = 'password authentication failed for user "contrechamp" at db.internal:5432 (/srv/contrechamp/data)';
    const { status, body } = await healthReport({
      database: () => Promise.reject(new Error(secretish)),
      clock,
      clientDir: builtClient,
      buildId: 'b1',
    });
    expect(status).toBe(503);
    expect(body.checks).toEqual({
      database: { status: 'unavailable' },
      build: { status: 'ok', id: 'b1' },
      queue: { status: 'unavailable' },
      publishing: { status: 'unavailable' },
    });
    const text = JSON.stringify(body);
    for (const leak of ['password', 'contrechamp', 'db.internal', '5432', '/srv', scratch]) expect(text).not.toContain(leak);
  });

  it('gives up on a database that does not answer', async () => {
    const started = Date.now();
    const { status, body } = await healthReport({ database: () => new Promise(() => {}), clock, clientDir: builtClient, buildId: 'b1', timeoutMs: 200 });
    expect(status).toBe(503);
    expect(body.checks.database.status).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('while the first start migrates and seeds, says « starting » and logs no error; after it, an outage is an error', async () => {
    const errors = vi.spyOn(log, 'error');
    const infos = vi.spyOn(log, 'info');
    try {
      let first = true;
      const slow = { database: () => new Promise<never>(() => {}), clock, clientDir: builtClient, buildId: 'b1', timeoutMs: 100, starting: () => first };
      const starting = await healthReport(slow);
      expect(starting.status).toBe(503);
      expect(starting.body).toMatchObject({ status: 'starting', ready: false, checks: { database: { status: 'starting' } } });
      expect(errors).not.toHaveBeenCalledWith('health.database_unreachable', expect.anything());
      expect(infos).toHaveBeenCalledWith('health.database_starting', { timeoutMs: 100 });
      first = false;
      const down = await healthReport(slow);
      expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: { status: 'unavailable' } } });
      expect(errors).toHaveBeenCalledWith('health.database_unreachable', expect.anything());
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
  });

  it('a first start that fails (a setting refused) is an error with its reason, not a slow start', async () => {
    const errors = vi.spyOn(log, 'error');
    const infos = vi.spyOn(log, 'info');
    try {
      const refused = new Error('REBUILD_SECRET est trop faible : au moins 128 bits aléatoires (32 caractères hexadécimaux)');
      const { status, body } = await healthReport({
        database: () => Promise.reject(refused),
        clock,
        clientDir: builtClient,
        buildId: 'b1',
        timeoutMs: 100,
        starting: () => true,
      });
      expect(status).toBe(503);
      expect(body).toMatchObject({ status: 'unavailable', checks: { database: { status: 'unavailable' } } });
      expect(errors).toHaveBeenCalledWith('health.database_unreachable', { error: refused });
      expect(infos).not.toHaveBeenCalledWith('health.database_starting', expect.anything());
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
  });
});

describe('findClientDir', () => {
  it('finds the client folder beside the build’s server folder, from any module under it', () => {
    const server = join(scratch, 'dist/server');
    mkdirSync(join(server, 'chunks/pages'), { recursive: true });
    writeFileSync(join(server, 'entry.mjs'), '');
    expect(findClientDir(pathToFileURL(join(server, 'chunks/pages/health.mjs')).href)).toBe(builtClient);
    expect(findClientDir(pathToFileURL(join(scratch, 'elsewhere/health.ts')).href)).toBeUndefined();
    expect(findClientDir('http://example.com/health.mjs')).toBeUndefined();
  });
});
