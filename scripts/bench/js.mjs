/**
 * JavaScript weight per page type, before and after interaction: loads each page of the
 * production build in Chromium, lets it go idle (when `client:idle` islands used to hydrate)
 * and sums the JavaScript it fetched, gzipped (level 9, as a server or CDN would send it):
 * the "before interaction" column. Then it does what loads the islands (src/directives/):
 * opens search with Ctrl+K and types, opens the menu, presses « Écouter » where there is one,
 * and goes to the newsletter field; the "after interaction" column sums everything fetched.
 * The client directives themselves are inline in the HTML (a few hundred bytes each), not
 * counted here.
 *
 *   npm run bench:js            builds first if needed (with audience measurement on)
 *   BENCH_BUDGET_KB=20 (default) the article page's budget before interaction; the command fails above it
 *   --url=BASE [--result=FILE]   against a server already running (scripts/bench/host.ts; built with
 *                               PUBLIC_PLAUSIBLE_DOMAIN set, as here), the figures as JSON
 */
import { chromium } from '@playwright/test';
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { startServer } from './server.ts';

const budget = Number(process.env.BENCH_BUDGET_KB ?? 20);
const { values: args } = parseArgs({ options: { url: { type: 'string' }, result: { type: 'string' } } });

// As in production: measurement on (its tracker counts), demo content (scripts/bench/server.ts).
const server = args.url ? undefined : await startServer({ env: { PUBLIC_PLAUSIBLE_DOMAIN: process.env.PUBLIC_PLAUSIBLE_DOMAIN ?? 'contrechamp.media' } });
const base = args.url?.replace(/\/$/, '') ?? /** @type {NonNullable<typeof server>} */ (server).base;

const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const browser = await chromium.launch({
  ...(executablePath ? { executablePath } : {}),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--autoplay-policy=no-user-gesture-required',
  ],
});

/** Records every JavaScript response of a page, with its gzipped size. */
async function open(path) {
  const page = await browser.newPage();
  const scripts = new Map();
  const others = new Map();
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!/javascript/.test(type) && !/\.m?js(\?|$)/.test(response.url())) {
      // What search fetches besides code: its WebAssembly and index chunks (already compressed).
      if (new URL(response.url()).pathname.startsWith('/pagefind/')) {
        try {
          others.set(new URL(response.url()).pathname, (await response.body()).length);
        } catch {
          // Aborted.
        }
      }
      return;
    }
    try {
      const body = await response.body();
      scripts.set(new URL(response.url()).pathname, { raw: body.length, gz: gzipSync(body, { level: 9 }).length });
    } catch {
      // Redirect or aborted.
    }
  });
  await page.goto(base + path, { waitUntil: 'networkidle' });
  // The first idle period, when `client:idle` islands used to hydrate (ours wait for an interaction).
  await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(undefined))));
  await page.waitForLoadState('networkidle');
  return { page, scripts, others };
}

const total = (scripts) =>
  [...scripts.values()].reduce((sum, s) => ({ files: sum.files + 1, raw: sum.raw + s.raw, gz: sum.gz + s.gz }), { files: 0, raw: 0, gz: 0 });
const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(6);

// One page of each type, found from the home page and the lists.
const probe = await open('/');
const first = (selector) => probe.page.locator(selector).first().getAttribute('href');
const article = await first('main a[href^="/articles/20"]');
await probe.page.close();
const listOf = async (path, selector) => {
  const { page } = await open(path);
  const href = await page.locator(selector).first().getAttribute('href');
  await page.close();
  return href;
};
const emission = await listOf('/emissions', 'main a[href^="/emissions/20"]');
const dossier = await listOf('/dossiers', 'main a[href^="/dossiers/"]');
const episode = await listOf('/podcasts/publications', 'main a[href^="/podcasts/"][href*="/"]:not([href$="/publications"])');

const pages = [
  ['home', '/'],
  ['article', article],
  ['émission', emission],
  ['brèves list', '/breves'],
  ['dossier', dossier],
  ['podcasts', '/podcasts'],
  ['episode', episode],
  ['search page', '/rechercher'],
  ['login (on demand)', '/login'],
  ['support', '/soutenir'],
];

