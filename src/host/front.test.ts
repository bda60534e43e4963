/**
 * The front process and its switches, on small stand-in builds (a server entry that answers with
 * its build's name), so that no Astro build is needed: readers see only 200s during a switch, each
 * request served by one build; a build that does not start never goes live; a killed front starts
 * again on the last good build, and its app processes do not outlive it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies, startFront } from './front.ts';
import { readLive, writeLive } from '../server/editorial/live.ts';

const root = resolve(import.meta.dirname, '../..');
const A = '2026-11-23T10-00-00Z-aaaa';
const B = '2026-11-23T10-05-00Z-bbbb';
const BROKEN = '2026-11-23T10-10-00Z-bad0';
const SLOW_START = '2026-11-23T10-15-00Z-slow';

/**
 * Where the stand-in builds find the real request path of the app: Astro's Node adapter
 * (`createRequestFromNodeRequest`, `writeResponse`) and the site's body reader (request-guards.ts,
 * loaded as TypeScript by Node itself).
 */
const ASTRO_NODE = pathToFileURL(createRequire(import.meta.url).resolve('astro/app/node')).href;
const REQUEST_GUARDS = pathToFileURL(join(root, 'src/server/http/request-guards.ts')).href;

/**
 * A stand-in build: `/` answers its name; `/slow` after 1.5 s; `/switch?to=<id>` asks the front for
 * a switch; `/form` reads a form as the site's pages do (64 KiB at most, refused with a 413 as soon
 * as the declared length says so, or as the bytes counted pass it).
 */
function writeBuild(buildsDir: string, id: string, options: { broken?: boolean; startDelayMs?: number } = {}): void {
  const dir = join(buildsDir, id);
  mkdirSync(join(dir, 'server'), { recursive: true });
  mkdirSync(join(dir, 'client'), { recursive: true });
  writeFileSync(
    join(dir, 'server', 'entry.mjs'),
    `${options.broken ? "throw new Error('broken build');\n" : ''}${options.startDelayMs ? `await new Promise((r) => setTimeout(r, ${options.startDelayMs}));\n` : ''}
export function handler(req, res) {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/form') {
    (async () => {
      const { createRequestFromNodeRequest, writeResponse } = await import(${JSON.stringify(ASTRO_NODE)});
      const { readFormBody } = await import(${JSON.stringify(REQUEST_GUARDS)});
      const read = await readFormBody(createRequestFromNodeRequest(req, {}));
      const headers = { 'Content-Type': 'text/html; charset=utf-8' };
      await writeResponse(read.ok ? new Response('reçu', { headers }) : new Response('<p>' + read.message + '</p>', { status: read.status, headers }), res);
    })();
    return;
  }
  if (url.pathname === '/switch') {
    process.send({ type: 'switch', id: url.searchParams.get('to'), requestId: 'r1' });
    res.end('asked');
    return;
  }
  const reply = () => { res.setHeader('Content-Type', 'text/plain'); res.end(${JSON.stringify(id)} + ' ' + (req.socket.remoteAddress ?? '')); };
  if (url.pathname === '/whoami') {
    res.end(process.env.LIVE_BUILD_ID + ' ' + process.pid);
    return;
  }
  if (url.pathname === '/die-once') {
    // The first app asked dies before it answers (a kill -9, the memory killer); the next one answers.
    const fs = process.getBuiltinModule('node:fs');
    if (!fs.existsSync(url.searchParams.get('mark'))) {
      fs.writeFileSync(url.searchParams.get('mark'), String(process.pid));
      process.kill(process.pid, 'SIGKILL');
      return;
    }
    res.end('answered by ' + process.pid);
    return;
  }
  if (url.pathname === '/no-file') {
    res.end(String(req.headers['x-contrechamp-no-file'] ?? 'absent'));
    return;
  }
  if (url.pathname === '/slow') setTimeout(reply, 1500);
  else reply();
}
`,
  );
}

