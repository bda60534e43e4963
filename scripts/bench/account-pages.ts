/**
 * Members benchmark (issue 13, goal 4; issue 28, point 6): how a page rendered on demand for a
 * signed-in member holds against the cheapest answer of the same server, in the same run.
 * `npm start` is started on a throwaway data folder (scripts/bench/server.ts: demo mode, the
 * production build, built first if needed), then autocannon asks `/api/health` (no layout: a
 * database check and JSON) for the given time, then `/mon-compte` (signed in: session,
 * subscriptions, the whole layout) for the same time, with as many connections; then both again at
 * a low concurrency (LOW_CONNECTIONS) for the latency goal. Prints req/s, latency percentiles and
 * errors of each run, the ratio of the throughputs, and the resident memory of every process.
 *
 * Goals (exit code 1 when one is missed, unless --no-goal; any answer other than 200 always fails):
 * - throughput: /mon-compte reaches at least 40 % of /api/health's, at 100 connections;
 * - latency: /mon-compte's p99 is at most 50 ms at 10 connections. Why not at 100 connections, as
 *   issue 13 had it: with N requests always in flight the mean latency is N ÷ throughput (Little's
 *   law), so at 100 connections and ~1,300 req/s it is ~77 ms whatever the page does, and
 *   `/api/health` itself has a p99 of 100–180 ms there: that goal measured the queue, not the page.
 *   At 10 connections (a busy moment of a small site: ten readers' requests at once) the queue
 *   is ~8 ms at the same throughput, so a p99 over 50 ms means answers that stall (a blocked event
 *   loop, a long GC, a slow query), which is what readers feel. docs/performance.md, goal 4.
 *
 *   npm run bench:account-pages                         100 connections, 10 s per address
 *   npm run bench:account-pages -- 200 30               connections, seconds
 *   npm run bench:account-pages -- --low=5              the latency goal's concurrency (default 10)
 *   npm run bench:account-pages -- --no-goal            print only: fail on errors alone
 *   npm run bench:account-pages -- --cpu-prof=DIR       CPU profiles of the front and app processes in DIR
 *   APP_PROCESSES=1 npm run bench:account-pages         (the server's own settings apply)
 *
 * scripts/bench/host.ts runs it against its own server: `--url=BASE --data-dir=DIR --pid=PID`
 * (the server's address, data folder and front process) and `--result=FILE` (the figures as JSON).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { toTimestamp } from '../../src/server/db/database';
import { createUser } from '../../src/server/auth/service';
import { insertSession } from '../../src/server/auth/repository';
import { hashSecret, newSecret, sessionExpiresAt } from '../../src/server/auth/tokens';
import { root, signInAt, startServer, type BenchServer } from './server.ts';

/** Issue 13: /mon-compte reaches at least this share of /api/health's throughput… */
const MIN_RATIO = 0.4;
/** …and, at LOW_CONNECTIONS, a 99th percentile at most this long (ms): see above. */
const MAX_P99_MS = 50;

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** --cpu-prof=DIR: every process of the server writes its CPU profile there as it stops (app processes inherit the flags). */
const profileDir = flag('cpu-prof');
const [connectionsArg, durationArg] = args.filter((a) => !a.startsWith('--'));
const connections = Number(connectionsArg ?? 100);
const duration = Number(durationArg ?? 10);
const lowConnections = Number(flag('low') ?? 10);
const checkGoal = !flags.has('--no-goal');
const attachedUrl = flag('url');
const resultFile = flag('result');

const dataDir = attachedUrl ? flag('data-dir')! : mkdtempSync(join(tmpdir(), 'contrechamp-bench-members-'));
if (!dataDir) throw new Error('--url needs --data-dir (the server’s DATA_DIR) and --pid');

