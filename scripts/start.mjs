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
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FINGERPRINT_FILE, buildFingerprint } from './build-fingerprint.mjs';
import { withSecurityHeaders } from '../src/config/security-headers.mjs';

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

// The adapter's handler serves the static files and the on-demand routes; this server only
// adds the security headers (src/config/security-headers.mjs) to every answer, static files
// included. Pages add their own CSP and cache rules.
process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { handler } = await import(pathToFileURL(entry).href);
const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? 'localhost';
const server = createServer(withSecurityHeaders(handler));
server.listen(port, host, () => {
  console.log(JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'listening', url: `http://${host}:${port}/` }));
  // Migrate (and seed the demo) now rather than on the first reader's request.
  fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`).catch((error) =>
    console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'start-up health check failed', error: String(error) })),
  );
});
// Finish the requests under way, let the job worker finish its running jobs (the others wait in
// the database for the next start), then stop. The database commits each write as it happens.
const shutdownHook = Symbol.for('contrechamp.shutdown');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    setTimeout(() => process.exit(0), 15_000).unref();
    server.closeIdleConnections();
    server.close(async () => {
      try {
        await globalThis[shutdownHook]?.();
      } finally {
        process.exit(0);
      }
    });
  });
}
