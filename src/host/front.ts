/**
 * The front process of `npm start`: it holds the readers' connections and passes every request to
 * an app process running the live build (src/host/app.ts, on a private Unix socket). To
 * switch builds it starts app processes on the new build, waits until they answer their health
 * check, sends new requests to them, records the new live build on disk (src/server/editorial/live.ts)
 * and lets the old processes finish their requests and stop. A request is served by one build from
 * start to end; a reader's connection is never closed by a switch.
 *
 * The front is the only writer of the live pointer; the newsroom asks for a switch (a publication,
 * a rollback) through the IPC channel of the app process that serves it.
 *
 * Static files (GET and HEAD of a file in the build's `client/`) are answered by the front itself,
 * from the build live when the request arrived (src/host/static.ts: precompressed forms,
 * immutable hashed assets, revalidated pages, ranges); everything else goes to an app process.
 * Text answers of the app processes are compressed on their way out (compressAnswer below).
 *
 * An app that answers before the reader's body has all arrived (a refusal: 413 for a body too
 * large, 403, 429) gets no more of it; the reader's answer says `Connection: close`, what the
 * reader still sends is dropped (up to EARLY_ANSWER_DRAIN_BYTES), and the connection closes once
 * the answer is out, so that the reader has its refusal at once instead of waiting on a
 * kept-alive connection. Every 413 closes its connection.
 *
 * Each app process of a build gets its index (APP_INDEX, 0 to APP_PROCESSES - 1): the one with
 * index 0 is the build's background writer (the job worker and the newsroom's publisher, see
 * src/server/runtime.ts); the others ask it to look at its queues at once (a `wake` message,
 * passed on here) after they schedule work.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import { acceptedEncodings, createStaticSite, staticCandidate, type Entry } from './static.ts';
import { APP_ENV, CLIENT_HEADER, ENTRY, NO_FILE_HEADER, ipcMessage, type AppToFront, type FrontToApp } from './protocol.ts';
import { SECURITY_HEADERS } from '../config/security-headers.mjs';
import { buildDir, isCompleteBuild, prepareBuildsDir, writeLive } from '../server/editorial/live.ts';

/** How long an app process may take to start (migrations, the demo's seed on a first start). */
const READY_TIMEOUT_MS = 120_000;
/** The longest wait between two tries to replace an app process that died (they start at 1 s and double). */
const APP_RESTART_MAX_DELAY_MS = 30_000;
/**
 * How long a request waits for an app process when the live build has none ready (every one died
 * at once and their replacements are starting: about 2 s), before it is answered 503.
 */
const NO_APP_WAIT_MS = 10_000;
/** Request headers that concern one connection only, or that only the front may set: never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  CLIENT_HEADER,
  NO_FILE_HEADER,
]);
/**
 * What the front still reads, and drops, of a body the app answered before it had all arrived,
 * while the answer goes out: enough for the forms' and webhooks' bodies to end cleanly, bounded so
 * that a reader sending gigabytes costs nothing more. Past it the front stops reading.
 */
export const EARLY_ANSWER_DRAIN_BYTES = 1024 * 1024;

