/**
 * The example nginx site (deploy/nginx/contrechamp.conf) is kept working: `nginx -t` accepts it,
 * wrapped in a minimal nginx.conf, with a self-signed certificate made here; then nginx runs it
 * on free ports, in front of a stand-in for `npm start`, and a client checks what the guide
 * promises: HTTP goes to HTTPS, the hashed files come from the live build's folder through the
 * `current` symlink (and follow it when it is swapped), everything else reaches the server with
 * the forwarded headers overwritten, and oversized bodies stop at nginx.
 *
 * Needs nginx and openssl (Debian's packages; `.ci/run` installs nginx). Skipped without nginx,
 * except in CI, where a missing nginx fails the suite.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer as createNetServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SITE = join(import.meta.dirname, 'nginx/contrechamp.conf');
const HOST = 'contrechamp.example';

function findNginx(): string | undefined {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() || undefined : undefined;
}
const nginx = findNginx();
if (!nginx && process.env.CI) throw new Error('nginx is required in CI (apt-get install nginx; .ci/run does it)');

/** A free TCP port on loopback (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `text` with `from` replaced everywhere; throws if `from` is not there (the file changed shape). */
function swap(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`deploy/nginx/contrechamp.conf no longer contains ${JSON.stringify(from)}: update this test`);
  return text.split(from).join(to);
}

interface Paths {
  dir: string;
  cert: string;
  key: string;
  builds: string;
  acme: string;
}

