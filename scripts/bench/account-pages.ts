/**
 * Members benchmark (issue 13, goal 4): how a page rendered on demand for a signed-in member
 * holds against the cheapest answer of the same server, in the same run. `npm start` is started
 * on a throwaway data folder (the production build, built first if needed), then autocannon asks
 * `/api/health` (no layout: a database check and JSON) for the given time, then `/mon-compte`
 * (signed in: session, subscriptions, the whole layout) for the same time, with as many
 * connections. Prints req/s, latency percentiles and errors of both, the ratio of their
 * throughputs, and the resident memory of every process of the server.
 *
 * Fails (exit code 1) on any answer other than 200, when /mon-compte reaches less than 40 % of
 * /api/health's throughput, or when its p99 is over 50 ms (issue 13's goal), unless --no-goal.
 *
 *   npm run bench:account-pages                         100 connections, 10 s per address
 *   npm run bench:account-pages -- 200 30               connections, seconds
 *   npm run bench:account-pages -- --no-goal            print only: fail on errors alone
 *   npm run bench:account-pages -- --cpu-prof=DIR       CPU profiles of the front and app processes in DIR
 *   APP_PROCESSES=1 npm run bench:account-pages         (the server's own settings apply)
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** Issue 13: /mon-compte reaches at least this share of /api/health's throughput… */
const MIN_RATIO = 0.4;
/** …with a 99th percentile at most this long (ms). */
const MAX_P99_MS = 50;

const root = resolve(import.meta.dirname, '../..');
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
/** --cpu-prof=DIR: every process of the server writes its CPU profile there as it stops (app processes inherit the flags). */
const profileDir = [...flags].find((f) => f.startsWith('--cpu-prof='))?.slice('--cpu-prof='.length);
const [connectionsArg, durationArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const connections = Number(connectionsArg ?? 100);
const duration = Number(durationArg ?? 10);
const checkGoal = !flags.has('--no-goal');

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
// 100 times would measure scrypt and the rate limits, not the signed-in pages.
const handle = openDatabase({ kind: 'sqlite', path: join(dataDir, 'contrechamp.db') });
await migrateToLatest(handle.db);
const cookies: string[] = [];
const now = new Date();
for (let i = 0; i < connections; i++) {
  const userId = await createUser(handle.db, { email: `bench-${i}@exemple.fr`, givenName: `Membre ${i}`, now });
  const token = newSecret();
  await insertSession(handle.db, {
    id_hash: hashSecret(token),
    user_id: userId,
    persistent: 1,
    created_at: toTimestamp(now),
    last_seen_at: toTimestamp(now),
    expires_at: toTimestamp(sessionExpiresAt('persistent', now)),
    user_agent: 'bench',
  });
  cookies.push(`cc_session=${token}`);
}
await handle.close();

/** Resident memory (MiB) of a process and of every process under it, by pid. */
function residentMemory(pid: number): { pid: number; command: string; rssMiB: number }[] {
  const out: { pid: number; command: string; rssMiB: number }[] = [];
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      const command = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(1).join(' ');
      out.push({ pid: p, command, rssMiB: Math.round(rss) });
    } catch {
      return;
    }
    let children: string[] = [];
    try {
      children = execFileSync('pgrep', ['-P', String(p)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    } catch {}
    for (const child of children) visit(Number(child));
  };
  visit(pid);
  return out;
}

const server = spawn(process.execPath, [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : []), join(root, 'src/host/start.ts')], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: 'localhost', SITE_URL: siteUrl, DATA_DIR: dataDir, APP_MODE: 'production', PAYMENT_PROVIDER: 'simulated' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

/** CPU time (ms) the front process and its app processes have used so far, by pid (Linux's /proc; clock ticks of 10 ms). */
function cpuTimes(): { front: number; apps: number } {
  const ms = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return 0;
    }
  };
  const [front, ...apps] = residentMemory(server.pid!).map((p) => ms(p.pid));
  return { front: front ?? 0, apps: apps.reduce((a, b) => a + b, 0) };
}

type Run = { path: string; rps: number; p50: number; p99: number; max: number; total: number; errors: number; frontCpu: number; appCpu: number };

async function measure(path: string, withCookie: boolean): Promise<Run> {
  let next = 0;
  const before = cpuTimes();
  const result = await autocannon({
    url: `${siteUrl}${path}`,
    connections,
    duration,
    requests: [
      { setupRequest: (request) => (withCookie ? { ...request, headers: { ...request.headers, cookie: cookies[next++ % cookies.length]! } } : request) },
    ],
  });
  const after = cpuTimes();
  return {
    path,
    frontCpu: (after.front - before.front) / result.requests.total,
    appCpu: (after.apps - before.apps) / result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${siteUrl}/api/health`)).ok) break;
    } catch {}
    if (i > 600) throw new Error('Le serveur ne répond pas.');
    await new Promise((r) => setTimeout(r, 500));
  }
  // A check that a session really reaches the page, then a short warm-up of both addresses.
  const check = await fetch(`${siteUrl}/mon-compte`, { headers: { cookie: cookies[0]! }, redirect: 'manual' });
  if (check.status !== 200) throw new Error(`/mon-compte a répondu ${check.status} au lieu de 200.`);
  if (!(await check.text()).includes('Membre 0')) throw new Error('/mon-compte ne montre pas le compte connecté.');
  await autocannon({ url: `${siteUrl}/api/health`, connections: 10, amount: 500 });
  await autocannon({ url: `${siteUrl}/mon-compte`, connections: 10, amount: 500, headers: { cookie: cookies[0]! } });

  const health = await measure('/api/health', false);
  const members = await measure('/mon-compte', true);
  const memory = residentMemory(server.pid!);
  const ratio = members.rps / health.rps;

  console.log(`members bench: ${connections} connections, ${duration} s per address, npm start (APP_PROCESSES=${process.env['APP_PROCESSES'] ?? 'default'})`);
  // CPU ms per request: what each answer costs the front and the app processes, whatever else the machine runs.
  console.log('  address                 req/s     p50     p99     max  requests  errors  CPU/req front  CPU/req apps');
  for (const r of [health, members]) {
    console.log(
      `  ${r.path.padEnd(22)} ${r.rps.toFixed(0).padStart(6)} ${`${r.p50} ms`.padStart(7)} ${`${r.p99} ms`.padStart(7)} ${`${r.max} ms`.padStart(7)} ${String(r.total).padStart(9)} ${String(r.errors).padStart(7)} ${`${r.frontCpu.toFixed(2)} ms`.padStart(14)} ${`${r.appCpu.toFixed(2)} ms`.padStart(13)}`,
    );
  }
  console.log(`  ratio /mon-compte ÷ /api/health: ${(ratio * 100).toFixed(1)} % (goal ≥ ${MIN_RATIO * 100} %, p99 ≤ ${MAX_P99_MS} ms)`);
  console.log('  resident memory:');
  for (const p of memory) console.log(`    ${String(p.rssMiB).padStart(5)} MiB  pid ${p.pid}  ${p.command.replace(root + '/', '')}`);

  const failures: string[] = [];
  if (health.errors + members.errors > 0) failures.push(`${health.errors + members.errors} réponses autres que 200`);
  if (checkGoal && ratio < MIN_RATIO) failures.push(`ratio ${(ratio * 100).toFixed(1)} % < ${MIN_RATIO * 100} %`);
  if (checkGoal && members.p99 > MAX_P99_MS) failures.push(`p99 de /mon-compte ${members.p99} ms > ${MAX_P99_MS} ms`);
  if (failures.length) console.log(`  ÉCHEC : ${failures.join(' ; ')}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
