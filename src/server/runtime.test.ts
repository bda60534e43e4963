import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * A fresh module graph with the server's environment pointing at `dir` (SQLite there, the
 * simulated provider), in `mode`, as app process `appIndex` when given.
 */
function freshRuntimeEnv(dir: string, mode: 'demo' | 'production', appIndex?: string) {
  vi.resetModules();
  vi.stubEnv('APP_MODE', mode);
  vi.stubEnv('PAYMENT_PROVIDER', 'simulated');
  vi.stubEnv('DATA_DIR', dir);
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('SQLITE_PATH', '');
  if (appIndex !== undefined) vi.stubEnv('APP_INDEX', appIndex);
}

/** Boots the server's wiring on a fresh SQLite file with the given mode, and lists the accounts. */
async function bootAndListAccounts(mode: 'demo' | 'production', appIndex?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'contrechamp-runtime-'));
  freshRuntimeEnv(dir, mode, appIndex);
  const { services, shutdown } = await import('./runtime');
  try {
    const { db } = await services();
    return await db.selectFrom('users').select(['email', 'role']).orderBy('email').execute();
  } finally {
    await shutdown(0);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('server wiring', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('creates the demo accounts in demo mode, with staff roles only', async () => {
    expect(await bootAndListAccounts('demo')).toEqual([
      { email: 'abonne@exemple.fr', role: 'reader' },
      { email: 'administration@exemple.fr', role: 'admin' },
      { email: 'lecteur@exemple.fr', role: 'reader' },
      { email: 'partenaire@exemple.fr', role: 'reader' },
      { email: 'redaction@exemple.fr', role: 'editor' },
      { email: 'salariee@exemple.fr', role: 'reader' },
      { email: 'societaire@exemple.fr', role: 'reader' },
    ]);
  }, 30_000);

  it('never creates them in production mode', async () => {
    expect(await bootAndListAccounts('production')).toEqual([]);
  });

  it('seeds the demo in the first app process of npm start only (one background writer)', async () => {
    expect((await bootAndListAccounts('demo', '0')).length).toBe(7);
    expect(await bootAndListAccounts('demo', '1')).toEqual([]);
  }, 30_000);

  it('runs due jobs in the background writer only; another process leaves them in the queue', async () => {
    const run = async (appIndex: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'contrechamp-runtime-'));
      freshRuntimeEnv(dir, 'production', appIndex);
      const { services, shutdown } = await import('./runtime');
      const { schedule } = await import('./jobs/schedule');
      const { SEND_MAIL } = await import('./mail/jobs');
      try {
        const deps = await services();
        const mail = { template: 'test', subject: 'Essai', text: 'Bonjour', html: '<p>Bonjour</p>' };
        const { id } = await schedule(deps, deps.db, SEND_MAIL, { to: 'lea@exemple.fr', mail });
        deps.jobs.wake();
        const status = async () => (await deps.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
        for (let i = 0; i < 50 && ['pending', 'running'].includes(await status()); i++) await new Promise((r) => setTimeout(r, 100));
        return await status();
      } finally {
        await shutdown(0);
        rmSync(dir, { recursive: true, force: true });
      }
    };
    expect(await run('0')).toBe('done');
    expect(await run('1')).toBe('pending');
  }, 30_000);

  it('removes at start the temporary files a killed process left in the outbox, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'contrechamp-runtime-'));
    const outbox = join(dir, 'outbox');
    mkdirSync(outbox, { mode: 0o700 });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    const files = {
      abandoned: '2026-11-26T08-00-00.000Z-0123456789abcdef.eml.1a2b3c4d.tmp',
      recent: '2026-11-26T10-00-00.000Z-fedcba9876543210.eml.5e6f7a8b.tmp',
      message: '2026-11-26T08-00-00.000Z-8899aabbccddeeff.eml',
    };
    for (const name of Object.values(files)) writeFileSync(join(outbox, name), 'Subject: x');
    utimesSync(join(outbox, files.abandoned), twoHoursAgo, twoHoursAgo);
    utimesSync(join(outbox, files.message), twoHoursAgo, twoHoursAgo);
    freshRuntimeEnv(dir, 'production');
    vi.stubEnv('SMTP_URL', '');
    vi.stubEnv('MAIL_OUTBOX_DIR', '');
    const { services, shutdown } = await import('./runtime');
    try {
      await services();
      expect(readdirSync(outbox).sort()).toEqual([files.message, files.recent].sort());
    } finally {
      await shutdown(0);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
