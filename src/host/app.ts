#!/usr/bin/env node
/**
 * One app process: serves one build (its static files and its on-demand pages) on a private Unix
 * socket, for the front process (src/host/front.ts) that started it. Not meant to be run by
 * hand.
 *
 * Environment, set by the front: APP_BUILD_DIR (the build), APP_SOCKET (where to listen),
 * LIVE_BUILD_ID (the build's id, shown to editors). Messages to the front go through the IPC
 * channel: `ready` once the app answers its own health check; the editorial side asks for switches
 * through the same channel (src/server/editorial/front-link.ts).
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_ENV, CLIENT_HEADER, NO_FILE_HEADER, ipcMessage, type AppToFront, type FrontToApp } from './protocol.ts';
import { createStaticSite, requestPath, type Entry } from './static.ts';
import { SECURITY_HEADERS, withSecurityHeaders } from '../config/security-headers.mjs';
import { getHook } from '../lib/process-hooks.ts';

const buildDir = process.env[APP_ENV.buildDir];
const socket = process.env[APP_ENV.socket];
if (!buildDir || !socket || !process.send) {
  console.error('src/host/app.ts est lancé par src/host/start.ts, pas à la main.');
  process.exit(2);
}

/** A message of the protocol to the front (src/host/protocol.ts). */
const toFront = (message: AppToFront) => process.send?.(message);

// A front that dies while this process starts leaves it nobody to serve: stop at once.
const leaveIfOrphan = () => process.exit(0);
process.once('disconnect', leaveIfOrphan);

// A built site runs in production: React's server renderer is several times slower in its
// development build, which it picks when NODE_ENV is anything else (profile: docs/performance.md).
process.env['NODE_ENV'] = 'production';
// The adapter in its middleware mode (astro.config.mjs): the build's pages rendered on demand, and
// nothing else. Static files are the front's (src/host/static.ts), and this process's below.
const { handler } = await import(pathToFileURL(join(buildDir, 'server', 'entry.mjs')).href);
const secured = withSecurityHeaders(handler);
// Few requests come this way (the front answers files itself): a small memory cache is enough.
const SITE_CACHE = { cacheBytes: 4 * 1024 * 1024 };
let site = createStaticSite(join(buildDir, 'client'), SITE_CACHE);

const text = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
};

/**
 * A static file of the build, for a request the front passed on without looking one up (no live
 * build yet, a method or a condition it leaves to the app): the same files, answered the same way.
 * A request the front found no file for (its header says so) goes straight to the pages.
 */
function answer(req: IncomingMessage, res: ServerResponse): void {
  const noFile = req.headers[NO_FILE_HEADER] === '1';
  delete req.headers[NO_FILE_HEADER];
  const path = noFile || (req.method !== 'GET' && req.method !== 'HEAD') ? undefined : requestPath(req.url ?? '/');
  if (path === undefined) {
    secured(req, res);
    return;
  }
  const withEntry = (entry: Entry | null) => {
    if (!entry) return secured(req, res);
    // The conditions a file's answer must honour before anything else (RFC 9110, 13.2.2); its
    // ETags are weak, so an If-Match other than « * » never holds.
    const ifMatch = req.headers['if-match'];
    const ifUnmodifiedSince = req.headers['if-unmodified-since'];
    if ((ifMatch && ifMatch.trim() !== '*') || (!ifMatch && ifUnmodifiedSince && Math.floor(entry.mtimeMs / 1000) * 1000 > Date.parse(ifUnmodifiedSince))) {
      return text(res, 412, 'Le fichier a changé depuis la version que vous avez.');
    }
    try {
      site.serve(entry, req, res);
    } catch {
      // A file that went away under it (a build being cleaned): the pages answer, or the connection ends.
      if (!res.headersSent) secured(req, res);
      else res.destroy();
    }
  };
  const found = site.lookup(path);
  if (found instanceof Promise) found.then(withEntry, () => secured(req, res));
  else withEntry(found);
}

const server = createServer((req, res) => {
  // Only the front can reach this socket, and it always sets the header. The adapter reads the
  // reader's address from the socket as it creates the request, before any await; one upstream
  // connection carries one request at a time, so the value is this request's.
  const client = req.headers[CLIENT_HEADER];
  delete req.headers[CLIENT_HEADER];
  if (typeof client === 'string' && client !== '') Object.defineProperty(req.socket, 'remoteAddress', { value: client, configurable: true, writable: true });
  try {
    decodeURI(req.url ?? '/');
  } catch {
    text(res, 400, 'Adresse mal formée.');
    return;
  }
  answer(req, res);
});
// Only the front connects, and it keeps its connections for the next requests: an app that closed
// an idle one could do so as the front sends a request on it (a POST then fails). Idle connections
// are closed when the app stops, once the front sends it nothing more.
server.keepAliveTimeout = 0;

/** Asks this app's own health check; ready once it answers 200 (a first start migrates and seeds first). */
function warmUp(attempt = 1) {
  const check = request({ socketPath: socket, path: '/api/health', headers: { [CLIENT_HEADER]: '127.0.0.1' } }, (res) => {
    res.resume();
    res.on('end', () => {
      if (!process.connected) stop();
      else if (res.statusCode === 200) toFront({ type: 'ready' });
      // Not ready yet (the database check has a time limit shorter than a first seed): ask again.
      else if (attempt < 200) setTimeout(() => warmUp(attempt + 1), 500);
      else {
        console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'app.not_ready', status: res.statusCode }));
        process.exit(1);
      }
    });
  });
  check.on('error', (error) => {
    console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'app.health_failed', error: String(error) }));
    process.exit(1);
  });
  check.end();
}

server.listen(socket, () => warmUp());

// Finish the requests under way, let the job worker finish its running jobs (the others wait in
// the database for the next start), then stop. The front asks with SIGTERM when it switches to
// another build or stops; a front that died (its IPC channel closes) means the same.
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(0), 20_000).unref();
  server.close(async () => {
    try {
      await getHook('shutdown')?.();
    } finally {
      process.exit(0);
    }
  });
  server.closeIdleConnections();
}
// A switch to a build that changed content only (its server code is this one's, file for file):
// the front keeps this process, which takes the new build's folder and data (src/lib/build-data.ts).
process.on('message', (message) => {
  const m = ipcMessage<FrontToApp, 'content'>(message, 'content');
  if (!m || typeof m.id !== 'string' || typeof m.dir !== 'string') return;
  process.env[APP_ENV.buildDir] = m.dir;
  process.env[APP_ENV.liveBuildId] = m.id;
  site.close();
  site = createStaticSite(join(m.dir, 'client'), SITE_CACHE);
  getHook('forgetBuildData')?.();
  toFront({ type: 'content-ready', id: m.id });
});
process.off('disconnect', leaveIfOrphan);
process.once('SIGTERM', stop);
process.once('SIGINT', () => {});
process.on('disconnect', stop);
