/**
 * Issue 28, point 6, in one run: « faster where the readers are signed in, measured in the same run
 * on `npm start` ». One `npm start` (scripts/bench/server.ts: demo mode, audience measurement on as
 * in production, its own data folder) serves, in turn:
 *
 *   1. the page budgets of docs/performance.md: Lighthouse on four pages (lighthouse.mjs: score
 *      100, LCP ≤ 1.5 s, CLS 0) and the article's JavaScript before interaction (js.mjs: ≤ 20 KB);
 *   2. the signed-in pages (account-pages.ts): `/mon-compte` ≥ 40 % of `/api/health`'s throughput
 *      at 100 connections, and its p99 ≤ 50 ms at 10 connections;
 *   3. static serving against nginx on the same files (static.mjs): ≥ 0.8, uncompressed and brotli.
 *
 * Then the server stops and the publication benchmark (publish.mjs, a server of its own on a
 * synthetic corpus) publishes one story at N stories through the webhook, three times (a title
 * changed, a story added, then deleted), and verifies the last one byte for byte against a full build:
 * the slowest of the three ≤ 10 s.
 *
 * Each part prints its own figures as its own command does, then one table: figure, goal, measured,
 * pass or fail. Exit code 1 when a goal fails or a part could not run.
 *
 *   npm run bench:host                                  the full run (10,000 stories: 15–20 min on a quiet machine)
 *   npm run bench:host -- --stories=300 --seconds=3 --rounds=1 --lighthouse-runs=1    a quick one
 *   npm run bench:host -- --skip=lighthouse,publish     leave parts out (they show as « skipped », a failure)
 *   --connections=100   the account pages' throughput concurrency; --seconds: each load test's
 *   duration (account pages: per address; static: per turn, default 5)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { root, startServer } from './server.ts';

const { values: args } = parseArgs({
  options: {
    stories: { type: 'string', default: '10000' },
    seconds: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    'lighthouse-runs': { type: 'string', default: '3' },
    skip: { type: 'string', default: '' },
  },
});
const skip = new Set(args.skip.split(',').filter(Boolean));
const work = mkdtempSync(join(tmpdir(), 'contrechamp-bench-host-'));
const resultFile = (name: string) => join(work, `${name}.json`);

type Row = { figure: string; goal: string; measured: string; pass: boolean | 'skipped' };
const rows: Row[] = [];

/** Runs one benchmark as its own command would, its output shown; its figures from its result file. */
function part<T>(name: string, command: string[], env: Record<string, string> = {}): Promise<T | undefined> {
  if (skip.has(name)) return Promise.resolve(undefined);
  console.log(`\n=== ${name}: ${command.map((a) => a.replace(`${root}/`, '')).join(' ')}\n`);
  return new Promise((done) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code) => {
      const file = resultFile(name);
      // A part that failed its goal still wrote its figures; one that broke did not.
      if (existsSync(file)) done(JSON.parse(readFileSync(file, 'utf8')) as T);
      else {
        console.error(`${name} gave no figures (exit code ${code})`);
        done(undefined);
      }
    });
  });
}

const node = process.execPath;
const tsx = join(root, 'node_modules/.bin/tsx');
const bench = (file: string) => join(root, 'scripts/bench', file);
const missing = (name: string, figure: string, goal: string) =>
  rows.push({ figure, goal, measured: skip.has(name) ? 'skipped' : 'did not run (see above)', pass: skip.has(name) ? 'skipped' : false });

