#!/usr/bin/env node
/**
 * Build benchmark: generates synthetic corpora (default 1,000 and 10,000 stories), builds
 * each with cold caches into a scratch folder, and prints build seconds, pages per second
 * and peak memory. The demo build in dist/ is left alone.
 *
 *   npm run bench:build                 # 1000 and 10000
 *   npm run bench:build -- 2000 5000    # other sizes (up to 20,000)
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1000, 10000);

function countPages(dir) {
  let pages = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) pages += countPages(path);
    else if (name.endsWith('.html')) pages += 1;
  }
  return pages;
}

const rows = [];
for (const size of sizes) {
  const work = join(tmpdir(), `contrechamp-bench-${size}`);
  const corpus = join(work, 'content');
  // The build output must live inside the project so that its server chunks resolve node_modules.
  const out = join(root, '.bench', String(size));
  const cache = join(work, 'cache');
  rmSync(work, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
  const gen = spawnSync(process.execPath, [join(root, 'scripts/generate-content.mjs'), '--count', String(size), '--out', corpus], { stdio: 'inherit' });
  if (gen.status !== 0) process.exit(gen.status ?? 1);
  console.log(`Construction de ${size} contenus…`);
  const result = spawnSync(process.execPath, [join(root, 'scripts/bench/build-once.mjs')], {
    cwd: root,
    env: { ...process.env, CONTENT_DIR: corpus, ASTRO_OUT_DIR: out, ASTRO_CACHE_DIR: cache, ASTRO_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    console.error(result.stdout.slice(-4000));
    process.exit(result.status ?? 1);
  }
  const { seconds, peakMiB } = JSON.parse(result.stdout.trim().split('\n').pop());
  const pages = countPages(join(out, 'client'));
  rows.push({ stories: size, pages, seconds: Number(seconds.toFixed(1)), 'pages/s': Math.round(pages / seconds), 'peak MiB': Math.round(peakMiB) });
  rmSync(work, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
console.table(rows);
for (const r of rows) console.log(`build ${r.stories} stories: ${r.pages} pages in ${r.seconds} s (${r['pages/s']} pages/s), peak ${r['peak MiB']} MiB`);
