#!/usr/bin/env node
/**
 * Build benchmark: generates synthetic corpora (default 1,000 and 10,000 stories), builds
 * each with cold caches into a scratch folder, and prints build seconds, pages per second
 * and peak memory. The demo build in dist/ is left alone.
 *
 *   npm run bench:build                 # 1000 and 10000
 *   npm run bench:build -- 2000 5000    # other sizes (up to 20,000)
 *   npm run bench:build -- 10000 --cold # without the image cache either
 *
 * Optimized images are the one thing kept from one run to the next (as the publisher keeps them
 * from one build to the next, in its build cache): in .bench/image-cache, linked as Astro's
 * `<cacheDir>/assets`. Everything else (content store, incremental manifest and pages, search
 * index) starts empty.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildHeapMiB } from '../../src/host/protocol.ts';

const root = resolve(import.meta.dirname, '../..');
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const cold = process.argv.includes('--cold');
const imageCache = join(root, '.bench', 'image-cache');
if (cold) rmSync(imageCache, { recursive: true, force: true });
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
  mkdirSync(imageCache, { recursive: true });
  mkdirSync(cache, { recursive: true });
  symlinkSync(imageCache, join(cache, 'assets'), 'dir');
  const gen = spawnSync(process.execPath, [join(root, 'scripts/generate-content.mjs'), '--count', String(size), '--out', corpus], { stdio: 'inherit' });
  if (gen.status !== 0) process.exit(gen.status ?? 1);
  console.log(`Construction de ${size} contenus…`);
  // The same heap limit as the publisher's builds (src/host/build.ts).
  const result = spawnSync(process.execPath, [`--max-old-space-size=${buildHeapMiB()}`, join(root, 'scripts/bench/build-once.mjs')], {
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
  const { seconds, peakMiB, cpuSeconds } = JSON.parse(result.stdout.trim().split('\n').pop());
  const pages = countPages(join(out, 'client'));
  rows.push({
    stories: size,
    pages,
    seconds: Number(seconds.toFixed(1)),
    'pages/s': Math.round(pages / seconds),
    'peak MiB': Math.round(peakMiB),
    'CPU s': Math.round(cpuSeconds),
  });
  rmSync(work, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
console.table(rows);
console.log(cold ? 'image cache: emptied first (--cold)' : `image cache: ${imageCache} (kept between runs; --cold to empty it)`);
for (const r of rows)
  console.log(
    `build ${r.stories} stories: ${r.pages} pages in ${r.seconds} s (${r['pages/s']} pages/s), peak ${r['peak MiB']} MiB, ${r['CPU s']} s of CPU in the build process`,
  );
