/**
 * What the middleware does to every answer rendered on demand, besides the security headers
 * (src/config/security-headers.test.ts): JSON errors under /api/, and status lines that say their
 * own reason.
 */
import { STATUS_CODES } from 'node:http';
import type { APIContext, MiddlewareNext } from 'astro';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from './server/core/log';
import { onRequest } from './middleware';

const through = async (path: string, next: () => Promise<Response>) =>
  (await onRequest({ isPrerendered: false, url: new URL(`https://contrechamp.example${path}`) } as APIContext, next as MiddlewareNext)) as Response;

let errors: unknown[];
beforeEach(() => {
  errors = [];
  vi.spyOn(log, 'error').mockImplementation((message, fields) => void errors.push({ message, fields }));
});
afterEach(() => vi.restoreAllMocks());

describe('middleware: JSON endpoints', () => {
  it('answer an exception with a logged 500 in JSON, not the HTML error page', async () => {
    const fault = new Error('connection refused');
    const answer = await through('/api/payments/webhooks/stripe', async () => {
      throw fault;
    });
    expect([answer.status, answer.statusText]).toEqual([500, 'Internal Server Error']);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await answer.json()).toMatchObject({ statusCode: 500, statusMessage: 'Internal Server Error', message: expect.stringMatching(/^Erreur interne/) });
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(errors).toEqual([{ message: 'unhandled error', fields: { path: '/api/payments/webhooks/stripe', error: fault } }]);
  });

  it('answer Astro’s HTML 404 page for an unknown address in JSON', async () => {
    const answer = await through(
      '/api/inconnue',
      async () => new Response('<!doctype html><title>Page introuvable</title>', { status: 404, statusText: 'OK', headers: { 'Content-Type': 'text/html' } }),
    );
    expect([answer.status, answer.statusText]).toEqual([404, 'Not Found']);
    expect(await answer.json()).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Cette adresse de l’API n’existe pas.' });
  });

  it('leave their own JSON refusals as they are', async () => {
    const refusal = new Response(JSON.stringify({ statusCode: 409, message: 'Plus tard.' }), { status: 409, headers: { 'Content-Type': 'application/json' } });
    const answer = await through('/api/payments/webhooks/stripe', async () => refusal);
    expect([answer.status, answer.statusText]).toEqual([409, 'Conflict']);
    expect(await answer.json()).toEqual({ statusCode: 409, message: 'Plus tard.' });
  });

  it('while a page’s exception still goes to Astro’s error page', async () => {
    await expect(
      through('/soutenir/paiement', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });
});

describe('middleware: status lines', () => {
  it('give a page that set its own status the reason of that status, not Astro’s "OK"', async () => {
    const answer = await through(
      '/soutenir/paiement',
      async () =>
        new Response('<p>Formulaire trop volumineux.</p>', { status: 413, statusText: 'OK', headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    );
    expect([answer.status, answer.statusText]).toEqual([413, 'Payload Too Large']);
    expect(await answer.text()).toContain('Formulaire trop volumineux.');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('every refusal status, on pages and endpoints alike', async () => {
    for (const status of [400, 403, 404, 409, 413, 415, 422, 429, 500, 503]) {
      for (const path of ['/contact', '/api/contact']) {
        const answer = await through(path, async () => new Response(null, { status, statusText: status === 500 ? '' : 'OK' }));
        expect(`${answer.status} ${answer.statusText}`).toBe(`${status} ${STATUS_CODES[status]}`);
      }
    }
  });
});
