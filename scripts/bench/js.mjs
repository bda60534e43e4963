/**
 * JavaScript weight per page type: loads each page of the production build in Chromium, waits
 * until the islands have hydrated and the network is quiet, and sums the JavaScript it
 * fetched, gzipped (level 9, as a server or CDN would send it). Then it uses the player
 * ('Écouter') and the search (Ctrl+K) to show what they add only when used.
 *
 *   npm run bench:js             builds first if needed (with audience measurement on)
 *   BENCH_BUDGET_KB=120 (default) the article page's budget; the command fails above it
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '../..');
const budget = Number(process.env.BENCH_BUDGET_KB ?? 120);

const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => done(port));
    });
  });

const port = await freePort();
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-bench-js-'));
const server = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
  cwd: root,
  // As in production: measurement on (its tracker counts), demo content.
  env: {
    ...process.env, PORT: String(port), HOST: 'localhost', SITE_URL: base, DATA_DIR: dataDir, APP_MODE: 'demo',
    PUBLIC_PLAUSIBLE_DOMAIN: process.env.PUBLIC_PLAUSIBLE_DOMAIN ?? 'contrechamp.media',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);

async function waitForServer() {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // Not up yet (the first start builds).
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start');
}
await waitForServer();

const executablePath = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
const browser = await chromium.launch({
  ...(executablePath ? { executablePath } : {}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
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
  // client:idle islands hydrate on the first idle period.
  await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(undefined))));
  await page.waitForLoadState('networkidle');
  return { page, scripts, others };
}

const total = (scripts) => [...scripts.values()].reduce((sum, s) => ({ raw: sum.raw + s.raw, gz: sum.gz + s.gz }), { raw: 0, gz: 0 });
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

console.log(`JavaScript loaded per page type (gzip -9), ${base}`);
console.log(`${'page type'.padEnd(20)} ${'files'.padStart(5)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}  path`);
let articleGz = 0;
for (const [name, path] of pages) {
  const { page, scripts } = await open(path);
  const { raw, gz } = total(scripts);
  if (name === 'article') articleGz = gz;
  console.log(`${name.padEnd(20)} ${String(scripts.size).padStart(5)} ${kb(raw).padStart(8)} ${kb(gz).padStart(8)}  ${path}`);
  await page.close();
}

// What the player and the search add, only once used.
{
  const { page, scripts } = await open(episode);
  const before = new Set(scripts.keys());
  await page.getByRole('main').getByRole('link', { name: /^Écouter/ }).first().click();
  await page.locator('[data-player-bar]').waitFor();
  await page.waitForLoadState('networkidle');
  const added = [...scripts].filter(([url]) => !before.has(url));
  const { raw, gz } = total(new Map(added));
  console.log(`${'+ player, on use'.padEnd(20)} ${String(added.length).padStart(5)} ${kb(raw).padStart(8)} ${kb(gz).padStart(8)}  ${added.map(([u]) => u.split('/').pop()).join(' ')}`);
  await page.close();
}
{
  const { page, scripts, others } = await open(article);
  const before = new Set(scripts.keys());
  await page.locator('[data-search-trigger][data-search-ready]').waitFor({ state: 'attached' });
  await page.keyboard.press('Control+k');
  await page.waitForTimeout(300);
  await page.keyboard.type('budget');
  await page.waitForTimeout(1500);
  await page.waitForLoadState('networkidle');
  const added = [...scripts].filter(([url]) => !before.has(url));
  const { raw, gz } = total(new Map(added));
  console.log(`${'+ search, on use'.padEnd(20)} ${String(added.length).padStart(5)} ${kb(raw).padStart(8)} ${kb(gz).padStart(8)}  ${added.map(([u]) => u.split('/').pop()).join(' ')}`);
  const otherBytes = [...others.values()].reduce((sum, n) => sum + n, 0);
  console.log(`${'  search data'.padEnd(20)} ${String(others.size).padStart(5)} ${kb(otherBytes).padStart(8)} ${''.padStart(8)}  WebAssembly and index chunks (not JavaScript; sent as stored)`);
  await page.close();
}

await browser.close();
stop();
const verdict = articleGz <= budget * 1024;
console.log(`article page: ${(articleGz / 1024).toFixed(1)} KB gzipped, budget ${budget} KB: ${verdict ? 'within' : 'OVER'}`);
process.exit(verdict ? 0 : 1);
