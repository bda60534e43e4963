#!/usr/bin/env node
/**
 * `npm start`: serve the production build, building it first when it is missing or older
 * than the sources, so that `npm install && npm start` is all a new machine needs.
 * PORT (default 4321) and HOST (default localhost) are read by the server itself.
 *
 *   --no-build   serve whatever is in dist/, fail if there is nothing
 *   --rebuild    always build first
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'dist/server/entry.mjs');
const args = new Set(process.argv.slice(2));

/** Newest modification time under the inputs of a build (skipping dependencies). */
function newestInput() {
  const inputs = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];
  let newest = 0;
  const walk = (path) => {
    let info;
    try { info = statSync(path); } catch { return; }
    if (info.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && !name.startsWith('.')) walk(join(path, name));
    } else newest = Math.max(newest, info.mtimeMs);
  };
  for (const input of inputs) walk(join(root, input));
  return newest;
}

function needsBuild() {
  if (args.has('--rebuild')) return true;
  if (!existsSync(entry)) return true;
  return newestInput() > statSync(entry).mtimeMs;
}

if (!args.has('--no-build') && needsBuild()) {
  console.log('Construction du site (première fois ou sources modifiées)…');
  const astro = join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(entry)) {
  console.error('Aucune version construite : lancez `npm run build` ou `npm start` sans --no-build.');
  process.exit(1);
}
process.env.PORT ??= '4321';
await import(pathToFileURL(entry).href);
