import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_SKEW_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER, signRebuild, signedRebuildHeaders, verifyRebuild } from './webhook';

const SECRET = 'f3b1c0de5a7e9d2b4c6a8e0f1d3b5c7a';
const NOW = new Date('2026-11-23T10:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);
const body = new TextEncoder().encode('{"entries":["articles/2026/exemple"]}');

const verify = (over: Partial<Parameters<typeof verifyRebuild>[0]> = {}) =>
  verifyRebuild({ secret: SECRET, body, timestamp: String(T), signature: signRebuild(SECRET, T, body), now: NOW, ...over });

describe('the rebuild webhook signature', () => {
  it('accepts a request signed with the key over its timestamp and raw body', () => {
    expect(verify()).toEqual({ ok: true });
  });

  it('accepts the headers a caller makes with signedRebuildHeaders, and refuses them for another body', () => {
    const text = new TextDecoder().decode(body);
    const headers = signedRebuildHeaders(SECRET, text, NOW.getTime());
    const sent = { timestamp: headers[TIMESTAMP_HEADER]!, signature: headers[SIGNATURE_HEADER]! };
    expect(headers['Content-Type']).toBe('application/json');
    expect(verify(sent)).toEqual({ ok: true });
    expect(verify({ ...sent, body: new TextEncoder().encode(`${text} `) })).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a request without the headers (401)', () => {
    expect(verify({ signature: null })).toMatchObject({ ok: false, status: 401, message: expect.stringContaining('non signée') });
    expect(verify({ timestamp: null })).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses another key, another body, or another timestamp under the same signature (401)', () => {
    expect(verify({ signature: signRebuild('another-secret-of-enough-length-00', T, body) })).toMatchObject({
      ok: false,
      status: 401,
      message: 'Signature invalide.',
    });
    expect(verify({ body: new TextEncoder().encode('{"entries":["articles/2026/autre"]}') })).toMatchObject({ ok: false, status: 401 });
    expect(verify({ timestamp: String(T + 1) })).toMatchObject({ ok: false, status: 401 });
    expect(verify({ signature: 'v1=zz' })).toMatchObject({ ok: false, status: 401 });
    expect(verify({ signature: 'sha256=' + signRebuild(SECRET, T, body).slice(3) })).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a replay outside five minutes, in either direction (401), and accepts one just inside', () => {
    const at = (seconds: number) => verify({ now: new Date(NOW.getTime() + seconds * 1000) });
    expect(at(MAX_SKEW_SECONDS + 1)).toMatchObject({ ok: false, status: 401, message: expect.stringContaining('périmée') });
    expect(at(-(MAX_SKEW_SECONDS + 1))).toMatchObject({ ok: false, status: 401 });
    expect(at(MAX_SKEW_SECONDS - 1)).toEqual({ ok: true });
  });

  it('refuses a timestamp that is not a number of seconds (400)', () => {
    expect(verify({ timestamp: '2026-11-23T10:00:00Z' })).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses an oversized body before checking anything else (400)', () => {
    expect(verify({ body: new Uint8Array(MAX_BODY_BYTES + 1) })).toMatchObject({ ok: false, status: 400, message: expect.stringContaining('volumineuse') });
  });

  it('accepts one matching value among several, while the CMS rotates its key', () => {
    const old = signRebuild('the-previous-key-0123456789abcdef', T, body);
    expect(verify({ signature: `${old}, ${signRebuild(SECRET, T, body)}` })).toEqual({ ok: true });
  });
});
