import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Boots the server's wiring on a fresh SQLite file with the given mode, and lists the accounts. */
async function bootAndListAccounts(mode: 'demo' | 'production') {
  const dir = mkdtempSync(join(tmpdir(), 'contrechamp-runtime-'));
  vi.resetModules();
  vi.stubEnv('APP_MODE', mode);
  vi.stubEnv('PAYMENT_PROVIDER', 'simulated');
  vi.stubEnv('DATA_DIR', dir);
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('SQLITE_PATH', '');
  const { services, shutdown } = await import('./runtime');
  try {
    const { db } = await services();
    return (await db.selectFrom('users').select(['email', 'role']).orderBy('email').execute());
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
});
