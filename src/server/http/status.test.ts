import { describe, expect, it } from 'vitest';
import { reasonPhrase, withReasonPhrase } from './status';

describe('reasonPhrase', () => {
  it('is the standard phrase of each refusal status', () => {
    expect([400, 403, 404, 405, 409, 413, 415, 422, 429, 500, 503].map((status) => `${status} ${reasonPhrase(status)}`)).toEqual([
      '400 Bad Request',
      '403 Forbidden',
      '404 Not Found',
      '405 Method Not Allowed',
      '409 Conflict',
      '413 Payload Too Large',
      '415 Unsupported Media Type',
      '422 Unprocessable Entity',
      '429 Too Many Requests',
      '500 Internal Server Error',
      '503 Service Unavailable',
    ]);
  });

  it('is empty for a status without one', () => {
    expect(reasonPhrase(299)).toBe('');
  });
});

describe('withReasonPhrase', () => {
  it('replaces Astro’s "OK" on a page that set another status, keeping body and headers', async () => {
    const page = new Response('<p>Trop gros</p>', { status: 413, statusText: 'OK', headers: { 'Content-Type': 'text/html', 'Retry-After': '5' } });
    const answer = withReasonPhrase(page);
    expect([answer.status, answer.statusText]).toEqual([413, 'Payload Too Large']);
    expect(answer.headers.get('content-type')).toBe('text/html');
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await answer.text()).toBe('<p>Trop gros</p>');
  });

  it('fills an empty phrase, whatever the status', () => {
    for (const status of [201, 303, 404, 422, 500, 503]) {
      const answer = withReasonPhrase(new Response(null, { status }));
      expect(answer.statusText).toBe(reasonPhrase(status));
      expect(answer.statusText).not.toBe('');
    }
  });

  it('keeps an answer already right, or a phrase chosen on purpose, as it is', () => {
    const ok = new Response('x');
    expect(ok.statusText).toBe('');
    expect(withReasonPhrase(ok).statusText).toBe('OK');
    const right = new Response(null, { status: 409, statusText: 'Conflict' });
    expect(withReasonPhrase(right)).toBe(right);
    const own = new Response(null, { status: 508, statusText: 'Astro detected a loop' });
    expect(withReasonPhrase(own)).toBe(own);
    const page = new Response('<p>ok</p>', { status: 200, statusText: 'OK' });
    expect(withReasonPhrase(page)).toBe(page);
  });

  it('gives a redirect, whose headers cannot change, a phrase and headers that can', () => {
    const answer = withReasonPhrase(Response.redirect('https://contrechamp.example/x', 303));
    expect([answer.status, answer.statusText, answer.headers.get('location')]).toEqual([303, 'See Other', 'https://contrechamp.example/x']);
    answer.headers.set('X-Test', '1');
    expect(answer.headers.get('x-test')).toBe('1');
  });
});