function fetchText(
  port: number,
  path: string,
  agent?: Agent,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    request({ host: '127.0.0.1', port, path, agent, ...init }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (c) => (body += c))
        .on('end', () => resolvePromise({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pids of a process's children (pgrep fails when it finds none). */
function childPids(parent: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the front process', () => {
  let work: string;
  let buildsDir: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'front-'));
    buildsDir = join(work, 'builds');
    writeBuild(buildsDir, A);
    writeBuild(buildsDir, B);
    writeBuild(buildsDir, BROKEN, { broken: true });
    writeBuild(buildsDir, SLOW_START, { startDelayMs: 4000 });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('switches under load with only 200s, each request served by one build, in-flight requests finished by the old one', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 2, initialIds: [A] });
    const port = (front.server.address() as AddressInfo).port;
    try {
      const slow = fetchText(port, '/slow');
      const results: { started: number; status: number; body: string }[] = [];
      let stop = false;
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const loops = Array.from({ length: 16 }, async () => {
        while (!stop) {
          const started = Date.now();
          try {
            const { status, body } = await fetchText(port, '/', agent);
            results.push({ started, status, body });
          } catch (error) {
            results.push({ started, status: 0, body: String(error) });
          }
        }
      });
      await new Promise((r) => setTimeout(r, 500));
      const asked = Date.now();
      await front.switchTo(B);
      const switched = Date.now();
      await new Promise((r) => setTimeout(r, 700));
      stop = true;
      await Promise.all(loops);
      agent.destroy();

      expect(results.length).toBeGreaterThan(200);
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      expect(results.every((r) => r.body.startsWith(`${A} `) || r.body.startsWith(`${B} `))).toBe(true);
      expect(results.filter((r) => r.started < asked).every((r) => r.body.startsWith(A))).toBe(true);
      expect(results.filter((r) => r.started > switched).every((r) => r.body.startsWith(B))).toBe(true);
      expect(results.some((r) => r.started > switched)).toBe(true);
      // The request under way during the switch was finished by the build that took it.
      expect(await slow).toMatchObject({ status: 200, body: expect.stringMatching(new RegExp(`^${A} `)) });
      expect(readLive(buildsDir)?.id).toBe(B);
      // nginx's root follows.
      expect(readFileSync(join(realpathSync(join(buildsDir, 'current')), '..', 'server', 'entry.mjs'), 'utf8')).toContain(B);

      // A build that does not start never goes live; the site stays on the live one.
      await expect(front.switchTo(BROKEN)).rejects.toThrow(/s'est arrêtée au démarrage/);
      expect(readLive(buildsDir)?.id).toBe(B);
      expect((await fetchText(port, '/')).body).toMatch(new RegExp(`^${B} `));

      // Rollback is a switch to an earlier build.
      await front.switchTo(A);
      expect((await fetchText(port, '/')).body).toMatch(new RegExp(`^${A} `));
    } finally {
      await front.close();
    }
  });

  it('switches to a build of the same server code without restarting its app processes, under load with only 200s', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 2, initialIds: [A] });
    const port = (front.server.address() as AddressInfo).port;
    // A publication made by the resident builder: the server's files are links to the live build's.
    const C = '2026-11-23T10-20-00Z-cccc';
    mkdirSync(join(buildsDir, C, 'server'), { recursive: true });
    mkdirSync(join(buildsDir, C, 'client'), { recursive: true });
    linkSync(join(buildsDir, A, 'server', 'entry.mjs'), join(buildsDir, C, 'server', 'entry.mjs'));
    writeFileSync(join(buildsDir, C, 'client', 'page.txt'), 'la page de C');
    try {
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const pids = async () => new Set(await Promise.all(Array.from({ length: 8 }, async () => (await fetchText(port, '/whoami', agent)).body.split(' ')[1])));
      const before = await pids();
      const statuses: number[] = [];
      let stop = false;
      const loops = Array.from({ length: 8 }, async () => {
        while (!stop) statuses.push((await fetchText(port, '/whoami', agent).catch(() => ({ status: 0 }))).status);
      });
      await new Promise((r) => setTimeout(r, 300));
      await front.switchTo(C);
      stop = true;
      await Promise.all(loops);
      expect(statuses.length).toBeGreaterThan(50);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // The same processes, now on C: its static files, its id; the pointer names the server's build.
      expect((await fetchText(port, '/whoami', agent)).body).toMatch(new RegExp(`^${C} `));
      expect([...(await pids())].every((pid) => before.has(pid))).toBe(true);
      expect((await fetchText(port, '/page.txt')).body).toBe('la page de C');
      expect(readLive(buildsDir)).toMatchObject({ id: C, server: A });

      // Another server's code: new processes.
      await front.switchTo(B);
      expect([...(await pids())].some((pid) => before.has(pid))).toBe(false);
      expect(readLive(buildsDir)?.server).toBeUndefined();
      agent.destroy();
    } finally {
      await front.close();
    }
  });

  it('sends a GET whose app died before answering to another app, under load, and starts the dead one again', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 2, initialIds: [A] });
    const port = (front.server.address() as AddressInfo).port;
    const mark = join(work, `died-${Date.now()}`);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const statuses: number[] = [];
    let stop = false;
    // Other readers meanwhile: their requests move the front's turn between the apps, so that a
    // request sent again without regard to where it failed would often go back to the dead app.
    const loops = Array.from({ length: 6 }, async () => {
      while (!stop) statuses.push((await fetchText(port, '/whoami', agent).catch(() => ({ status: 0 }))).status);
    });
    try {
      for (let round = 0; round < 6; round++) {
        const marked = `${mark}-${round}`;
        const answer = await fetchText(port, `/die-once?mark=${encodeURIComponent(marked)}`);
        const died = Number(readFileSync(marked, 'utf8'));
        expect(answer.status).toBe(200);
        expect(answer.body).toMatch(/^answered by \d+$/);
        expect(answer.body).not.toBe(`answered by ${died}`);
        // Back to two app processes before the next round, so that each round has another app to go to.
        await until(async () => new Set(await Promise.all(Array.from({ length: 6 }, async () => (await fetchText(port, '/whoami')).body))).size === 2);
      }
      stop = true;
      await Promise.all(loops);
      expect(statuses.length).toBeGreaterThan(100);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      stop = true;
      agent.destroy();
      await front.close();
    }
  });

  it('replaces an app process that died, even when its replacement is killed too while it starts', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 2, initialIds: [SLOW_START] });
    const port = (front.server.address() as AddressInfo).port;
    const children = () => childPids(process.pid);
    const serving = async () =>
      new Set(await Promise.all(Array.from({ length: 6 }, async () => Number((await fetchText(port, '/whoami')).body.split(' ')[1]))));
    try {
      const first = await serving();
      expect(first.size).toBe(2);
      const before = new Set(children());
      const [victim] = [...first];
      process.kill(victim!, 'SIGKILL');
      // Its replacement (started 1 s later, 4 s to start on this build), killed before it is ready.
      let replacement: number | undefined;
      await until(() => (replacement = children().find((pid) => !before.has(pid))) !== undefined);
      process.kill(replacement!, 'SIGKILL');
      // The survivor answers meanwhile; then two apps again, neither of them one that was killed.
      expect((await fetchText(port, '/whoami')).status).toBe(200);
      await until(async () => (await serving()).size === 2, 20_000);
      const after = await serving();
      expect(after.has(victim!) || after.has(replacement!)).toBe(false);
    } finally {
      await front.close();
    }
  });

  it('stops, on close, an app process still starting in place of a dead one', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 2, initialIds: [SLOW_START] });
    const port = (front.server.address() as AddressInfo).port;
    const children = () => childPids(process.pid);
    const before = new Set(children());
    const victim = Number((await fetchText(port, '/whoami')).body.split(' ')[1]);
    process.kill(victim, 'SIGKILL');
    // Its replacement starts 1 s later and needs 4 s on this build: the front closes meanwhile.
    let replacement: number | undefined;
    await until(() => (replacement = children().find((pid) => !before.has(pid))) !== undefined);
    await front.close();
    expect(isAlive(replacement!)).toBe(false);
    expect(children().filter((pid) => !before.has(pid))).toEqual([]);
  });

  it('holds requests while every app process is being replaced, and answers them once one is ready', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 2, initialIds: [A] });
    const port = (front.server.address() as AddressInfo).port;
    try {
      const pids = new Set(await Promise.all(Array.from({ length: 6 }, async () => Number((await fetchText(port, '/whoami')).body.split(' ')[1]))));
      expect(pids.size).toBe(2);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      // Both gone: these requests wait for the replacements (about a second away) instead of a 503.
      const answers = await Promise.all(Array.from({ length: 4 }, () => fetchText(port, '/whoami')));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      for (const answer of answers) expect(pids.has(Number(answer.body.split(' ')[1]))).toBe(false);
    } finally {
      await front.close();
    }
  });

  it('leaves to the app what it does not look up: the app answers the build’s files itself, and its pages at once', async () => {
    writeFileSync(join(buildsDir, A, 'client', 'robots.txt'), 'User-agent: *\n');
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 1, initialIds: [A] });
    const port = (front.server.address() as AddressInfo).port;
    const ask = (method: string, path: string, headers: Record<string, string>) => fetchText(port, path, undefined, { method, headers });
    try {
      // A file of the build is the front's answer; no file, the page (the app takes the front's word and drops its header).
      expect(await ask('GET', '/robots.txt', {})).toEqual({ status: 200, body: 'User-agent: *\n' });
      expect(await ask('GET', '/no-file', {})).toEqual({ status: 200, body: 'absent' });
      // A condition the front leaves to the app: the app finds the file itself and honours the condition.
      expect(await ask('GET', '/robots.txt', { 'If-Match': '*' })).toEqual({ status: 200, body: 'User-agent: *\n' });
      expect((await ask('GET', '/robots.txt', { 'If-Match': '"une-autre-version"' })).status).toBe(412);
      // A reader cannot say that there is no file: the front drops the header, the app still looks.
      expect(await ask('GET', '/robots.txt', { 'If-Match': '*', 'X-Contrechamp-No-File': '1' })).toEqual({ status: 200, body: 'User-agent: *\n' });
      expect(await ask('POST', '/no-file', { 'X-Contrechamp-No-File': '1' })).toEqual({ status: 200, body: 'absent' });
      // An address that does not decode: 400 in French, never a page.
      expect(await ask('GET', '/%E0%A4%A', {})).toEqual({ status: 400, body: 'Adresse mal formée.' });
    } finally {
      await front.close();
    }
  });

  it('answers a body it refuses (413) at once and closes the connection, while the reader is still sending', async () => {
    const front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', processes: 1, initialIds: [A] });
    const url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}/form`;
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const large = 'message='.padEnd(90 * 1024, 'x');
    /** The body in 9 pieces of 10 KiB, one every 200 ms: the reader is still sending for almost 2 s. */
    const slowly = () => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === 9) return controller.close();
          await new Promise((r) => setTimeout(r, 200));
          controller.enqueue(new TextEncoder().encode(large.slice(sent * 10 * 1024, (sent + 1) * 10 * 1024)));
          sent += 1;
        },
      });
    };
    const post = async (init: RequestInit) => {
      const started = performance.now();
      const answer = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(10_000), ...init });
      const text = await answer.text();
      return { status: answer.status, statusText: answer.statusText, connection: answer.headers.get('connection'), text, ms: performance.now() - started };
    };
    try {
      // The app process loads its modules on the first form.
      expect(await post({ body: 'message=bonjour', headers: form })).toMatchObject({ status: 200, text: 'reçu', connection: 'keep-alive' });
      const refused = { status: 413, statusText: 'Payload Too Large', connection: 'close', text: '<p>Corps de requête trop volumineux.</p>' };
      // Sent at once, its length declared.
      const whole = await post({ body: large, headers: form });
      expect(whole).toMatchObject(refused);
      expect(whole.ms).toBeLessThan(2000);
      // Still being sent, its length declared: the answer comes before the body is all sent.
      const declared = await post({ body: slowly(), headers: { ...form, 'Content-Length': String(large.length) }, duplex: 'half' } as RequestInit);
      expect(declared).toMatchObject(refused);
      expect(declared.ms).toBeLessThan(1500);
      // Still being sent, its length unknown (chunked): refused once the bytes counted pass the limit.
      const chunked = await post({ body: slowly(), headers: form, duplex: 'half' } as RequestInit);
      expect(chunked).toMatchObject(refused);
      expect(chunked.ms).toBeLessThan(2500);
      // The front and its app serve on as before: no connection to the app is left waiting for a body.
      for (let i = 0; i < 20; i++) expect((await fetchText((front.server.address() as AddressInfo).port, '/')).status).toBe(200);
      expect(await post({ body: 'message=encore', headers: form })).toMatchObject({ status: 200, text: 'reçu' });
    } finally {
      await front.close();
    }
  }, 60_000);

  it('tells the app the reader\u2019s address, believing X-Forwarded-For only from a trusted proxy', () => {
    const none = parseTrustedProxies('');
    const local = parseTrustedProxies('127.0.0.1, 10.0.0.0/8');
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.9', none)).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '203.0.113.9', local)).toBe('203.0.113.9');
    // A reader cannot choose their address by sending the header themselves through the proxy.
    expect(clientAddress('127.0.0.1', '198.51.100.1, 203.0.113.9', local)).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', '203.0.113.9, 10.1.2.3', local)).toBe('203.0.113.9');
    expect(() => parseTrustedProxies('localhost')).toThrow(/TRUSTED_PROXIES/);
  });

  it('after a kill -9, starts again on the last good build, and its app processes do not outlive it', async () => {
    writeLive({ root, buildsDir }, A, new Date());
    const start = (port: number): Promise<{ child: ChildProcess; port: number }> =>
      new Promise((resolvePromise, reject) => {
        const child = spawn(process.execPath, [join(root, 'src', 'host', 'start.ts'), '--no-build'], {
          cwd: root,
          env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', BUILDS_DIR: buildsDir, DATA_DIR: join(work, 'data') },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('"msg":"listening"')) resolvePromise({ child, port });
        });
        child.once('exit', (code) => reject(new Error(`start.ts exited (${code}): ${out}`)));
      });
    const port = 43_000 + Math.floor(Math.random() * 2000);
    let first = await start(port);
    try {
      expect((await fetchText(port, '/')).body).toMatch(new RegExp(`^${A} `));
      // A switch to a build that takes 4 s to start, and the front killed in the middle of it.
      await fetchText(port, `/switch?to=${SLOW_START}`);
      await new Promise((r) => setTimeout(r, 1000));
      const apps = childPids(first.child.pid!);
      expect(apps.length).toBeGreaterThan(0);
      first.child.kill('SIGKILL');
      await until(() => apps.every((pid) => !isAlive(pid)));
      expect(readLive(buildsDir)?.id).toBe(A);

      first = await start(port);
      expect((await fetchText(port, '/')).body).toMatch(new RegExp(`^${A} `));
      // A switch that completes, then a kill: the new build is the one that starts.
      await fetchText(port, `/switch?to=${B}`);
      await until(async () => (await fetchText(port, '/')).body.startsWith(B));
      first.child.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
      first = await start(port);
      expect((await fetchText(port, '/')).body).toMatch(new RegExp(`^${B} `));
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((r) => first.child.once('exit', r));
    }
  }, 60_000);
});
