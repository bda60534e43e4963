/**
 * What readers get from the front process for static files and compressed answers, on small
 * stand-in builds: brotli, gzip or the plain bytes as the browser accepts, with Vary; hashed assets
 * immutable, pages revalidated (304); ranges of an audio file; paths that are no file still
 * answered by the app; the security headers on every static answer; only 200s while the live build
 * switches under a load of static requests. Also the build's precompression, incremental.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFront } from './front.ts';
import { SECURITY_HEADERS } from '../config/security-headers.mjs';
import { precompress } from '../integrations/precompress.mjs';

const root = resolve(import.meta.dirname, '../..');
const A = '2026-11-23T11-00-00Z-aaaa';
const B = '2026-11-23T11-05-00Z-bbbb';

/** A page of a given build: text long enough to be worth compressing. */
const page = (id: string) =>
  `<!doctype html><html lang="fr"><head><title>${id}</title></head><body>${`<p>Un article de la version ${id}.</p>\n`.repeat(200)}</body></html>`;
const AUDIO = randomBytes(200_000);

function put(dir: string, file: string, content: string | Buffer): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), content);
}

/**
 * A stand-in build: static files in client/ (the home page with a brotli file made at build only for
 * build A, an article, a hashed script, an audio file) and a server entry that answers on-demand
 * paths: `/compte` (long HTML with a cookie), `/petit` (short), `/flux` (an event stream).
 */
