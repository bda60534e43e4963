import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FILES_REFUSED, FORM_TYPE_REFUSED, checkbox, failWith, isFormPost, publicValues, readForm } from './forms';

const SITE = 'https://contrechamp.media';
const schema = z.object({
  email: z.string().trim().pipe(z.email('Adresse e-mail invalide.')),
  password: z.string().min(1, 'Mot de passe manquant.'),
  rememberMe: checkbox,
});

function post(body: BodyInit | null, headers: Record<string, string> = {}, method = 'POST'): Request {
  return new Request(`${SITE}/login`, { method, headers: { origin: SITE, ...headers }, body, duplex: 'half' } as RequestInit);
}
const urlencoded = (text: string, headers: Record<string, string> = {}) =>
  post(new TextEncoder().encode(text), { 'content-type': 'application/x-www-form-urlencoded', ...headers });

describe('readForm', () => {
  it('reads a urlencoded form, checkbox included', async () => {
    const result = await readForm(urlencoded('email=lea%40exemple.fr&password=secret&rememberMe=on'), schema, { siteOrigin: SITE });
    expect(result).toEqual({
      ok: true,
      data: { email: 'lea@exemple.fr', password: 'secret', rememberMe: true },
      values: { email: 'lea@exemple.fr', rememberMe: 'on' },
    });
  });

  it('reads a multipart form (what the ClientRouter posts), an absent checkbox being false', async () => {
    const data = new FormData();
    data.set('email', 'léa@exemple.fr'.replace('é', 'e'));
    data.set('password', 'phrase accentuée');
    const result = await readForm(post(data), schema, { siteOrigin: SITE });
    expect(result).toMatchObject({ ok: true, data: { email: 'lea@exemple.fr', password: 'phrase accentuée', rememberMe: false } });
  });

  it('refuses file parts', async () => {
    const data = new FormData();
    data.set('email', 'lea@exemple.fr');
    data.set('password', new Blob(['x']), 'x.txt');
    expect(await readForm(post(data), schema, { siteOrigin: SITE })).toMatchObject({ ok: false, status: 415, message: FILES_REFUSED });
  });

  it('refuses another origin, or none, before reading anything', async () => {
    const foreign = post(new TextEncoder().encode('email=a%40b.fr&password=x'), {
      origin: 'https://evil.example',
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(await readForm(foreign, schema, { siteOrigin: SITE })).toMatchObject({ ok: false, status: 403, values: {} });
    const none = new Request(`${SITE}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a' });
    expect(await readForm(none, schema, { siteOrigin: SITE })).toMatchObject({ ok: false, status: 403 });
  });

  it('accepts Origin: null only with Sec-Fetch-Site: same-origin (forms of no-referrer pages)', async () => {
    const body = () => new TextEncoder().encode('email=a%40b.fr&password=x');
    const own = post(body(), { origin: 'null', 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' });
    expect(await readForm(own, schema, { siteOrigin: SITE })).toMatchObject({ ok: true });
    for (const site of ['cross-site', 'same-site', 'none']) {
      const other = post(body(), { origin: 'null', 'sec-fetch-site': site, 'content-type': 'application/x-www-form-urlencoded' });
      expect(await readForm(other, schema, { siteOrigin: SITE }), site).toMatchObject({ ok: false, status: 403 });
    }
    const bare = post(body(), { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' });
    expect(await readForm(bare, schema, { siteOrigin: SITE })).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses other content types with 415', async () => {
    for (const type of ['application/json', 'text/plain', 'multipart/form-data', 'multipart/mixed; boundary=x']) {
      const result = await readForm(post(new TextEncoder().encode('{}'), { 'content-type': type }), schema, { siteOrigin: SITE });
      expect(result, type).toMatchObject({ ok: false, status: 415, message: FORM_TYPE_REFUSED });
    }
  });

  it('refuses a body over the limit with 413, declared or not', async () => {
    const big = `email=${'a'.repeat(2000)}`;
    expect(await readForm(urlencoded(big), schema, { siteOrigin: SITE, maxBytes: 1000 })).toMatchObject({ ok: false, status: 413 });
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    expect(await readForm(post(stream, { 'content-type': 'application/x-www-form-urlencoded' }), schema, { siteOrigin: SITE, maxBytes: 1000 })).toMatchObject({
      ok: false,
      status: 413,
    });
  });

  it('refuses invalid UTF-8 with 400', async () => {
    const result = await readForm(post(new Uint8Array([0x65, 0x3d, 0xff, 0xfe]), { 'content-type': 'application/x-www-form-urlencoded' }), schema, {
      siteOrigin: SITE,
    });
    // URLSearchParams decodes percent-escapes itself; raw invalid bytes are refused.
    expect(result).toMatchObject({ ok: false, status: 400 });
  });

  it('says in French what is wrong, naming the field by its label, and never refills a password', async () => {
    const result = await readForm(urlencoded('email=pas-une-adresse&password=secret'), schema, { siteOrigin: SITE, labels: { email: 'Adresse e-mail' } });
    expect(result).toEqual({ ok: false, status: 400, field: 'email', message: 'Adresse e-mail invalide.', values: { email: 'pas-une-adresse' } });
    const short = await readForm(urlencoded('email=lea%40exemple.fr&password='), schema, { siteOrigin: SITE, labels: { password: 'Mot de passe' } });
    expect(short).toMatchObject({ ok: false, message: 'Mot de passe manquant.' });
    const named = await readForm(
      urlencoded('email=lea%40exemple.fr&password=x'),
      z.object({ email: z.string(), password: z.string().min(3, '3 caractères au moins.') }),
      { siteOrigin: SITE, labels: { password: 'Mot de passe' } },
    );
    expect(named).toMatchObject({ ok: false, message: 'Mot de passe : 3 caractères au moins.' });
    const missing = await readForm(urlencoded('email=lea%40exemple.fr'), schema, { siteOrigin: SITE });
    expect(missing).toMatchObject({ ok: false, status: 400, field: 'password' });
    expect(missing.ok ? '' : missing.message).toMatch(/^[A-ZÀ-Ý].*[.]$/u);
  });

  it('keeps the first of repeated fields and refuses too many fields', async () => {
    const result = await readForm(urlencoded('email=a%40b.fr&email=c%40d.fr&password=x'), schema, { siteOrigin: SITE });
    expect(result).toMatchObject({ ok: true, data: { email: 'a@b.fr' } });
    const many = Array.from({ length: 60 }, (_, i) => `f${i}=x`).join('&');
    expect(await readForm(urlencoded(many), schema, { siteOrigin: SITE })).toMatchObject({ ok: false, status: 413 });
  });
});

describe('helpers', () => {
  it('publicValues drops every secret-looking field', () => {
    expect(publicValues({ email: 'a', password: 'x', current_password: 'y', new_password: 'z', token: 't', code: 'c', name: 'n' })).toEqual({
      email: 'a',
      name: 'n',
    });
    // A postal code is refilled like the rest of an address; a gift code is not.
    expect(publicValues({ postal_code: '44000', gift_code: 'g' })).toEqual({ postal_code: '44000' });
  });

  it('failWith sets the status, its reason phrase and Retry-After', () => {
    // Astro's page answer starts as 200 "OK": a refusal must not keep that phrase ("413 OK").
    const response = { status: 200, statusText: 'OK', headers: new Headers() };
    failWith(response, { status: 429, message: 'Trop de tentatives.', retryAfterSeconds: 59.2 });
    expect([response.status, response.statusText]).toEqual([429, 'Too Many Requests']);
    expect(response.headers.get('Retry-After')).toBe('60');
    failWith(response, { status: 413, message: 'Trop volumineux.' });
    expect([response.status, response.statusText]).toEqual([413, 'Payload Too Large']);
    failWith(response, { status: 200 as never, message: 'Pas un refus.' });
    expect([response.status, response.statusText]).toEqual([400, 'Bad Request']);
  });

  it('isFormPost is true for POST only', () => {
    expect(isFormPost(post(null))).toBe(true);
    expect(isFormPost(new Request(`${SITE}/login`))).toBe(false);
  });
});