/** What a reader does that loads code; each returns false when the page has nothing for it. */
const interactions = {
  search: async (page) => {
    if (await page.locator('[data-search-field]').count()) return false;
    await page.locator('[data-search-trigger][data-search-ready]').waitFor({ state: 'attached' });
    await page.keyboard.press('Control+k');
    await page.keyboard.type('budget');
    await page.getByRole('dialog', { name: 'Recherche' }).waitFor();
    await page.waitForTimeout(1000);
    await page.waitForLoadState('networkidle');
    await page.keyboard.press('Escape');
    return true;
  },
  menu: async (page) => {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('#sidenav[data-hydrated]').waitFor({ state: 'attached' });
    await page.keyboard.press('Escape');
    return true;
  },
  Écouter: async (page) => {
    const listen = page.getByRole('main').getByRole('link', { name: /^Écouter/ });
    if (!(await listen.count())) return false;
    await listen.first().click();
    await page.locator('[data-player-bar]').waitFor();
    return true;
  },
  newsletter: async (page) => {
    const field = page.locator('footer').getByLabel('Votre adresse e-mail');
    if (!(await field.count())) return false;
    await field.focus();
    await page.locator('footer form[data-hydrated]').waitFor({ state: 'attached' });
    return true;
  },
};

const names = (entries) => entries.map(([u]) => u.split('/').pop()).join(' ');

console.log(`JavaScript loaded per page type (gzip -9), ${base}`);
console.log(`${''.padEnd(20)} ${'before interaction'.padStart(24)}  ${'after interaction'.padStart(24)}`);
console.log(
  `${'page type'.padEnd(20)} ${'files'.padStart(5)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}   ${'files'.padStart(5)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}  path`,
);
let articleGz = 0;
/** For the article: what each interaction added, and the files fetched before any. */
const articleDetail = [];
let searchData = 0;
for (const [name, path] of pages) {
  const { page, scripts, others } = await open(path);
  const before = total(scripts);
  if (name === 'article') {
    articleGz = before.gz;
    articleDetail.push(['  before interaction', [...scripts]]);
  }
  for (const [what, act] of Object.entries(interactions)) {
    const known = new Set(scripts.keys());
    let done = false;
    try {
      done = await act(page);
      await page.waitForLoadState('networkidle');
    } catch (error) {
      console.error(`${name}: ${what} failed: ${error.message.split('\n')[0]}`);
    }
    if (name === 'article' || (name === 'episode' && what === 'Écouter')) {
      if (done) articleDetail.push([`  + ${what}${name === 'article' ? '' : ' (episode)'}`, [...scripts].filter(([url]) => !known.has(url))]);
    }
  }
  if (name === 'article') searchData = [...others.values()].reduce((sum, n) => sum + n, 0);
  const after = total(scripts);
  console.log(
    `${name.padEnd(20)} ${String(before.files).padStart(5)} ${kb(before.raw).padStart(8)} ${kb(before.gz).padStart(8)}   ${String(scripts.size).padStart(5)} ${kb(after.raw).padStart(8)} ${kb(after.gz).padStart(8)}  ${path}`,
  );
  await page.close();
}

console.log('');
console.log('On the article page, what arrives when (episode for « Écouter »):');
for (const [label, entries] of articleDetail) {
  const { raw, gz } = total(new Map(entries));
  console.log(`${label.padEnd(22)} ${String(entries.length).padStart(3)} ${kb(raw).padStart(8)} ${kb(gz).padStart(8)}  ${names(entries)}`);
}
console.log(
  `${'  search data'.padEnd(22)} ${''.padStart(3)} ${kb(searchData).padStart(8)} ${''.padStart(8)}  WebAssembly and index chunks (not JavaScript; sent as stored)`,
);

await browser.close();
await server?.stop();
const verdict = articleGz <= budget * 1024;
if (args.result) writeFileSync(args.result, JSON.stringify({ articleKb: articleGz / 1024, budgetKb: budget }));
console.log(`article page before interaction: ${(articleGz / 1024).toFixed(1)} KB gzipped, budget ${budget} KB: ${verdict ? 'within' : 'OVER'}`);
process.exit(verdict ? 0 : 1);
