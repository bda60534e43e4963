#!/usr/bin/env node
/**
 * `npm start`: serve the live build, building dist/ first when there is no build made from the
 * current sources and settings, so that `npm install && npm start` is all a new machine needs.
 * The live build is the one the newsroom published last (src/server/editorial/live.ts), or dist/.
 * A front process (src/host/front.ts) listens on PORT (default 4321) and HOST (default
 * localhost) and passes requests to the app processes of the live build.
 *
 *   --no-build   serve the live build or dist/ as they are, fail if there is nothing
 *   --rebuild    always build dist/ first (and serve it)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { FINGERPRINT_FILE, buildFingerprint } from './build-fingerprint.ts';
import { startFront } from './front.ts';
import { DIST_BUILD_ID, buildDir, buildsDirFrom, isCompleteBuild, readLive } from '../server/editorial/live.ts';

const root = resolve(import.meta.dirname, '../..');
const buildsDir = buildsDirFrom(process.env);
const places = { root, buildsDir };
const args = new Set(process.argv.slice(2));
const fingerprint = buildFingerprint(root);

/** Whether a build was made from the current sources and settings. */
function isCurrent(dir: string): boolean {
  const file = join(dir, FINGERPRINT_FILE);
  return isCompleteBuild(dir) && existsSync(file) && readFileSync(file, 'utf8').trim() === fingerprint;
}

/** The live build the newsroom published last, if it is still on disk. */
function liveBuild() {
  const pointer = readLive(buildsDir);
  if (!pointer) return undefined;
  try {
    return isCompleteBuild(buildDir(places, pointer.id)) ? pointer.id : undefined;
  } catch {
    return undefined;
  }
}

const distDir = join(root, 'dist');
let published = liveBuild();
// A published build made from other sources (the code was updated since) gives way to a fresh build.
if (published && published !== DIST_BUILD_ID && !args.has('--no-build') && !args.has('--rebuild') && !isCurrent(buildDir(places, published)))
  published = undefined;
const needsBuild = args.has('--rebuild') || (!args.has('--no-build') && !(published && published !== DIST_BUILD_ID) && !isCurrent(distDir));

if (needsBuild) {
  console.log('Construction du site (première fois, ou sources modifiées depuis la dernière construction)…');
  const astro = join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
  published = undefined;
}

// The live build first; dist/ when there is none or it does not start.
const initialIds = [...new Set([published ?? DIST_BUILD_ID, DIST_BUILD_ID])].filter((id) => isCompleteBuild(buildDir(places, id)));
if (initialIds.length === 0) {
  console.error('Aucune version construite : lancez `npm run build`, ou `npm start` sans --no-build.');
  process.exit(1);
}

// APP_PROCESSES app processes per build: by default one per core, so that pages rendered on demand
// use the whole machine (the front itself mostly waits on sockets). The first of them is the
// build's only background writer (src/server/runtime.ts).
const processesSetting = process.env.APP_PROCESSES?.trim() || String(availableParallelism());
if (!/^[1-9]\d*$/.test(processesSetting)) {
  console.error(`APP_PROCESSES : « ${process.env.APP_PROCESSES} » n'est pas un nombre entier de processus (1 ou plus).`);
  process.exit(1);
}

// PORT (default 4321) and HOST (default localhost), as before.
const front = await startFront({
  root,
  buildsDir,
  port: Number(process.env.PORT ?? 4321),
  host: process.env.HOST ?? 'localhost',
  processes: Number(processesSetting),
  trustedProxies: process.env.TRUSTED_PROXIES,
  initialIds,
});

// Finish the requests under way, let the app processes finish theirs and their running jobs (the
// others wait in the database for the next start), then stop.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    setTimeout(() => process.exit(0), 30_000).unref();
    front.close().finally(() => process.exit(0));
  });
}
