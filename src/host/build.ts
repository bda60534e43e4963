#!/usr/bin/env node
/**
 * Builds one version of the site into its own directory: `<out>/client` (static files),
 * `<out>/server` (the on-demand part) and the build fingerprint. The publishing queue runs it for
 * every build (src/server/editorial/), `npm start` for its first one. The live build, if given as
 * --previous, is never read nor written: readers are being served from it.
 *
 *   node src/host/build.ts --out <dir> --id <build id> [--previous <live build dir>]
 *
 * Exit code 0 only when the build is complete; its output is the build's log.
 *
 * Builds are incremental (astro.config.mjs, `experimental.incrementalBuild`): a page whose
 * cacheKey (src/lib/page-keys.ts) and code are unchanged since the last build is copied from the
 * cache, the content layer re-reads only the files that changed, and the search index re-reads
 * only the pages that changed (src/integrations/pagefind.ts). The cache lives in BUILD_CACHE_DIR
 * (default: `<out>/../cache`), shared by successive builds, which never run at once:
 *   <cache>/astro    Astro's cacheDir (or ASTRO_CACHE_DIR): content store (data-store.json),
 *                    incremental manifest and page copies, optimized images, the search index
 *   <cache>/staging  where Astro builds. Its path must not change from one build to the next:
 *                    the content store is voided whenever Astro's settings (outDir among them)
 *                    change. A complete build is then moved (renamed) to <out>.
 * The pages Astro skips become hard links to its kept copies, which the live build may share,
 * only once Astro has written its last page (build-places.ts): no write of Astro's reaches the
 * live build. Deleting the cache is always safe; the next build is then a full one.
 */
import { buildHeapMiB } from './protocol.ts';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { BuildPhases, SUMMARY_PREFIX, isDetail } from './build-phases.ts';
import { abandonStaging, assertStagingFinished, astroEnv, buildPlaces, prepareStaging, root, stagedLine } from './build-places.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, id: { type: 'string' }, previous: { type: 'string' } } });
if (!values.out || !values.id) {
  console.error('usage: node src/host/build.ts --out <dir> --id <build id> [--previous <dir>]');
  process.exit(2);
}
const started = performance.now();
const out = resolve(values.out);
const places = buildPlaces(dirname(out));
const { staging } = places;
rmSync(out, { recursive: true, force: true });
mkdirSync(dirname(out), { recursive: true });
const preparing = performance.now();
console.log(`[build] ${stagedLine(prepareStaging(places))} in ${((performance.now() - preparing) / 1000).toFixed(1)} s`);

const astro = join(root, 'node_modules/astro/bin/astro.mjs');
const child = spawn(process.execPath, [`--max-old-space-size=${buildHeapMiB()}`, astro, 'build'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, ...astroEnv(places, values.id) },
});
// The log editors read: Astro's, without its line per page and per image (thousands of them),
// which are counted instead; the phases' durations at the end.
const phases = new BuildPhases();
const relay = (stream: Readable, to: Writable) =>
  new Promise<void>((done) => {
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    lines.on('line', (line) => {
      phases.read(line);
      if (!isDetail(line)) to.write(`${line}\n`);
    });
    lines.on('close', () => done());
  });
const relayed = Promise.all([relay(child.stdout, process.stdout), relay(child.stderr, process.stderr)]);
// The queue stops a build by signalling this process: pass it on.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => child.kill(signal));
// An app process killed with -9 cannot signal: a build left without it stops (the queue runs it
// again from the next process), rather than writing on into the cache behind the next build.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid === parent) return;
  child.kill('SIGTERM');
  setTimeout(() => process.exit(1), 5000).unref();
}, 1000).unref();
child.on('exit', async (code, signal) => {
  await relayed;
  if (code !== 0) {
    abandonStaging(places);
    process.exit(code ?? (signal ? 1 : 0));
  }
  try {
    assertStagingFinished(places);
  } catch (error) {
    console.error(`[build] ${(error as Error).message}`);
    process.exit(1);
  }
  const moving = performance.now();
  try {
    renameSync(staging, out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Another file system: copy, then leave the staging folder for the next build to clear.
    cpSync(staging, out, { recursive: true });
  }
  const now = performance.now();
  const summary = { ...phases.summary(), move: Math.round(now - moving) / 1000, total: Math.round((now - started) / 100) / 10 };
  console.log(
    `[build] ${summary.rendered} pages rendered, ${summary.reused} reused from the last build; moved to ${out}; build ${values.id} done in ${summary.total} s`,
  );
  console.log(`${SUMMARY_PREFIX}${JSON.stringify(summary)}`);
});