function writeBuild(buildsDir: string, id: string): void {
  const dir = join(buildsDir, id);
  const client = join(dir, 'client');
  put(client, 'index.html', page(id));
  if (id === A) put(client, 'index.html.br', brotliCompressSync(page(id)));
  put(client, 'articles/un-article/index.html', page(`${id} article`));
  put(client, '_astro/app.Ab12Cd34.js', `export const build = ${JSON.stringify(id)};\n${'console.log("x");\n'.repeat(100)}`);
  put(client, 'media/episode.mp3', AUDIO);
  put(
    dir,
    'server/entry.mjs',
    `export function handler(req, res) {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/health') {
    res.end('ok');
  } else if (url.pathname === '/compte') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store', 'Set-Cookie': 'session=abc; HttpOnly; Path=/' });
    res.end(${JSON.stringify(page('compte'))});
  } else if (url.pathname === '/petit') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '11' });
    res.end('{"ok":true}');
  } else if (url.pathname === '/flux') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.end('data: ' + 'x'.repeat(4000) + '\\n\\n');
  } else {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('app ${id} ' + url.pathname);
  }
}
`,
  );
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

function fetchRaw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', agent?: Agent): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files and compression in the front process', () => {
  let work: string;
  let buildsDir: string;
  let front: Awaited<ReturnType<typeof startFront>>;
  let port: number;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'front-static-'));
    buildsDir = join(work, 'builds');
    writeBuild(buildsDir, A);
    writeBuild(buildsDir, B);
    front = await startFront({ root, buildsDir, port: 0, host: '127.0.0.1', initialIds: [A] });
    port = (front.server.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await front?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('sends brotli where accepted, gzip otherwise, the plain page else, always with Vary and the right length', async () => {
    const plain = Buffer.from(page(A));
    const br = await fetchRaw(port, '/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.length / 5);
    expect(brotliDecompressSync(br.body)).toEqual(plain);

    // No .gz was made at build for this page: the front makes one.
    const gz = await fetchRaw(port, '/', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toBe('Accept-Encoding');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(gunzipSync(gz.body)).toEqual(plain);
    expect(gz.headers['etag']).not.toBe(br.headers['etag']);

    const refused = await fetchRaw(port, '/articles/un-article/', { 'Accept-Encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');

    const identity = await fetchRaw(port, '/');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers['vary']).toBe('Accept-Encoding');
    expect(identity.body).toEqual(plain);
    expect(Number(identity.headers['content-length'])).toBe(plain.length);

    const head = await fetchRaw(port, '/', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('makes hashed assets immutable for a year, and pages revalidate with a 304', async () => {
    const asset = await fetchRaw(port, '/_astro/app.Ab12Cd34.js', { 'Accept-Encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');

    const first = await fetchRaw(port, '/articles/un-article', { 'Accept-Encoding': 'br' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toMatch(/no-cache/);
    const etag = String(first.headers['etag']);
    const again = await fetchRaw(port, '/articles/un-article', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['vary']).toBe('Accept-Encoding');
    const byDate = await fetchRaw(port, '/articles/un-article/', { 'If-Modified-Since': String(first.headers['last-modified']) });
    expect(byDate.status).toBe(304);
    // Another page, or the same page changed, is sent in full.
    expect((await fetchRaw(port, '/', { 'If-None-Match': etag })).status).toBe(200);
  });

  it('serves ranges of an audio file, honouring If-Range', async () => {
    const full = await fetchRaw(port, '/media/episode.mp3', { 'Accept-Encoding': 'br, gzip' });
    expect(full.status).toBe(200);
    expect(full.headers['accept-ranges']).toBe('bytes');
    expect(full.headers['content-type']).toBe('audio/mpeg');
    expect(full.headers['content-encoding']).toBeUndefined();
    expect(full.body).toEqual(AUDIO);

    const part = await fetchRaw(port, '/media/episode.mp3', { Range: 'bytes=1000-1999', 'Accept-Encoding': 'br' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${AUDIO.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.body).toEqual(AUDIO.subarray(1000, 2000));

    const tail = await fetchRaw(port, '/media/episode.mp3', { Range: 'bytes=-500' });
    expect(tail.body).toEqual(AUDIO.subarray(AUDIO.length - 500));

    const sameFile = await fetchRaw(port, '/media/episode.mp3', { Range: 'bytes=10-19', 'If-Range': String(full.headers['etag']) });
    expect(sameFile.status).toBe(206);
    const changed = await fetchRaw(port, '/media/episode.mp3', { Range: 'bytes=10-19', 'If-Range': 'W/"autre"' });
    expect(changed.status).toBe(200);
    expect(changed.body.length).toBe(AUDIO.length);

    const beyond = await fetchRaw(port, '/media/episode.mp3', { Range: `bytes=${AUDIO.length + 10}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${AUDIO.length}`);
  });

  it('leaves to the app every path that is not a file, and puts the security headers on static answers', async () => {
    for (const path of ['/nulle-part', '/articles/', '/articles/un-article/absent', '/.env', '/media/episode.mp3/']) {
      const answer = await fetchRaw(port, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.toString(), path).toBe(`app ${A} ${path}`);
    }
    // Other methods too (the app answers them as before).
    expect((await fetchRaw(port, '/', {}, 'POST')).body.toString()).toBe(`app ${A} /`);
    for (const path of ['/', '/articles/un-article', '/_astro/app.Ab12Cd34.js', '/media/episode.mp3']) {
      const answer = await fetchRaw(port, path, { 'Accept-Encoding': 'br' });
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(answer.headers[name.toLowerCase()], `${path} ${name}`).toBe(value);
    }
  });

  it('compresses the app\u2019s text answers on the fly, keeping their headers, but not small ones nor event streams', async () => {
    const account = await fetchRaw(port, '/compte', { 'Accept-Encoding': 'gzip, br' });
    expect(account.headers['content-encoding']).toBe('br');
    expect(account.headers['vary']).toMatch(/Accept-Encoding/);
    expect(account.headers['cache-control']).toBe('private, no-store');
    expect(account.headers['set-cookie']).toEqual(['session=abc; HttpOnly; Path=/']);
    expect(brotliDecompressSync(account.body).toString()).toBe(page('compte'));
    const gz = await fetchRaw(port, '/compte', { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(gz.body).toString()).toBe(page('compte'));
    expect((await fetchRaw(port, '/compte')).body.toString()).toBe(page('compte'));
    // A signed-in reader's page is compressed only when the request comes from the site itself
    // or from the reader (BREACH): not when another site makes the browser ask for it.
    const signedIn = { 'Accept-Encoding': 'br', Cookie: 'session=abc' };
    expect((await fetchRaw(port, '/compte', { ...signedIn, 'Sec-Fetch-Site': 'same-origin' })).headers['content-encoding']).toBe('br');
    expect((await fetchRaw(port, '/compte', { ...signedIn, 'Sec-Fetch-Site': 'none' })).headers['content-encoding']).toBe('br');
    const crossSite = await fetchRaw(port, '/compte', { ...signedIn, 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.headers['content-encoding']).toBeUndefined();
    expect(crossSite.body.toString()).toBe(page('compte'));
    expect((await fetchRaw(port, '/compte', signedIn)).headers['content-encoding']).toBeUndefined();

    const small = await fetchRaw(port, '/petit', { 'Accept-Encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.toString()).toBe('{"ok":true}');
    const events = await fetchRaw(port, '/flux', { 'Accept-Encoding': 'br' });
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.toString()).toMatch(/^data: x+/);
  });

  it('switches builds under a load of static requests with only 200s, each page whole from one build', async () => {
    const results: { started: number; status: number; body: string }[] = [];
    let stop = false;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const paths = ['/', '/articles/un-article/'];
    const loops = Array.from({ length: 16 }, async (_, i) => {
      while (!stop) {
        const started = Date.now();
        try {
          const answer = await fetchRaw(
            port,
            paths[i % 2] as string,
            { 'Accept-Encoding': i % 3 === 0 ? 'br' : i % 3 === 1 ? 'gzip' : 'identity' },
            'GET',
            agent,
          );
          const encoding = answer.headers['content-encoding'];
          const body = encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;
          results.push({ started, status: answer.status, body: body.toString() });
        } catch (error) {
          results.push({ started, status: 0, body: String(error) });
        }
      }
    });
    await new Promise((r) => setTimeout(r, 400));
    const asked = Date.now();
    await front.switchTo(B);
    const switched = Date.now();
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(loops);
    agent.destroy();

    expect(results.length).toBeGreaterThan(200);
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    const whole = new Set([page(A), page(B), page(`${A} article`), page(`${B} article`)]);
    expect(results.every((r) => whole.has(r.body))).toBe(true);
    expect(results.filter((r) => r.started < asked).every((r) => r.body.includes(`version ${A}`))).toBe(true);
    expect(results.filter((r) => r.started > switched).every((r) => r.body.includes(`version ${B}`))).toBe(true);
    expect(results.some((r) => r.started > switched)).toBe(true);
    await front.switchTo(A);
  }, 30_000);
});

describe('precompression at build', () => {
  it('writes .br and .gz beside text files, and compresses again only what changed', async () => {
    const work = mkdtempSync(join(tmpdir(), 'precompress-'));
    try {
      const client = join(work, 'client');
      const cache = join(work, 'cache');
      put(client, 'index.html', page('accueil'));
      put(client, 'articles/a/index.html', page('a'));
      put(client, 'rss.xml', `<rss>${'<item>x</item>'.repeat(100)}</rss>`);
      put(client, 'tiny.txt', 'court');
      put(client, 'media/e.mp3', AUDIO);
      const workerScript = join(root, 'src', 'host', 'compress-worker.ts');

      const first = await precompress(client, cache, { workerScript });
      expect(first).toMatchObject({ files: 3, compressed: 3, reused: 0 });
      expect(brotliDecompressSync(readFileSync(join(client, 'index.html.br'))).toString()).toBe(page('accueil'));
      expect(gunzipSync(readFileSync(join(client, 'rss.xml.gz'))).toString()).toContain('<item>x</item>');
      expect(() => statSync(join(client, 'tiny.txt.br'))).toThrow();
      expect(() => statSync(join(client, 'media/e.mp3.br'))).toThrow();

      // The next build: one page changed, another rewritten with the same content, the rest untouched.
      put(client, 'articles/a/index.html', page('a modifié'));
      put(client, 'rss.xml', `<rss>${'<item>x</item>'.repeat(100)}</rss>`);
      utimesSync(join(client, 'rss.xml'), new Date(), new Date(Date.now() + 5000));
      const second = await precompress(client, cache, { workerScript });
      expect(second).toMatchObject({ files: 3, compressed: 1, reused: 2 });
      expect(brotliDecompressSync(readFileSync(join(client, 'articles/a/index.html.br'))).toString()).toBe(page('a modifié'));
      expect(gunzipSync(readFileSync(join(client, 'articles/a/index.html.gz'))).toString()).toBe(page('a modifié'));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
