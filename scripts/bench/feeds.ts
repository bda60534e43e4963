/**
 * Personal podcast feeds benchmark (issue 27 §2): podcast apps poll every supporter's feed every
 * hour, with the validator of their last copy. `npm start` is started on a throwaway data folder
 * (scripts/bench/server.ts: the production build, built first if needed) with 10,000 supporters, each with a running
 * subscription and a personal feed, written straight into the database. Each feed is fetched
 * once to learn its ETag; then autocannon asks the feeds in turn, each with its `If-None-Match`,
 * for the given time. Prints req/s, latency percentiles, the answers by status, and the same for
 * full fetches (no validator) for comparison.
 *
 * Fails (exit code 1) when a conditional fetch answers anything but 304, a full one anything but
 * 200, or when the conditional fetches stay under 1,000 requests per second (unless --no-goal).
 *
 *   npm run bench:feeds                    10,000 supporters, 100 connections, 10 s
 *   npm run bench:feeds -- 2000 50 5       supporters, connections, seconds
 *   npm run bench:feeds -- --no-goal       print only: fail on wrong answers alone
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, startServer } from './server.ts';

/** Issue 27: the conditional fetches of 10,000 feeds at this rate at least. */
const MIN_RPS = 1000;

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const [supportersArg, connectionsArg, durationArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const supporters = Number(supportersArg ?? 10_000);
const connections = Number(connectionsArg ?? 100);
const duration = Number(durationArg ?? 10);
const checkGoal = !flags.has('--no-goal');

// The secrets are derived from the master key: this script and the server must share it.
process.env['APP_SECRET'] = randomBytes(32).toString('base64url');
const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-bench-feeds-'));
process.env['DATA_DIR'] = dataDir;

const { openDatabase } = await import('../../src/server/db/client');
const { migrateToLatest } = await import('../../src/server/db/migrate');
const { newId, toTimestamp } = await import('../../src/server/db/database');
const { createUser } = await import('../../src/server/auth/service');
const { ensureFeed } = await import('../../src/server/podcasts/personal-feeds');
const { personalFeedPath } = await import('../../src/lib/personal-feed-paths');

const port = await freePort();
const siteUrl = `http://localhost:${port}`;

// Supporters, their subscriptions and their feeds, written straight into the database.
const started = Date.now();
const handle = openDatabase({ kind: 'sqlite', path: join(dataDir, 'contrechamp.db') });
await migrateToLatest(handle.db);
const paths: string[] = [];
const now = new Date();
const at = toTimestamp(now);
const shows = ['tous', 'a-contre-courant', 'la-fabrique-de-l-info', 'les-voix-du-terrain'];
for (let start = 0; start < supporters; start += 500) {
  await handle.db.transaction().execute(async (trx) => {
    for (let i = start; i < Math.min(supporters, start + 500); i++) {
      const userId = await createUser(trx, { email: `soutien-${i}@exemple.fr`, now });
      await trx
        .insertInto('subscriptions')
        .values({
          id: newId(),
          user_id: userId,
          kind: 'plan',
          plan_id: 'mensuel',
          amount_cents: 700,
          interval: 'month',
          vat_rate_bp: 210,
          status: 'active',
          current_period_start: at,
          current_period_end: at,
          next_plan_id: null,
          next_amount_cents: null,
          provider: 'simulated',
          provider_ref: null,
          source: null,
          created_at: at,
          updated_at: at,
          ended_at: null,
        })
        .execute();
      const feed = await ensureFeed(trx, userId, now);
      paths.push(personalFeedPath(feed.secret, shows[i % shows.length]!));
    }
  });
}
await handle.close();
console.log(`feeds bench: ${supporters} supporters written in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// npm start (scripts/bench/server.ts) on the data folder written above.
const server = await startServer({
  dataDir,
  port,
  host: 'localhost',
  env: { SITE_URL: siteUrl, APP_MODE: 'production', PAYMENT_PROVIDER: 'simulated' },
}).catch((error: unknown) => {
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});

type Run = { label: string; rps: number; p50: number; p99: number; max: number; total: number; statuses: Record<string, number> };

async function measure(label: string, etags: Map<string, string> | null): Promise<Run> {
  let next = 0;
  const result = await autocannon({
    url: siteUrl,
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          const path = paths[next++ % paths.length]!;
          return { ...request, method: 'GET', path, headers: { ...request.headers, ...(etags ? { 'if-none-match': etags.get(path)! } : {}) } };
        },
      },
    ],
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, (stat as { count: number }).count]));
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    statuses,
  };
}

try {
  // Each feed once, as an app's first fetch: its ETag, and a check that it is the supporter's feed.
  const etags = new Map<string, string>();
  let cursor = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (cursor < paths.length) {
        const path = paths[cursor++]!;
        const answer = await fetch(`${siteUrl}${path}`);
        const body = await answer.text();
        if (answer.status !== 200 || !body.includes(path)) throw new Error(`${path} a répondu ${answer.status} sans le flux du soutien.`);
        etags.set(path, answer.headers.get('etag')!);
      }
    }),
  );
  const full = await measure('full fetches (200)', null);
  const conditional = await measure('conditional (304)', etags);

  console.log(
    `feeds bench: ${supporters} personal feeds, ${connections} connections, ${duration} s each, npm start (APP_PROCESSES=${process.env['APP_PROCESSES'] ?? 'default'})`,
  );
  console.log('  fetches                req/s     p50     p99     max  requests  statuses');
  for (const r of [full, conditional]) {
    console.log(
      `  ${r.label.padEnd(20)} ${r.rps.toFixed(0).padStart(6)} ${`${r.p50} ms`.padStart(7)} ${`${r.p99} ms`.padStart(7)} ${`${r.max} ms`.padStart(7)} ${String(r.total).padStart(9)}  ${JSON.stringify(r.statuses)}`,
    );
  }
  console.log(`  goal: conditional fetches ≥ ${MIN_RPS} req/s`);
  const failures: string[] = [];
  const wrong = (r: Run, expected: string) =>
    Object.entries(r.statuses)
      .filter(([code]) => code !== expected)
      .reduce((sum, [, count]) => sum + count, 0);
  if (wrong(full, '200') > 0) failures.push(`${wrong(full, '200')} flux complets sans 200`);
  if (wrong(conditional, '304') > 0) failures.push(`${wrong(conditional, '304')} requêtes conditionnelles sans 304`);
  if (checkGoal && conditional.rps < MIN_RPS) failures.push(`${conditional.rps.toFixed(0)} req/s < ${MIN_RPS}`);
  if (failures.length) console.log(`  ÉCHEC : ${failures.join(' ; ')}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
