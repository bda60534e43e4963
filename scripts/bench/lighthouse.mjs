/**
 * Lighthouse, mobile (its default: a mid-range phone on a slow 4G link, simulated throttling),
 * performance only, on the four pages a reader lands on: home, an article, an émission and a
 * podcast episode, in Chromium. Prints per page the performance score, LCP (and its element),
 * CLS, TBT and FCP, the median run of several, and fails when a page misses the goal of
 * docs/performance.md (goal 2): score 100, LCP ≤ 1.5 s, CLS 0.
 *
 *   npm run bench:lighthouse                  builds first if needed, serves it with `npm start`
 *   npm run bench:lighthouse -- --runs 5      runs per page (median kept; default 3)
 *   npm run bench:lighthouse -- --report-only prints the figures, never fails
 *   npm run bench:lighthouse -- --url http://localhost:4321   against a server already running
 *   npm run bench:lighthouse -- --save DIR    also writes each run's full report (JSON) to DIR
 *   npm run bench:lighthouse -- --result FILE the figures and misses as JSON (scripts/bench/host.ts)
 *   CHROME_PATH=/usr/bin/chromium (default when present)
 */
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, root, startServer } from './server.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'report-only': { type: 'boolean', default: false },
    url: { type: 'string' },
    save: { type: 'string' },
    result: { type: 'string' },
  },
});
const runs = Math.max(1, Number(args.runs));

const GOAL = { score: 100, lcpMs: 1500, cls: 0 };

/** `npm start` of its own (scripts/bench/server.ts), unless --url names a server already running. */
const server = args.url ? undefined : await startServer();
const base = args.url?.replace(/\/$/, '') ?? /** @type {NonNullable<typeof server>} */ (server).base;

/** The first prerendered page under a folder of the build, as a path (`emissions/2026/x`). */
function firstPage(folder, depth) {
  const client = join(root, 'dist/client');
  let dir = folder;
  for (let level = 0; level < depth; level++) {
    const next = readdirSync(join(client, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'page')
      .map((entry) => entry.name)
      .sort()
      .find((name) => level < depth - 1 || existsSync(join(client, dir, name, 'index.html')));
    if (!next) throw new Error(`no page under ${folder}`);
    dir = `${dir}/${next}`;
  }
  return `/${dir}`;
}

const pages = [
  ['home', '/'],
  ['article', process.env.BENCH_ARTICLE ?? firstPage('articles', 2)],
  ['émission', process.env.BENCH_EMISSION ?? firstPage('emissions', 2)],
  ['episode', process.env.BENCH_EPISODE ?? firstPage('podcasts', 2)],
];

const chromePath = process.env.CHROME_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const debugPort = await freePort();
const browser = await chromium.launch({
  ...(chromePath ? { executablePath: chromePath } : {}),
  args: [
    `--remote-debugging-port=${debugPort}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** One Lighthouse run: the figures of the performance category. */
async function measure(url, reportName) {
  const result = await lighthouse(url, {
    port: debugPort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // Each run from a cold cache, as a first visit.
    disableStorageReset: false,
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (args.save) {
    mkdirSync(args.save, { recursive: true });
    writeFileSync(join(args.save, `${reportName}.json`), JSON.stringify(lhr));
  }
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  // Lighthouse 13 names the LCP element in its LCP breakdown insight.
  const lcpElement = lhr.audits['lcp-breakdown-insight']?.details?.items?.find((item) => item.type === 'node');
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: audit('largest-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbt: audit('total-blocking-time'),
    fcp: audit('first-contentful-paint'),
    si: audit('speed-index'),
    lcpElement: lcpElement ? `${(lcpElement.selector ?? '').split(' > ').pop()} « ${(lcpElement.nodeLabel ?? '').slice(0, 40)} »` : '?',
    blocking: (lhr.audits['render-blocking-insight']?.details?.items ?? []).length,
  };
}

const rows = [];
try {
  for (const [name, path] of pages) {
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await measure(base + path, `${name}-${run + 1}`));
    // The run of median score (then median LCP) stands for the page, so its figures agree.
    const byScore = [...results].sort((a, b) => a.score - b.score || a.lcp - b.lcp);
    const typical = byScore[Math.floor((byScore.length - 1) / 2)];
    rows.push({ name, path, ...typical, lcpMedian: median(results.map((r) => r.lcp)), scores: results.map((r) => r.score) });
    process.stderr.write(`${name}: ${results.map((r) => r.score).join(', ')}\n`);
  }
} finally {
  await browser.close();
  await server?.stop();
}

const ms = (value) => `${(value / 1000).toFixed(2)} s`;
const clsText = (value) => value.toFixed(3);
console.log(
  `Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile, simulated throttling, median of ${runs} run(s), ${base}`,
);
console.log('');
console.log('| page | score | LCP | CLS | TBT | FCP | Speed Index | render-blocking files | LCP element |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| ${row.name} (${row.path}) | ${row.score} (${row.scores.join(' ')}) | ${ms(row.lcp)} | ${clsText(row.cls)} | ${Math.round(row.tbt)} ms | ${ms(row.fcp)} | ${ms(row.si)} | ${row.blocking} | ${row.lcpElement.replace(/\|/g, '/')} |`,
  );
}

const misses = rows.flatMap((row) => [
  ...(row.score < GOAL.score ? [`${row.name}: score ${row.score} < ${GOAL.score}`] : []),
  ...(row.lcp > GOAL.lcpMs ? [`${row.name}: LCP ${ms(row.lcp)} > ${ms(GOAL.lcpMs)}`] : []),
  // CLS as Lighthouse shows it (three decimals).
  ...(Number(clsText(row.cls)) > GOAL.cls ? [`${row.name}: CLS ${clsText(row.cls)} > 0`] : []),
]);
console.log('');
if (args.result) writeFileSync(args.result, JSON.stringify({ goal: GOAL, runs, pages: rows, misses }));
if (misses.length === 0) {
  console.log(`Goal met on every page: score ${GOAL.score}, LCP ≤ ${ms(GOAL.lcpMs)}, CLS 0.`);
} else {
  console.log(`Goal missed:\n  ${misses.join('\n  ')}`);
  if (!args['report-only']) process.exitCode = 1;
}