const started = performance.now();
// As in production: audience measurement on (js.mjs counts its tracker).
const server = await startServer({ env: { PUBLIC_PLAUSIBLE_DOMAIN: process.env['PUBLIC_PLAUSIBLE_DOMAIN'] ?? 'contrechamp.media' } });
console.log(`npm start on ${server.base} (data ${server.dataDir})`);
try {
  // Page budgets first, on a quiet server: Lighthouse's figures move with the machine's load.
  type Lighthouse = { goal: { score: number; lcpMs: number; cls: number }; pages: { name: string; score: number; lcp: number; cls: number }[] };
  const lighthouse = await part<Lighthouse>('lighthouse', [
    node,
    bench('lighthouse.mjs'),
    '--url',
    server.base,
    '--runs',
    args['lighthouse-runs'],
    '--result',
    resultFile('lighthouse'),
  ]);
  if (lighthouse)
    for (const page of lighthouse.pages)
      rows.push({
        figure: `Lighthouse mobile, ${page.name}: score · LCP · CLS`,
        goal: `${lighthouse.goal.score} · ≤ ${(lighthouse.goal.lcpMs / 1000).toFixed(2)} s · ${lighthouse.goal.cls}`,
        // LCP to the millisecond: 1.503 s fails where « 1.50 s » would not say why.
        measured: `${page.score} · ${(page.lcp / 1000).toFixed(3)} s · ${page.cls.toFixed(3)}`,
        pass: page.score >= lighthouse.goal.score && page.lcp <= lighthouse.goal.lcpMs && Number(page.cls.toFixed(3)) <= lighthouse.goal.cls,
      });
  else missing('lighthouse', 'Lighthouse mobile, four pages', 'score 100 · LCP ≤ 1.50 s · CLS 0');

  const js = await part<{ articleKb: number; budgetKb: number }>('js', [node, bench('js.mjs'), `--url=${server.base}`, `--result=${resultFile('js')}`]);
  if (js)
    rows.push({
      figure: 'JavaScript before interaction, article (gzip)',
      goal: `≤ ${js.budgetKb} KB`,
      measured: `${js.articleKb.toFixed(1)} KB`,
      pass: js.articleKb <= js.budgetKb,
    });
  else missing('js', 'JavaScript before interaction, article (gzip)', '≤ 20 KB');

  type Run = { rps: number; p99: number };
  type Account = {
    ratio: number;
    minRatio: number;
    connections: number;
    lowConnections: number;
    health: Run;
    members: Run;
    healthLow: Run;
    membersLow: Run;
    maxP99Ms: number;
    errors: number;
  };
  const account = await part<Account>('account-pages', [
    tsx,
    bench('account-pages.ts'),
    args.connections,
    args.seconds ?? '10',
    `--url=${server.base}`,
    `--data-dir=${server.dataDir}`,
    `--pid=${server.pid}`,
    `--result=${resultFile('account-pages')}`,
  ]);
  if (account) {
    rows.push({
      figure: `/mon-compte ÷ /api/health throughput, ${account.connections} connections`,
      goal: `≥ ${account.minRatio * 100} %`,
      measured: `${(account.ratio * 100).toFixed(1)} % (${Math.round(account.members.rps).toLocaleString('en')} / ${Math.round(account.health.rps).toLocaleString('en')} req/s)`,
      pass: account.ratio >= account.minRatio,
    });
    rows.push({
      figure: `/mon-compte p99, ${account.lowConnections} connections`,
      goal: `≤ ${account.maxP99Ms} ms`,
      measured: `${account.membersLow.p99} ms (/api/health ${account.healthLow.p99} ms)`,
      pass: account.membersLow.p99 <= account.maxP99Ms,
    });
    rows.push({ figure: 'account pages: answers other than 200', goal: '0', measured: String(account.errors), pass: account.errors === 0 });
  } else missing('account-pages', '/mon-compte ÷ /api/health throughput', '≥ 40 %');

  type Static = { minRatio: number; ratios: { text: string; ratio: number; judged: boolean; errors: number; front: number; nginx: number }[] };
  const staticFiles = await part<Static>('static', [node, bench('static.mjs'), `--url=${server.base}`, `--result=${resultFile('static')}`], {
    BENCH_SECONDS: args.seconds ?? '5',
    BENCH_ROUNDS: args.rounds,
  });
  if (staticFiles)
    for (const r of staticFiles.ratios.filter((r) => r.judged))
      rows.push({
        figure: `static ÷ nginx, ${r.text.replace(/^[\d.]+ \((.*)\)$/, '$1')}`,
        goal: `≥ ${staticFiles.minRatio.toFixed(2)}`,
        measured: `${r.ratio.toFixed(2)} (${Math.round(r.front).toLocaleString('en')} / ${Math.round(r.nginx).toLocaleString('en')} req/s${r.errors ? `, ${r.errors} errors` : ''})`,
        pass: r.ratio >= staticFiles.minRatio && r.errors === 0,
      });
  else missing('static', 'static ÷ nginx', '≥ 0.80');
} finally {
  await server.stop();
}

// The publication benchmark makes its own corpus, builds and server (it cannot share this one's).
type Publish = {
  size: number;
  publications: { label: string; seconds: number; shown: boolean; untouched: boolean }[];
  verified?: { pages: number; differing: number; extra: number };
};
const publish = await part<Publish>('publish', [node, '--import', 'tsx', bench('publish.mjs'), args.stories, '--verify', `--result=${resultFile('publish')}`]);
const PUBLISH_MAX_S = 10;
if (publish) {
  const slowest = publish.publications.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  rows.push({
    figure: `publication of one story at ${publish.size.toLocaleString('en')} stories, slowest of ${publish.publications.length}`,
    goal: `≤ ${PUBLISH_MAX_S} s`,
    measured: `${slowest.seconds.toFixed(1)} s (${slowest.label}; ${publish.publications.map((p) => p.seconds.toFixed(1)).join(', ')})`,
    pass: slowest.seconds <= PUBLISH_MAX_S,
  });
  rows.push({
    figure: 'publications shown everywhere, live build untouched',
    goal: 'all',
    measured: `${publish.publications.filter((p) => p.shown && p.untouched).length} of ${publish.publications.length}`,
    pass: publish.publications.every((p) => p.shown && p.untouched),
  });
  const v = publish.verified;
  rows.push({
    figure: 'last publication = full build, byte for byte',
    goal: '0 files differ',
    measured: v ? `${v.differing + v.extra} of ${v.pages.toLocaleString('en')} differ` : 'not verified',
    pass: v !== undefined && v.differing + v.extra === 0,
  });
} else missing('publish', `publication of one story at ${Number(args.stories).toLocaleString('en')} stories`, `≤ ${PUBLISH_MAX_S} s`);
rmSync(work, { recursive: true, force: true });

const minutes = (performance.now() - started) / 60_000;
console.log(`\nIssue 28, point 6 — one run on npm start (${minutes.toFixed(1)} min):\n`);
const widths = [0, 1, 2].map((i) =>
  Math.max(...[['figure', 'goal', 'measured'], ...rows.map((r) => [r.figure, r.goal, r.measured])].map((cells) => cells[i]!.length)),
);
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(line(['figure', 'goal', 'measured']) + ' result |');
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|--------|`);
for (const row of rows) console.log(line([row.figure, row.goal, row.measured]) + ` ${row.pass === 'skipped' ? 'skip  ' : row.pass ? 'pass  ' : 'FAIL  '} |`);
const failed = rows.filter((r) => r.pass !== true).length;
console.log(failed ? `\n${failed} of ${rows.length} not met (skipped parts count as not met).` : `\nAll ${rows.length} met.`);
process.exitCode = failed ? 1 : 0;