/** The site file with its machine paths pointed into the scratch folder. */
function siteFor(paths: Paths, site = readFileSync(SITE, 'utf8'), ports?: { http: number; https: number; app: number }): string {
  let text = site;
  text = swap(text, `/etc/letsencrypt/live/${HOST}/fullchain.pem`, paths.cert);
  text = swap(text, `/etc/letsencrypt/live/${HOST}/privkey.pem`, paths.key);
  text = swap(text, '/var/log/nginx/', `${paths.dir}/logs/`);
  text = swap(text, '/srv/contrechamp/builds/current', join(paths.builds, 'current'));
  text = swap(text, '/var/www/letsencrypt', paths.acme);
  if (ports) {
    // Loopback on free ports; IPv6 may be missing where tests run, `nginx -t` has checked those lines.
    text = swap(text, 'listen [::]:80;', '');
    text = swap(text, 'listen [::]:443 ssl http2;', '');
    text = swap(text, 'listen 80;', `listen 127.0.0.1:${ports.http};`);
    text = swap(text, 'listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`);
    text = swap(text, 'server 127.0.0.1:4321;', `server 127.0.0.1:${ports.app};`);
  }
  return text;
}

/** The smallest nginx.conf around the site: everything nginx writes stays in the scratch folder. */
function mainConfig(paths: Paths, siteFile: string): string {
  const temp = (name: string) => `${paths.dir}/temp/${name}`;
  return [
    'worker_processes 1;',
    // As root, nginx would hand its workers to `nobody`, who cannot read a private scratch folder.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'events { worker_connections 64; }',
    'http {',
    '  types { text/html html; text/css css; application/javascript js; image/svg+xml svg; }',
    '  default_type application/octet-stream;',
    `  access_log ${paths.dir}/logs/access.log;`,
    `  client_body_temp_path ${temp('body')};`,
    `  proxy_temp_path ${temp('proxy')};`,
    `  fastcgi_temp_path ${temp('fastcgi')};`,
    `  uwsgi_temp_path ${temp('uwsgi')};`,
    `  scgi_temp_path ${temp('scgi')};`,
    // Debian's own nginx.conf turns gzip on: the site must turn it off for itself.
    '  gzip on;',
    `  include ${siteFile};`,
    '}',
    '',
  ].join('\n');
}

const globals = (paths: Paths) => `pid ${paths.dir}/nginx.pid; error_log ${paths.dir}/logs/error.log;`;

function nginxTest(paths: Paths, site: string): { ok: boolean; output: string } {
  writeFileSync(join(paths.dir, 'site.conf'), site);
  writeFileSync(join(paths.dir, 'nginx.conf'), mainConfig(paths, join(paths.dir, 'site.conf')));
  const run = spawnSync(
    nginx!,
    ['-t', '-q', '-e', `${paths.dir}/logs/error.log`, '-p', `${paths.dir}/`, '-c', join(paths.dir, 'nginx.conf'), '-g', globals(paths)],
    { encoding: 'utf8' },
  );
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function fetchOver(
  kind: 'http' | 'https',
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer; ca?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = kind === 'https' ? httpsRequest : httpRequest;
    const req = send(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: HOST, ...options.headers },
        ...(kind === 'https' ? { servername: HOST, ca: options.ca, agent: false } : { agent: false }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

describe.skipIf(!nginx)('the example nginx site', () => {
  let paths: Paths;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'nginx-site-'));
    chmodSync(dir, 0o755);
    paths = { dir, cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem'), builds: join(dir, 'builds'), acme: join(dir, 'acme') };
    for (const sub of ['logs', 'temp', 'builds', 'acme/.well-known/acme-challenge']) mkdirSync(join(dir, sub), { recursive: true });
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${HOST}`,
        '-addext',
        `subjectAltName=DNS:${HOST}`,
        '-keyout',
        paths.key,
        '-out',
        paths.cert,
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(() => rmSync(paths.dir, { recursive: true, force: true }));

  it('passes nginx -t, and the same check fails on a broken copy', () => {
    const good = nginxTest(paths, siteFor(paths));
    expect(good.output).not.toMatch(/\[emerg\]/);
    expect(good.ok).toBe(true);
    // The check can fail: a directive nginx does not know, and a certificate that is not there.
    expect(nginxTest(paths, swap(siteFor(paths), 'gzip off;', 'gzip off;\n    proxy_pass_everything on;')).ok).toBe(false);
    expect(nginxTest(paths, swap(siteFor(paths), paths.key, join(paths.dir, 'missing.pem'))).ok).toBe(false);
  });

  describe('running', () => {
    let app: Server;
    let server: ChildProcess;
    let ports: { http: number; https: number; app: number };
    const seen: { url: string; headers: IncomingHttpHeaders; bytes: number }[] = [];
    let ca: string;
    const https = (path: string, options: Parameters<typeof fetchOver>[3] = {}) => fetchOver('https', ports.https, path, { ...options, ca });

    /** Points `current` at a build's client folder the way `npm start` does: a new link renamed over the old one. */
    const makeLive = (id: string) => {
      const next = join(paths.builds, `.current-${id}`);
      symlinkSync(join(paths.builds, id, 'client'), next);
      renameSync(next, join(paths.builds, 'current'));
    };

    beforeAll(async () => {
      ca = readFileSync(paths.cert, 'utf8');
      for (const [id, file, text] of [
        ['b1', 'page.b1.js', 'from build one'],
        ['b2', 'page.b2.js', 'from build two'],
      ] as const) {
        mkdirSync(join(paths.builds, id, 'client/_astro'), { recursive: true });
        writeFileSync(join(paths.builds, id, 'client/_astro', file), `console.log(${JSON.stringify(text)});\n`);
        // What the build's precompression writes beside it (src/integrations/precompress.mjs).
        writeFileSync(join(paths.builds, id, 'client/_astro', `${file}.gz`), gzipSync(`console.log(${JSON.stringify(text)});\n`));
      }
      makeLive('b1');
      writeFileSync(join(paths.acme, '.well-known/acme-challenge/tok'), 'acme-proof');

      app = createServer((req, res) => {
        let bytes = 0;
        req.on('data', (chunk: Buffer) => (bytes += chunk.length));
        req.on('end', () => {
          seen.push({ url: req.url ?? '', headers: req.headers, bytes });
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(req.url?.startsWith('/_astro/') ? `app:${req.url}` : `app:${req.url}${' '.repeat(200)}`);
        });
      });
      await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
      ports = { http: await freePort(), https: await freePort(), app: (app.address() as { port: number }).port };

      const site = siteFor(paths, undefined, ports);
      expect(nginxTest(paths, site).ok).toBe(true);
      server = spawn(
        nginx!,
        ['-e', `${paths.dir}/logs/error.log`, '-p', `${paths.dir}/`, '-c', join(paths.dir, 'nginx.conf'), '-g', `daemon off; ${globals(paths)}`],
        { stdio: 'ignore' },
      );
      await Promise.all([waitForPort(ports.http), waitForPort(ports.https)]);
    }, 20_000);

    afterAll(async () => {
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      await new Promise((resolve) => app?.close(resolve));
    });

    it('sends plain HTTP to HTTPS, except the certificate challenge', async () => {
      const redirected = await fetchOver('http', ports.http, '/articles/2026/un-article?page=2');
      expect(redirected.status).toBe(301);
      expect(redirected.headers.location).toBe(`https://${HOST}/articles/2026/un-article?page=2`);
      const challenge = await fetchOver('http', ports.http, '/.well-known/acme-challenge/tok');
      expect(challenge.status).toBe(200);
      expect(challenge.body).toBe('acme-proof');
    });

    it('proxies pages to the server with the forwarded headers overwritten, uncompressed, with HSTS', async () => {
      seen.length = 0;
      const answer = await https('/mon-compte?onglet=1', {
        headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'http', 'accept-encoding': 'gzip' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.trim()).toBe('app:/mon-compte?onglet=1');
      expect(answer.headers['strict-transport-security']).toBe('max-age=63072000');
      expect(answer.headers['content-encoding']).toBeUndefined();
      const [request] = seen;
      expect(request?.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(request?.headers['x-forwarded-proto']).toBe('https');
      expect(request?.headers.host).toBe(HOST);
    });

    it('serves the live build’s hashed files from disk, immutable, and follows the symlink when it is swapped', async () => {
      seen.length = 0;
      const one = await https('/_astro/page.b1.js');
      expect(one.status).toBe(200);
      expect(one.body).toContain('from build one');
      expect(one.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(one.headers['x-content-type-options']).toBe('nosniff');
      expect(one.headers['strict-transport-security']).toBe('max-age=63072000');
      expect(seen).toEqual([]);
      // The .gz made at build, to a browser that accepts it.
      const zipped = await https('/_astro/page.b1.js', { headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['vary']).toBe('Accept-Encoding');
      expect(zipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');

      makeLive('b2');
      const two = await https('/_astro/page.b2.js');
      expect(two.status).toBe(200);
      expect(two.body).toContain('from build two');
      expect(seen).toEqual([]);
      // The previous build's file is no longer under `current`: the server answers for it.
      const previous = await https('/_astro/page.b1.js');
      expect(previous.body).toBe('app:/_astro/page.b1.js');
      expect(previous.headers['cache-control']).toBeUndefined();
      expect(seen.map((s) => s.url)).toEqual(['/_astro/page.b1.js']);
    });

    it('keeps no secret in its access log: no query string, no feed secret, no mailed link’s token', async () => {
      const secret = 'Zx9secretDeFluxPersonnel0123456789';
      const token = 'jetonDeLienEnvoyeParCourriel42';
      await https(`/flux-soutiens/${secret}/tous.xml`);
      await https(`/flux-soutiens/${secret}/audio/les-voix-du-terrain/bonus.mp3`);
      await https(`/retractation/lien/${token}`);
      await https('/audio/soutiens/les-voix-du-terrain/bonus.mp3?e=1900000000&s=signatureSecrete', {
        headers: { referer: `https://${HOST}/login?token=${token}` },
      });
      // nginx writes the line when the request ends; give it a moment.
      let log = '';
      for (let i = 0; i < 20 && !log.includes('/audio/soutiens/'); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        log = readFileSync(join(paths.dir, 'logs', 'contrechamp.access.log'), 'utf8');
      }
      expect(log).toContain('"GET /flux-soutiens/[secret]/tous.xml HTTP/');
      expect(log).toContain('"GET /flux-soutiens/[secret]/audio/les-voix-du-terrain/bonus.mp3 HTTP/');
      expect(log).toContain('"GET /retractation/lien/[secret] HTTP/');
      expect(log).toContain('"GET /audio/soutiens/les-voix-du-terrain/bonus.mp3 HTTP/');
      for (const kept of [secret, token, 'signatureSecrete', 'e=1900000000']) expect(log).not.toContain(kept);
    });

    it('takes a 10 MB upload to the server and stops a bigger one itself', async () => {
      seen.length = 0;
      const small = await https('/administration/assemblees', {
        method: 'POST',
        body: Buffer.alloc(10 * 1024 * 1024, 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(small.status).toBe(200);
      expect(seen[0]?.bytes).toBe(10 * 1024 * 1024);
      const big = await https('/administration/assemblees', {
        method: 'POST',
        body: Buffer.alloc(13 * 1024 * 1024, 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(big.status).toBe(413);
      expect(seen).toHaveLength(1);
    });
  });
});
