import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIContext, MiddlewareNext } from 'astro';
import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS, addSecurityHeaders } from './security-headers.mjs';
import { onRequest } from '../middleware';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
const NAMES = Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase());

/** The security headers an answer carries, by lowercase name. */
function securityHeadersOf(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => NAMES.includes(name)));
}

async function throughMiddleware(response: Response, isPrerendered = false): Promise<Response> {
  const result = await onRequest({ isPrerendered } as APIContext, (async () => response) as MiddlewareNext);
  return result as Response;
}

describe('security headers', () => {
  it('are the list the site promises', () => {
    expect(lower(SECURITY_HEADERS)).toEqual({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'SAMEORIGIN',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), browsing-topics=()',
    });
  });

  it('are exactly what the middleware adds to an answer rendered on demand, its own CSP untouched', async () => {
    const csp = "default-src 'self'; script-src 'sha256-abc'";
    const response = await throughMiddleware(new Response('<p>x</p>', { headers: { 'Content-Security-Policy': csp, 'Content-Type': 'text/html' } }));
    expect(securityHeadersOf(response.headers)).toEqual(lower(SECURITY_HEADERS));
    expect(response.headers.get('content-security-policy')).toBe(csp);
  });

  it('leave a value the page chose, prerendered answers, and immutable redirects alone', async () => {
    const own = await throughMiddleware(new Response('', { headers: { 'X-Frame-Options': 'DENY' } }));
    expect(own.headers.get('x-frame-options')).toBe('DENY');
    const prerendered = await throughMiddleware(new Response(''), true);
    expect(securityHeadersOf(prerendered.headers)).toEqual({});
    const redirect = await throughMiddleware(Response.redirect('http://localhost/x', 301));
    expect(redirect.status).toBe(301);
    expect(addSecurityHeaders(Response.redirect('http://localhost/x', 301).headers)).toBe(false);
  });

  it('are exactly what npm start’s server adds to every answer, static files included', async () => {
    // src/host/start.ts (its front process and the app process behind it), run as is against a
    // stand-in build whose handler sets no header.
    const root = mkdtempSync(join(tmpdir(), 'contrechamp-start-'));
    for (const file of [
      'src/host/start.ts',
      'src/host/build-fingerprint.ts',
      'src/host/front.ts',
      'src/host/static.ts',
      'src/host/app.ts',
      'src/host/protocol.ts',
      'src/lib/process-hooks.ts',
      'src/config/security-headers.mjs',
      'src/server/editorial/live.ts',
    ]) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      copyFileSync(join(repo, file), join(root, file));
    }
    mkdirSync(join(root, 'dist/server'), { recursive: true });
    mkdirSync(join(root, 'dist/client/_astro'), { recursive: true });
    // A file of the build's client folder, which the front process serves itself.
    writeFileSync(join(root, 'dist/client/_astro/site.css'), 'main{}');
    writeFileSync(
      join(root, 'dist/server/entry.mjs'),
      "export const handler = (req, res) => { res.setHeader('Content-Type', 'text/css'); res.end('body{}'); };\n",
    );
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, [join(root, 'src/host/start.ts'), '--no-build'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: join(root, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((ready, fail) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && ready());
        child.once('exit', (code) => fail(new Error(`start.ts exited (${code})`)));
      });
      const response = await fetch(`http://127.0.0.1:${port}/_astro/style.css`);
      expect(await response.text()).toBe('body{}');
      expect(securityHeadersOf(response.headers)).toEqual(lower(SECURITY_HEADERS));
      const file = await fetch(`http://127.0.0.1:${port}/_astro/site.css`);
      expect(await file.text()).toBe('main{}');
      expect(securityHeadersOf(file.headers)).toEqual(lower(SECURITY_HEADERS));
    } finally {
      child.kill('SIGTERM');
    }
  }, 20_000);
});
