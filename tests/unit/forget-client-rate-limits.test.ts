/** The end-to-end helper that forgets per-client counts forgets all of them, `login:pair:` included. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { AUTH_LIMITS } from '../../src/server/auth/rate-limits';
import { SIGN_UP_LIMITS } from '../../src/server/auth/sign-up-guard';
import { forgetClientRateLimits } from '../helpers/accounts';

describe('forgetClientRateLimits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-forget-'));
  const previous = process.env.E2E_DATA_DIR;
  beforeAll(() => {
    process.env.E2E_DATA_DIR = dir;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.E2E_DATA_DIR;
    else process.env.E2E_DATA_DIR = previous;
    rmSync(dir, { recursive: true, force: true });
  });

  it('clears the counts of a client, alone or with an address, and keeps those of an address or an account', async () => {
    const handle = openDatabase({ kind: 'sqlite', path: join(dir, 'contrechamp.db') });
    const perClient = [
      AUTH_LIMITS.loginByClient,
      AUTH_LIMITS.loginByClientAndEmail,
      AUTH_LIMITS.mailByClient,
      AUTH_LIMITS.tokenByClient,
      ...Object.values(SIGN_UP_LIMITS),
    ];
    const kept = [AUTH_LIMITS.loginByEmail, AUTH_LIMITS.signInLinkByEmail, AUTH_LIMITS.passwordCheckByAccount];
    try {
      await migrateToLatest(handle.db);
      for (const rule of [...perClient, ...kept])
        await handle.db
          .insertInto('rate_limits')
          .values({ key: `${rule.name}:abc`, window_start: '2026-12-01T09:00:00.000Z', count: 5 })
          .execute();
    } finally {
      await handle.close();
    }
    await forgetClientRateLimits();
    const again = openDatabase({ kind: 'sqlite', path: join(dir, 'contrechamp.db') });
    try {
      const keys = (await again.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key).sort();
      expect(keys).toEqual(kept.map((rule) => `${rule.name}:abc`).sort());
    } finally {
      await again.close();
    }
  });
});
