#!/usr/bin/env node
/**
 * `npm start`: serve the production build, building it first when it is missing or was made
 * from other sources or settings, so that `npm install && npm start` is all a new machine
 * needs. PORT (default 4321) and HOST (default localhost) are read by the server itself.
 *
 *   --no-build   serve whatever is in dist/, fail if there is nothing
 *   --rebuild    always build first
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FINGERPRINT_FILE, buildFingerprint } from './build-fingerprint.mjs';

const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'dist/server/entry.mjs');
const fingerprintFile = join(root, 'dist', FINGERPRINT_FILE);
const args = new Set(process.argv.slice(2));

function needsBuild() {
  if (args.has('--rebuild') || !existsSync(entry) || !existsSync(fingerprintFile)) return true;
  return readFileSync(fingerprintFile, 'utf8').trim() !== buildFingerprint(root);
}

if (!args.has('--no-build') && needsBuild()) {
  console.log('Construction du site (première fois, ou sources modifiées depuis la dernière construction)…');
  const astro = join(root, 'node_modules/astro/bin/astro.mjs');
  const result = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(entry)) {
  console.error('Aucune version construite : lancez `npm run build`, ou `npm start` sans --no-build.');
  process.exit(1);
}
process.env.PORT ??= '4321';
await import(pathToFileURL(entry).href);
