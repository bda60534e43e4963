import { describe, expect, it } from 'vitest';
import { API_ERROR_MESSAGES, apiError, isApiPath, json, jsonErrors } from './json';

describe('json and apiError', () => {
  it('say their status’s reason in the status line, and the body, for every refusal', async () => {
    for (const [status, phrase] of [
      [400, 'Bad Request'],
      [403, 'Forbidden'],
      [404, 'Not Found'],
      [409, 'Conflict'],
      [413, 'Payload Too Large'],
      [415, 'Unsupported Media Type'],
      [422, 'Unprocessable Entity'],
      [429, 'Too Many Requests'],
      [503, 'Service Unavailable'],
    ] as const) {
      const answer = apiError(status, 'Message en français.');
      expect([answer.status, answer.statusText]).toEqual([status, phrase]);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await answer.json()).toEqual({ statusCode: status, statusMessage: phrase, message: 'Message en français.' });
    }
    expect(json({ ok: true }).statusText).toBe('OK');
  });

  it('apiError gives Retry-After when asked', () => {
    expect(apiError(429, 'Trop de tentatives.', 60).headers.get('retry-after')).toBe('60');
    expect(apiError(400, 'Non.').headers.has('retry-after')).toBe(false);
  });
});

describe('isApiPath', () => {
  it('is /api and below, nothing else', () => {
    expect(['/api', '/api/', '/api/payments/webhooks/stripe'].map(isApiPath)).toEqual([true, true, true]);
    expect(['/', '/apiculture', '/soutenir/paiement', '/mon-compte/api/x'].map(isApiPath)).toEqual([false, false, false, false]);
  });
});

describe('jsonErrors', () => {
  const never = () => {
    throw new Error('onError called without an exception');
  };

  it('turns an exception into a 500 in JSON, told to onError', async () => {
    const seen: unknown[] = [];
    const fault = new Error('database is down');
    const answer = await jsonErrors(
      async () => {
        throw fault;
      },
      (error) => seen.push(error),
    );
    expect([answer.status, answer.statusText]).toEqual([500, 'Internal Server Error']);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ statusCode: 500, statusMessage: 'Internal Server Error', message: API_ERROR_MESSAGES[500] });
    expect(seen).toEqual([fault]);
  });

  it('turns an HTML error page into the same status in JSON, keeping Allow, Retry-After and cookies', async () => {
    const page = new Response('<!doctype html><h1>Page introuvable</h1>', {
      status: 405,
      headers: { 'Content-Type': 'text/html', Allow: 'POST', 'Retry-After': '3', 'Set-Cookie': 'a=1', 'Cache-Control': 'public, max-age=60' },
    });
    const answer = await jsonErrors(async () => page, never);
    expect([answer.status, answer.statusText]).toEqual([405, 'Method Not Allowed']);
    expect(await answer.json()).toEqual({ statusCode: 405, statusMessage: 'Method Not Allowed', message: 'Méthode non autorisée pour cette adresse.' });
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.headers.get('set-cookie')).toBe('a=1');
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('gives an unknown address and a bare status a French message', async () => {
    const notFound = await jsonErrors(async () => new Response('<h1>404</h1>', { status: 404, headers: { 'Content-Type': 'text/html' } }), never);
    expect(await notFound.json()).toMatchObject({ statusCode: 404, message: 'Cette adresse de l’API n’existe pas.' });
    const bare = await jsonErrors(async () => new Response(null, { status: 502 }), never);
    expect([bare.status, bare.statusText]).toEqual([502, 'Bad Gateway']);
    expect(await bare.json()).toMatchObject({ statusCode: 502, message: 'Votre demande n’a pas abouti.' });
  });

  it('leaves JSON answers and successes as they are', async () => {
    const refusal = apiError(409, 'Plus tard.');
    expect(await jsonErrors(async () => refusal, never)).toBe(refusal);
    const problem = new Response('{}', { status: 400, headers: { 'Content-Type': 'application/problem+json' } });
    expect(await jsonErrors(async () => problem, never)).toBe(problem);
    const redirect = new Response(null, { status: 303, headers: { Location: '/mailinglist/unsubscribe' } });
    expect(await jsonErrors(async () => redirect, never)).toBe(redirect);
  });
});
