/**
 * Members benchmark: 200 concurrent signed-in members on /mon-compte for 30 s (autocannon),
 * against the production build on a throwaway data folder. Prints requests per second,
 * latency percentiles and errors; any answer other than 200 counts as an error.
 *
 *   npm run bench:members            (builds first if needed)
 *   npm run bench:members -- 100 10  (connections, seconds)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { toTimestamp } from '../../src/server/db/database';
import { createUser } from '../../src/server/auth/service';
import { insertSession } from '../../src/server/auth/repository';
import { hashSecret, newSecret, sessionExpiresAt } from '../../src/server/auth/tokens';

const root = resolve(import.meta.dirname, '../..');
const connections = Number(process.argv[2] ?? 200);
const duration = Number(process.argv[3] ?? 30);

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-bench-members-'));
const port = await freePort();
const siteUrl = `http://localhost:${port}`;

// One account and one session per connection, written straight into the database: signing in
// 200 times would measure scrypt and the rate limits, not the member pages.
const handle = openDatabase({ kind: 'sqlite', path: join(dataDir, 'contrechamp.db') });
await migrateToLatest(handle.db);
const cookies: string[] = [];
const now = new Date();
for (let i = 0; i < connections; i++) {
  const userId = await createUser(handle.db, { email: `bench-${i}@exemple.fr`, givenName: `Membre ${i}`, now });
  const token = newSecret();
  await insertSession(handle.db, {
    id_hash: hashSecret(token), user_id: userId, persistent: 1, created_at: toTimestamp(now), last_seen_at: toTimestamp(now),
    expires_at: toTimestamp(sessionExpiresAt('persistent', now)), user_agent: 'bench',
  });
  cookies.push(`cc_session=${token}`);
}
await handle.close();

const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: 'localhost', SITE_URL: siteUrl, DATA_DIR: dataDir, APP_MODE: 'production', PAYMENT_PROVIDER: 'simulated' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${siteUrl}/`)).ok) break;
    } catch {}
    if (i > 600) throw new Error('Le serveur ne répond pas.');
    await new Promise((r) => setTimeout(r, 500));
  }
  // Warm-up, and a check that a session really reaches the page.
  const check = await fetch(`${siteUrl}/mon-compte`, { headers: { cookie: cookies[0]! }, redirect: 'manual' });
  if (check.status !== 200) throw new Error(`/mon-compte a répondu ${check.status} au lieu de 200.`);

  let next = 0;
  const result = await autocannon({
    url: `${siteUrl}/mon-compte`,
    connections,
    duration,
    requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! } }) }],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  console.log(`members bench: ${connections} connections for ${duration} s on /mon-compte`);
  console.log(`  requests: ${result.requests.total} (${result.requests.average.toFixed(0)} req/s on average)`);
  console.log(`  latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`  errors: ${errors} (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  process.exitCode = errors === 0 ? 0 : 1;
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