// One account and one session per connection, written straight into the database: signing in
// 100 times would measure scrypt and the rate limits, not the signed-in pages.
const handle = openDatabase({ kind: 'sqlite', path: join(dataDir, 'contrechamp.db') });
await migrateToLatest(handle.db);
const cookies: string[] = [];
const now = new Date();
const batch = newSecret().slice(0, 6);
for (let i = 0; i < connections; i++) {
  const userId = await createUser(handle.db, { email: `bench-${batch}-${i}@exemple.fr`, givenName: `Membre ${i}`, now });
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

let server: BenchServer | undefined;
if (!attachedUrl)
  server = await startServer({ dataDir, nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [] }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
const siteUrl = attachedUrl ?? server!.base;
const serverPid = attachedUrl ? Number(flag('pid')) : server!.pid;

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
  const [front, ...apps] = residentMemory(serverPid).map((p) => ms(p.pid));
  return { front: front ?? 0, apps: apps.reduce((a, b) => a + b, 0) };
}

type Run = {
  path: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  errors: number;
  frontCpu: number;
  appCpu: number;
};

async function measure(path: string, withCookie: boolean, connections: number): Promise<Run> {
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
    connections,
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
  // A check that a session really reaches the page, then a short warm-up of both addresses.
  const check = await fetch(`${siteUrl}/mon-compte`, { headers: { cookie: cookies[0]! }, redirect: 'manual' });
  if (check.status !== 200) throw new Error(`/mon-compte a répondu ${check.status} au lieu de 200.`);
  if (!(await check.text()).includes('Membre 0')) throw new Error('/mon-compte ne montre pas le compte connecté.');
  // And a demo supporter signed in through the login API, as a reader is: the same page, its name on it.
  const demo = await fetch(`${siteUrl}/mon-compte`, {
    headers: { cookie: await signInAt(siteUrl, `http://localhost:${new URL(siteUrl).port}`, 'abonne@exemple.fr') },
    redirect: 'manual',
  });
  if (demo.status !== 200) throw new Error(`/mon-compte a répondu ${demo.status} au compte de démonstration connecté.`);
  await autocannon({ url: `${siteUrl}/api/health`, connections: 10, amount: 500 });
  await autocannon({ url: `${siteUrl}/mon-compte`, connections: 10, amount: 500, headers: { cookie: cookies[0]! } });

  const health = await measure('/api/health', false, connections);
  const members = await measure('/mon-compte', true, connections);
  const memory = residentMemory(serverPid);
  const ratio = members.rps / health.rps;
  // The latency goal's runs: few requests in flight, so that the queue does not hide the page.
  const healthLow = await measure('/api/health', false, lowConnections);
  const membersLow = await measure('/mon-compte', true, lowConnections);

  console.log(`members bench: ${connections} connections, ${duration} s per address, npm start (APP_PROCESSES=${process.env['APP_PROCESSES'] ?? 'default'})`);
  // CPU ms per request: what each answer costs the front and the app processes, whatever else the machine runs.
  console.log('  address                 conns   req/s     p50     p99     max  requests  errors  CPU/req front  CPU/req apps');
  for (const r of [health, members, healthLow, membersLow]) {
    console.log(
      `  ${r.path.padEnd(22)} ${String(r.connections).padStart(6)} ${r.rps.toFixed(0).padStart(7)} ${`${r.p50} ms`.padStart(7)} ${`${r.p99} ms`.padStart(7)} ${`${r.max} ms`.padStart(7)} ${String(r.total).padStart(9)} ${String(r.errors).padStart(7)} ${`${r.frontCpu.toFixed(2)} ms`.padStart(14)} ${`${r.appCpu.toFixed(2)} ms`.padStart(13)}`,
    );
  }
  console.log(`  ratio /mon-compte ÷ /api/health: ${(ratio * 100).toFixed(1)} % (goal ≥ ${MIN_RATIO * 100} %)`);
  console.log(`  p99 of /mon-compte at ${lowConnections} connections: ${membersLow.p99} ms (goal ≤ ${MAX_P99_MS} ms; /api/health ${healthLow.p99} ms)`);
  console.log('  resident memory:');
  for (const p of memory) console.log(`    ${String(p.rssMiB).padStart(5)} MiB  pid ${p.pid}  ${p.command.replace(root + '/', '')}`);

  const errors = [health, members, healthLow, membersLow].reduce((sum, r) => sum + r.errors, 0);
  const failures: string[] = [];
  if (errors > 0) failures.push(`${errors} réponses autres que 200`);
  if (checkGoal && ratio < MIN_RATIO) failures.push(`ratio ${(ratio * 100).toFixed(1)} % < ${MIN_RATIO * 100} %`);
  if (checkGoal && membersLow.p99 > MAX_P99_MS) failures.push(`p99 de /mon-compte à ${lowConnections} connexions ${membersLow.p99} ms > ${MAX_P99_MS} ms`);
  if (failures.length) console.log(`  ÉCHEC : ${failures.join(' ; ')}`);
  if (resultFile)
    writeFileSync(
      resultFile,
      JSON.stringify({
        connections,
        lowConnections,
        duration,
        ratio,
        minRatio: MIN_RATIO,
        health,
        members,
        healthLow,
        membersLow,
        maxP99Ms: MAX_P99_MS,
        errors,
      }),
    );
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await server?.stop();
  // Attached to another's server, its data folder (and the accounts made here) is its own.
  if (!attachedUrl) rmSync(dataDir, { recursive: true, force: true });
}