function log(msg: string, fields: Record<string, unknown> = {}, level = 'info') {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

/**
 * TRUSTED_PROXIES: addresses or CIDR ranges (comma-separated) whose X-Forwarded-For is believed.
 */
export function parseTrustedProxies(value: string | undefined): BlockList {
  const list = new BlockList();
  for (const item of (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [address = '', bits] = item.split('/');
    const family = isIP(address);
    if (family === 0) throw new Error(`TRUSTED_PROXIES : « ${item} » n'est ni une adresse IP ni une plage CIDR`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

/**
 * The reader's address: the peer's, or, when the peer is a trusted proxy, the last address of
 * X-Forwarded-For that is not itself a trusted proxy.
 */
export function clientAddress(peer: string | undefined, forwarded: string | string[] | undefined, trusted: BlockList) {
  const address = (peer ?? '').replace(/^::ffff:(?=\d+\.)/, '');
  const isTrusted = (a: string) => {
    const family = isIP(a);
    return family !== 0 && trusted.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
  if (!address || !isTrusted(address) || !forwarded) return address || 'unknown';
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)
    .split(',')
    .map((s) => s.trim().replace(/^::ffff:(?=\d+\.)/, ''))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i] as string;
    if (isIP(hop) === 0) return address;
    if (!isTrusted(hop)) return hop;
  }
  return hops[0] ?? address;
}

/** Answers of the app processes worth compressing: text, never an event stream. */
const COMPRESSIBLE_TYPE =
  /^(?:text\/(?!event-stream)|application\/(?:json|xml|javascript|manifest\+json|rss\+xml|atom\+xml|ld\+json|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;
/** Smaller answers go as they are (a header or two would cost more than the bytes saved). */
export const DYNAMIC_MIN_BYTES = 1024;
/** Brotli quality of answers compressed on the fly (docs/performance.md, « Compression »). */
const DYNAMIC_BROTLI_QUALITY = 4;

/**
 * Whether compressing an answer to this request cannot help another site guess a secret in it
 * (BREACH: a page that holds a reader's secret beside text an attacker chose, compressed, tells
 * by its length how much the two share). A request without cookies carries no reader's secret;
 * one with cookies is safe when the browser says it comes from this site or from the reader
 * (Sec-Fetch-Site `same-origin` or `none`: a link followed on the site, an address typed).
 * Requests another site makes the browser send (or a browser that does not say) get the plain
 * answer.
 */
export function breachSafe(req: IncomingMessage) {
  if (!req.headers.cookie) return true;
  const site = req.headers['sec-fetch-site'];
  return site === 'same-origin' || site === 'none';
}

/**
 * Compresses an app's answer when the reader accepts it and it is worth it: rewrites `raw` (the
 * headers to send: Content-Encoding added, Content-Length removed, Vary completed, a strong ETag
 * made weak) and returns the stream to pipe the body through; undefined to send it as it is.
 */
export function compressAnswer(req: IncomingMessage, up: IncomingMessage, raw: string[]) {
  const status = up.statusCode ?? 0;
  if (req.method === 'HEAD' || status < 200 || status === 204 || status === 206 || status === 304) return undefined;
  const h = up.headers;
  if (h['content-encoding'] || h['content-range'] || !COMPRESSIBLE_TYPE.test(String(h['content-type'] ?? ''))) return undefined;
  if (/no-transform/i.test(String(h['cache-control'] ?? ''))) return undefined;
  const length = h['content-length'];
  if (length !== undefined && Number(length) < DYNAMIC_MIN_BYTES) return undefined;
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const encoding = breachSafe(req) ? (accepted.br ? 'br' : accepted.gzip ? 'gzip' : undefined) : undefined;
  const out: string[] = [];
  let vary = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    let value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (lower === 'vary') {
      vary = true;
      if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(value)) value = `${value}, Accept-Encoding`;
    }
    if (encoding && lower === 'content-length') continue;
    if (encoding && lower === 'etag' && !value.startsWith('W/')) value = `W/${value}`;
    out.push(name, value);
  }
  if (!vary) out.push('Vary', 'Accept-Encoding');
  if (encoding) out.push('Content-Encoding', encoding);
  raw.splice(0, raw.length, ...out);
  if (!encoding) return undefined;
  return encoding === 'br'
    ? createBrotliCompress({
        params: { [zlib.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY, ...(length ? { [zlib.BROTLI_PARAM_SIZE_HINT]: Number(length) } : {}) },
      })
    : createGzip({ level: 4 });
}

/** One app process: a build's server on its private socket. */
type App = { id: string; index: number; dir: string; child: ChildProcess; socket: string; ready: boolean; stopping: boolean };
/** A build's app processes. `server`: the build whose server code the apps run (`id`, unless a content-only switch kept them). */
type Pool = { id: string; apps: App[]; next: number; site: ReturnType<typeof createStaticSite>; server: string };
export type FrontOptions = {
  root: string;
  buildsDir: string;
  port: number;
  host: string;
  processes?: number;
  trustedProxies?: string | undefined;
  initialIds: string[];
  env?: NodeJS.ProcessEnv;
};

export async function startFront(options: FrontOptions) {
  const places = { root: options.root, buildsDir: options.buildsDir };
  prepareBuildsDir(places);
  const trusted = parseTrustedProxies(options.trustedProxies);
  const processes = Math.max(1, options.processes ?? 1);
  const socketDir = mkdtempSync(join(tmpdir(), 'contrechamp-'));
  const appScript = join(options.root, ENTRY.app);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let counter = 0;
  /** Every app process not yet exited: the live pool's, one starting in place of a dead one, an old build's still finishing. */
  const children = new Set<App>();
  let closing = false;

  let live: Pool | undefined;
  /** Switches run one after another. */
  let switching = Promise.resolve();
  /** Requests waiting for an app process of the live build to be ready (see NO_APP_WAIT_MS). */
  const waiting = new Set<() => void>();
  const wakeWaiting = () => {
    for (const wake of [...waiting]) wake();
  };

  /**
   * Starts one app process on a build; resolves once it answers its health check.
   * @param index its place among the build's app processes (0: the background writer)
   */
  function startApp(id: string, index: number): Promise<App> {
    const dir = buildDir(places, id);
    const socket = join(socketDir, `app-${(counter += 1)}.sock`);
    rmSync(socket, { force: true });
    const child = fork(appScript, [], {
      cwd: options.root,
      env: {
        ...(options.env ?? process.env),
        [APP_ENV.buildDir]: dir,
        [APP_ENV.socket]: socket,
        [APP_ENV.liveBuildId]: id,
        [APP_ENV.index]: String(index),
        [APP_ENV.processes]: String(processes),
        [APP_ENV.root]: options.root,
        [APP_ENV.buildsDir]: options.buildsDir,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const app: App = { id, index, dir, child, socket, ready: false, stopping: false };
    children.add(app);
    child.on('message', (message) => onMessage(app, message));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`la version ${id} n'a pas démarré en ${READY_TIMEOUT_MS / 1000} s`));
      }, READY_TIMEOUT_MS);
      child.on('message', (message) => {
        if (!ipcMessage<AppToFront, 'ready'>(message, 'ready')) return;
        clearTimeout(timer);
        app.ready = true;
        resolve(app);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        children.delete(app);
        app.ready = false;
        if (!app.stopping) {
          reject(new Error(`la version ${id} s'est arrêtée au démarrage (code ${code ?? signal})`));
          onUnexpectedExit(app, code, signal);
        }
        rmSync(socket, { force: true });
      });
    });
  }

  /**
   * An app of the live build died on its own: start another one on the same build.
   */
  function onUnexpectedExit(app: App, code: number | null, signal: NodeJS.Signals | null) {
    if (closing || !live || !live.apps.includes(app)) return;
    log('app.exited', { build: app.id, code, signal }, 'error');
    live.apps = live.apps.filter((a) => a !== app);
    restartApp(live, app.index, 1);
  }

  /**
   * Starts an app again in a pool that lost one, until one starts: a replacement that dies while
   * it starts (killed too, out of memory) is followed by another, 1 s, 2 s, 4 s… up to 30 s later,
   * as long as the pool is live. Without it a second fault left the pool one app short for good,
   * and a third with none (503s until the front itself restarted).
   */
  function restartApp(pool: Pool, index: number, attempt: number) {
    setTimeout(
      () => {
        if (closing || live !== pool) return;
        startApp(pool.id, index).then(
          (fresh) => {
            if (live === pool && !closing) {
              pool.apps.push(fresh);
              wakeWaiting();
            } else stopApp(fresh);
          },
          (error) => {
            log('app.restart_failed', { build: pool.id, attempt, error: String(error) }, 'error');
            restartApp(pool, index, attempt + 1);
          },
        );
      },
      Math.min(APP_RESTART_MAX_DELAY_MS, 1000 * 2 ** (attempt - 1)),
    ).unref();
  }

  function stopApp(app: App) {
    if (app.stopping) return;
    app.stopping = true;
    app.ready = false;
    if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGTERM');
  }

  async function startPool(id: string): Promise<Pool> {
    const dir = buildDir(places, id);
    if (!isCompleteBuild(dir)) throw new Error(`la version ${id} est incomplète ou absente`);
    const started = await Promise.allSettled(Array.from({ length: processes }, (_, index) => startApp(id, index)));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) {
      for (const r of started) if (r.status === 'fulfilled') stopApp(r.value);
      throw failed.reason;
    }
    return { id, apps: started.map((r) => (r as PromiseFulfilledResult<App>).value), next: 0, site: createStaticSite(join(dir, 'client')), server: id };
  }

  /**
   * Whether two builds run the same server code: a publication made by the resident builder
   * (src/host/builder.ts) links the server's files of the build it started from, so its
   * entry point is the same file. Only its build data (server/build-data.json) is its own.
   */
  function sameServer(a: string, b: string) {
    try {
      const x = statSync(join(buildDir(places, a), 'server', 'entry.mjs'));
      const y = statSync(join(buildDir(places, b), 'server', 'entry.mjs'));
      return x.ino === y.ino && x.dev === y.dev;
    } catch {
      return false;
    }
  }

  /**
   * A content-only switch: the live apps take the new build's folder and data, and answer once
   * they have; the static files come from the new build from then on.
   */
  async function switchContent(current: Pool, id: string): Promise<Pool> {
    const dir = buildDir(places, id);
    const apps = current.apps.filter((app) => app.ready && app.child.connected);
    if (apps.length === 0) throw new Error('aucun processus prêt');
    await Promise.all(
      apps.map(
        (app) =>
          new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
              app.child.off('message', onReady);
              reject(new Error(`un processus n\u2019a pas pris la version ${id} en ${READY_TIMEOUT_MS / 1000} s`));
            }, READY_TIMEOUT_MS);
            function onReady(message: unknown) {
              if (ipcMessage<AppToFront, 'content-ready'>(message, 'content-ready')?.id !== id) return;
              clearTimeout(timer);
              app.child.off('message', onReady);
              resolve(undefined);
            }
            app.child.on('message', onReady);
            send(app, { type: 'content', id, dir });
          }),
      ),
    );
    for (const app of current.apps) {
      app.id = id;
      app.dir = dir;
    }
    return { id, apps: current.apps, next: current.next, site: createStaticSite(join(dir, 'client')), server: current.server };
  }

  /**
   * Makes a build live: its processes first, then new requests, then the pointer on disk, then the
   * old processes drain. Rejects (and changes nothing) when the build does not start.
   */
  function switchTo(id: string): Promise<{ switched: boolean }> {
    const result = switching.then(async () => {
      if (closing) throw new Error('le serveur s\u2019arrête');
      if (live?.id === id) {
        writeLive(places, id, new Date());
        return { switched: false };
      }
      const started = Date.now();
      const contentOnly = live !== undefined && sameServer(live.server, id);
      const pool = contentOnly && live ? await switchContent(live, id) : await startPool(id);
      const previous = live;
      live = pool;
      wakeWaiting();
      writeLive(places, id, new Date(), pool.server);
      log('build.switched', { build: id, previous: previous?.id, ms: Date.now() - started, ...(contentOnly ? { kept: 'app processes (content only)' } : {}) });
      if (previous)
        setImmediate(() => {
          if (!contentOnly) previous.apps.forEach(stopApp);
          previous.site.close();
        });
      return { switched: true };
    });
    switching = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** A message of the protocol to an app process (src/host/protocol.ts). */
  function send(app: App, message: FrontToApp) {
    if (app.child.connected) app.child.send(message);
  }

  function onMessage(app: App, message: unknown) {
    // Work scheduled by any app process: its build's background writer looks at the queue now.
    const wake = ipcMessage<AppToFront, 'wake'>(message, 'wake');
    if (wake) {
      const writer = (live?.id === app.id ? live.apps : []).find((a) => a.index === 0 && a !== app && a.child.connected);
      if (writer) send(writer, { type: 'wake', what: wake.what });
      return;
    }
    const m = ipcMessage<AppToFront, 'switch'>(message, 'switch');
    if (!m || typeof m.id !== 'string') return;
    switchTo(m.id).then(
      (outcome) => send(app, { type: 'switch-result', requestId: m.requestId, ok: true, ...outcome }),
      (error: unknown) => {
        const reason = String((error as Error)?.message ?? error);
        log('build.switch_failed', { build: m.id, error: reason }, 'error');
        send(app, { type: 'switch-result', requestId: m.requestId, ok: false, error: reason });
      },
    );
  }

  function answer(res: ServerResponse, status: number, text: string) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Contrechamp</title></head><body><p>${text}</p></body></html>`;
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': '2',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(body);
  }

  /**
   * Reads and drops what a reader still sends of a body nobody will read, up to
   * EARLY_ANSWER_DRAIN_BYTES; past that the front stops reading (the reader's sending stalls, its
   * answer still arrives) until the connection closes.
   */
  function drain(req: IncomingMessage) {
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > EARLY_ANSWER_DRAIN_BYTES) req.pause();
    });
    req.resume();
  }

  /**
   * Runs `then` once an app process of the live build is ready again (a replacement started, a
   * switch), or after NO_APP_WAIT_MS; not at all if the reader has gone.
   */
  function waitForApp(res: ServerResponse, then: () => void) {
    const wake = () => {
      waiting.delete(wake);
      clearTimeout(timer);
      res.off('close', give);
      if (!res.destroyed) then();
    };
    const give = () => {
      waiting.delete(wake);
      clearTimeout(timer);
    };
    const timer = setTimeout(wake, NO_APP_WAIT_MS);
    timer.unref();
    waiting.add(wake);
    res.once('close', give);
  }

  /**
   * @param noFile the build has no file of that name: the app need not look
   * @param failed the app a first try of this request failed on: another one takes it if there is one
   * @param waited the request already waited for an app to be ready
   */
  function proxy(req: IncomingMessage, res: ServerResponse, retried: boolean = false, noFile: boolean = false, failed?: App, waited: boolean = false) {
    const pool = live;
    const ready = pool?.apps.filter((a) => a.ready) ?? [];
    if (!pool || ready.length === 0) {
      if (!pool || closing || waited) {
        answer(res, 503, 'Le site redémarre : réessayez dans quelques secondes.');
        return;
      }
      // Every app of the build died at once: their replacements are starting. The request waits for
      // one (the reader sees a slower answer, not an error), and is answered 503 past NO_APP_WAIT_MS.
      waitForApp(res, () => proxy(req, res, retried, noFile, failed, true));
      return;
    }
    // An app that has just died (killed, out of memory) may still look ready: its exit is not in yet.
    const others = failed ? ready.filter((a) => a !== failed) : ready;
    const choice = others.length > 0 ? others : ready;
    const app = choice[pool.next++ % choice.length] as App;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers[CLIENT_HEADER] = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
    if (noFile) headers[NO_FILE_HEADER] = '1';
    const upstream = request({ socketPath: app.socket, method: req.method, path: req.url, headers, agent });
    let responded = false;
    /** The app answered before the reader's body had all arrived: the rest is not passed on. */
    let cut = false;
    let answered: IncomingMessage | undefined;
    upstream.on('response', (up) => {
      responded = true;
      answered = up;
      // An early answer (a refusal: body too large, foreign origin, too many attempts) or any 413:
      // the reader learns at once that this connection ends with the answer (`Connection: close`),
      // rather than waiting on a kept-alive connection whose request the app never read to its
      // end. What the reader still sends goes nowhere; Node closes the connection once the
      // answer is out.
      const closing = !req.complete || up.statusCode === 413;
      if (!req.complete) {
        cut = true;
        req.unpipe(upstream);
        drain(req);
      }
      const raw: string[] = [];
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        const name = up.rawHeaders[i] as string;
        if (!HOP_BY_HOP.has(name.toLowerCase())) raw.push(name, up.rawHeaders[i + 1] as string);
      }
      if (closing) raw.push('Connection', 'close');
      const encoder = compressAnswer(req, up, raw);
      res.writeHead(up.statusCode ?? 502, up.statusMessage, raw);
      if (encoder) {
        up.pipe(encoder).pipe(res);
        encoder.on('error', () => res.destroy());
      } else up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (responded) {
        // The app's side of a request cut short may fail once its answer is in: only an answer
        // that did not arrive whole is lost.
        if (!answered?.complete) res.destroy();
        return;
      }
      // A kept-alive connection closed by an app as it stopped, or an app that died before it
      // answered: a request without a body is sent again, to another app when there is one.
      const safe = req.method === 'GET' || req.method === 'HEAD';
      if (safe && !retried) {
        proxy(req, res, true, noFile, app);
        return;
      }
      // Failed twice, the second time most likely on the last app left, dead too (its exit not in
      // yet): it waits for a replacement, as when no app is ready, then has one more try.
      if (safe && !waited && !closing) {
        waitForApp(res, () => proxy(req, res, true, noFile, app, true));
        return;
      }
      log('proxy.error', { error: String(error), method: req.method }, 'error');
      answer(res, 502, 'Le site est momentanément indisponible : réessayez dans quelques secondes.');
    });
    res.on('close', () => {
      // A request whose body was cut short can serve no other: the app would wait for its end.
      if (!res.writableFinished || cut) upstream.destroy();
    });
    if (req.method === 'GET' || req.method === 'HEAD') upstream.end();
    else req.pipe(upstream);
  }

  /**
   * Static files from the build live when the request arrives; the rest to an app process.
   */
  function handle(req: IncomingMessage, res: ServerResponse) {
    const pool = live;
    const path = pool ? staticCandidate(req) : undefined;
    if (!pool || path === undefined) {
      proxy(req, res);
      return;
    }
    const site = pool.site;
    const answerWith = (entry: Entry | null) => {
      if (!entry) {
        // Said only of the build that was looked up (a switch may have come in between).
        proxy(req, res, false, live === pool);
        return;
      }
      try {
        site.serve(entry, req, res);
      } catch (error) {
        log('static.error', { error: String(error) }, 'error');
        if (!res.headersSent) proxy(req, res);
        else res.destroy();
      }
    };
    const found = site.lookup(path);
    if (found instanceof Promise) found.then(answerWith, () => proxy(req, res));
    else answerWith(found);
  }

  // Start on the first build that starts: the live one, else the fallbacks in order.
  let lastError: unknown;
  for (const id of options.initialIds) {
    try {
      live = await startPool(id);
      writeLive(places, id, new Date());
      break;
    } catch (error) {
      lastError = error;
      log('build.start_failed', { build: id, error: String((error as Error)?.message ?? error) }, 'error');
    }
  }
  if (!live) throw lastError ?? new Error('aucune version à servir');

  // A request without a body (every GET a reader sends) comes with its body stream already ended:
  // no stream events for nothing. Worth 5 % of the static answers per second (71,000 → 75,000 on
  // this 2-core machine, keep-alive brotli, docs/performance.md §6). The proxy reads `complete`
  // only once the app has answered, when the request has long been parsed to its end.
  const server = createServer({ optimizeEmptyRequests: true }, handle);
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(undefined));
  });
  log('listening', { url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}/`, build: live.id });

  /** Stops accepting, lets every app finish, then resolves. */
  async function close() {
    closing = true;
    // Requests waiting for an app are answered 503 now.
    wakeWaiting();
    await switching;
    server.closeIdleConnections();
    const closed = new Promise((resolve) => server.close(() => resolve(undefined)));
    // Every app process, a replacement still starting included: none outlives the front (or
    // starts on a socket folder already removed).
    const apps = [...children];
    live?.site.close();
    const exits = apps.map(
      (app) =>
        new Promise((resolve) => {
          if (app.child.exitCode !== null || app.child.signalCode !== null) resolve(undefined);
          else app.child.once('exit', () => resolve(undefined));
        }),
    );
    // Let in-flight proxied requests end before the apps stop taking them.
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    apps.forEach(stopApp);
    await Promise.all(exits);
    agent.destroy();
    rmSync(socketDir, { recursive: true, force: true });
  }

  return { server, switchTo, close, live: () => live?.id };
}
