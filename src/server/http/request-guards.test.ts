import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkOrigin, clientKey, rateLimitSubject, readFormBody, readJsonBody, requireJson } from './request-guards';

const SITE = 'https://contrechamp.media';
const ORIGIN_REFUSED = { status: 403, message: 'Requête refusée : origine non autorisée.' };
const JSON_REQUIRED = { status: 415, message: 'Le corps de la requête doit être du JSON (application/json).' };

function request(method: string, headers: Record<string, string>, body?: BodyInit | null): Request {
  return new Request(`${SITE}/api/x`, { method, headers, body: body ?? null, duplex: 'half' } as RequestInit);
}

/** A body of raw bytes: unlike a string body, it adds no Content-Type of its own. */
const bytes = (text: string) => new TextEncoder().encode(text);

describe('checkOrigin', () => {
  const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json'];
  const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'];

  it('lets safe methods through, whatever their origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(checkOrigin(request(method, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), SITE)).toBeNull();
    }
  });

  it('accepts state changes from the site itself', () => {
    for (const method of STATE_CHANGING) {
      for (const type of CONTENT_TYPES) {
        expect(checkOrigin(request(method, { origin: SITE, 'content-type': type }), SITE)).toBeNull();
      }
      expect(checkOrigin(request(method, { 'sec-fetch-site': 'same-origin' }), SITE)).toBeNull();
    }
    // The configured origin may be written with a path or trailing slash.
    expect(checkOrigin(request('POST', { origin: SITE }), `${SITE}/`)).toBeNull();
    expect(checkOrigin(request('POST', { origin: 'http://localhost:4321' }), 'http://localhost:4321/base/')).toBeNull();
  });

  it.each(CONTENT_TYPES)('refuses a CSRF attempt with %s from a foreign origin, a null origin or cross-site fetch metadata', (type) => {
    for (const method of STATE_CHANGING) {
      const attempts: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, // Origin wins
        { origin: 'null' },
        { origin: 'null', 'sec-fetch-site': 'same-origin' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'none' },
        {},
        { origin: 'http://contrechamp.media' }, // other scheme
        { origin: 'https://contrechamp.media:8443' }, // other port
        { origin: 'https://www.contrechamp.media' }, // subdomain
        { origin: 'https://contrechamp.media.evil.example' },
        { origin: 'https://contrechamp.media/' },
        { origin: 'HTTPS://CONTRECHAMP.MEDIA' },
        { origin: `${SITE}, https://evil.example` },
        { origin: '' },
      ];
      for (const headers of attempts) {
        expect(checkOrigin(request(method, { ...headers, 'content-type': type }), SITE), JSON.stringify(headers)).toEqual(ORIGIN_REFUSED);
      }
    }
  });

  it('refuses unusual methods too', () => {
    expect(checkOrigin(request('purge', { origin: 'https://evil.example' }), SITE)).toEqual(ORIGIN_REFUSED);
    expect(checkOrigin(request('CONNECTX', {}), SITE)).toEqual(ORIGIN_REFUSED);
  });

  it('refuses everything if the configured origin is unusable, and never throws', () => {
    expect(checkOrigin(request('POST', { origin: SITE }), 'pas une adresse')).toEqual(ORIGIN_REFUSED);
    expect(checkOrigin(request('POST', { origin: 'null' }), 'file:///tmp')).toEqual(ORIGIN_REFUSED);
    expect(checkOrigin({} as Request, SITE)).toEqual(ORIGIN_REFUSED);
  });
});

describe('requireJson', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;Charset=UTF-8', 'application/json;charset="utf-8"', 'application/json;'])(
    'accepts %s',
    (type) => expect(requireJson(request('POST', { 'content-type': type }, '{}'))).toBeNull(),
  );

  it.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json-patch+json',
    'application/vnd.api+json',
    'text/json',
    'application/jsonx',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-8; boundary=x',
    'application/json, text/plain',
    'text/plain; application/json',
    'application/json; charset',
  ])('refuses %s', (type) => {
    expect(requireJson(request('POST', { 'content-type': type }, '{}'))).toEqual(JSON_REQUIRED);
  });

  it('refuses a missing content type', () => {
    const req = request('POST', {}, bytes('{}'));
    expect(req.headers.has('content-type')).toBe(false);
    expect(requireJson(req)).toEqual(JSON_REQUIRED);
  });
});

describe('readJsonBody', () => {
  const schema = z.object({
    email: z.email('Adresse e-mail invalide.'),
    rememberMe: z.boolean().default(false),
    age: z.number().int().optional(),
  });
  const json = (body: BodyInit | null, headers: Record<string, string> = {}) => request('POST', { 'content-type': 'application/json', ...headers }, body);

  it('parses and validates a JSON body', async () => {
    const result = await readJsonBody(json('{"email":"lea@example.org"}'), schema);
    expect(result).toEqual({ ok: true, data: { email: 'lea@example.org', rememberMe: false } });
  });

  it('refuses other content types with 415, before reading', async () => {
    const req = request('POST', { 'content-type': 'text/plain' }, '{"email":"lea@example.org"}');
    expect(await readJsonBody(req, schema)).toEqual({ ok: false, ...JSON_REQUIRED });
    expect(req.bodyUsed).toBe(false);
  });

  it('refuses invalid JSON, invalid UTF-8 and an empty body with 400', async () => {
    const invalid = { ok: false, status: 400, message: 'JSON invalide.' };
    expect(await readJsonBody(json('{"email":'), schema)).toEqual(invalid);
    expect(await readJsonBody(json('{email: "a"}'), schema)).toEqual(invalid);
    expect(await readJsonBody(json(''), schema)).toEqual(invalid);
    expect(await readJsonBody(json(null), schema)).toEqual(invalid);
    expect(await readJsonBody(json(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])), schema)).toEqual(invalid);
  });

  it('accepts a UTF-8 byte-order mark and accented text', async () => {
    const result = await readJsonBody(json(bytes('\ufeff{"email":"léa@exemple.fr"}')), z.object({ email: z.string() }));
    expect(result).toEqual({ ok: true, data: { email: 'léa@exemple.fr' } });
  });

  it('reports the first schema issue in French, naming the field', async () => {
    expect(await readJsonBody(json('{"email":"pas-une-adresse"}'), schema)).toEqual({
      ok: false,
      status: 400,
      message: 'Champ « email » : adresse e-mail invalide.',
      field: 'email',
    });
    const wrongType = await readJsonBody(json('{"email":"lea@example.org","age":"douze"}'), schema);
    expect(wrongType).toMatchObject({ ok: false, status: 400, field: 'age' });
    if (!wrongType.ok) expect(wrongType.message).toBe('Champ « age » : entrée invalide : nombre attendu, chaîne de caractères reçu.');
    const notObject = await readJsonBody(json('[1,2]'), schema);
    expect(notObject).toMatchObject({ ok: false, status: 400 });
    if (!notObject.ok) {
      expect(notObject.message).toBe('Entrée invalide : objet attendu, tableau reçu.');
      expect(notObject.field).toBeUndefined();
    }
  });

  it('refuses early on a declared Content-Length above the limit, without reading', async () => {
    let pulled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled = true;
          controller.enqueue(bytes('{}'));
          controller.close();
        },
      },
      { highWaterMark: 0 }, // pulled only when read
    );
    const req = json(stream, { 'content-length': String(16 * 1024 + 1) });
    expect(await readJsonBody(req, schema)).toEqual({ ok: false, status: 413, message: 'Corps de requête trop volumineux.' });
    expect(pulled).toBe(false);
  });

  it('counts bytes on the stream: an endless body without Content-Length is cut at the limit', async () => {
    let sent = 0;
    let cancelled = false;
    // "Endless" as far as the reader can tell: it ends after 1 MiB, so that a regression fails
    // this test instead of hanging the run.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024) return controller.close();
        sent += 1024;
        controller.enqueue(new Uint8Array(1024).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const req = json(endless);
    expect(req.headers.has('content-length')).toBe(false);
    expect(await readJsonBody(req, schema, { maxBytes: 4096 })).toEqual({ ok: false, status: 413, message: 'Corps de requête trop volumineux.' });
    expect(sent).toBeLessThan(64 * 1024);
    expect(cancelled).toBe(true);
  });

  it('does not trust a Content-Length that lies low', async () => {
    const big = `{"email":"lea@example.org","pad":"${'x'.repeat(20_000)}"}`;
    const req = json(bytes(big), { 'content-length': '20' });
    expect(await readJsonBody(req, schema)).toMatchObject({ ok: false, status: 413 });
  });

  it('counts bytes, not characters', async () => {
    const text = `{"email":"lea@example.org","x":"${'é'.repeat(600)}"}`; // ~1.2 KB for ~630 characters
    expect(await readJsonBody(json(text), schema, { maxBytes: 1000 })).toMatchObject({ ok: false, status: 413 });
    expect(await readJsonBody(json(text), schema, { maxBytes: 2000 })).toMatchObject({ ok: true });
  });

  it('accepts a body of exactly maxBytes', async () => {
    const body = '{"email":"lea@example.org"}';
    expect(await readJsonBody(json(body), schema, { maxBytes: body.length })).toMatchObject({ ok: true });
    expect(await readJsonBody(json(body), schema, { maxBytes: body.length - 1 })).toMatchObject({ ok: false, status: 413 });
  });

  it('never throws: a broken stream or an already read body is a 400', async () => {
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connexion coupée'));
      },
    });
    expect(await readJsonBody(json(broken), schema)).toEqual({ ok: false, status: 400, message: 'Corps de requête illisible.' });
    const used = json('{"email":"lea@example.org"}');
    await used.text();
    expect(await readJsonBody(used, schema)).toEqual({ ok: false, status: 400, message: 'Corps de requête illisible.' });
  });
});

describe('readFormBody', () => {
  const form = (body: BodyInit | null, type = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) =>
    request('POST', { 'content-type': type, ...headers }, body);

  it('parses an urlencoded form', async () => {
    const result = await readFormBody(form('nom=L%C3%A9a&message=Bonjour+%C3%A0+vous&x=1&x=2'));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.data.get('nom')).toBe('Léa');
      expect(result.data.get('message')).toBe('Bonjour à vous');
      expect(result.data.getAll('x')).toEqual(['1', '2']);
    }
    expect(await readFormBody(form('a=1', 'application/x-www-form-urlencoded; charset=UTF-8'))).toMatchObject({ ok: true });
  });

  it.each(['multipart/form-data; boundary=x', 'text/plain', 'application/json', 'application/x-www-form-urlencoded; charset=latin1'])(
    'refuses %s with 415',
    async (type) => {
      expect(await readFormBody(form('a=1', type))).toEqual({
        ok: false,
        status: 415,
        message: 'Le corps de la requête doit être un formulaire (application/x-www-form-urlencoded).',
      });
    },
  );

  it('refuses a missing content type with 415', async () => {
    expect(await readFormBody(request('POST', {}, bytes('a=1')))).toMatchObject({ ok: false, status: 415 });
  });

  it('enforces the size limit on the stream and on Content-Length', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024) return controller.close();
        sent += 1024;
        controller.enqueue(bytes('a='.padEnd(1024, 'b')));
      },
    });
    expect(await readFormBody(form(endless), { maxBytes: 2048 })).toEqual({ ok: false, status: 413, message: 'Corps de requête trop volumineux.' });
    expect(sent).toBeLessThan(64 * 1024);
    expect(await readFormBody(form('a=1', undefined, { 'content-length': '999999' }))).toMatchObject({ ok: false, status: 413 });
    expect(await readFormBody(form(`a=${'b'.repeat(70 * 1024)}`))).toMatchObject({ ok: false, status: 413 });
    expect(await readFormBody(form(`a=${'b'.repeat(60 * 1024)}`))).toMatchObject({ ok: true });
  });

  it('refuses invalid UTF-8 with 400', async () => {
    expect(await readFormBody(form(new Uint8Array([0x61, 0x3d, 0xff])))).toMatchObject({ ok: false, status: 400 });
  });
});

describe('clientKey', () => {
  const req = request('POST', { 'x-forwarded-for': '9.9.9.9' });

  it('is a keyed hash: never the address, stable within the process', () => {
    const key = clientKey(req, '203.0.113.7');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain('203.0.113.7');
    expect(clientKey(req, '203.0.113.7')).toBe(key);
    expect(clientKey(req, '203.0.113.8')).not.toBe(key);
    // Keyed with a secret: not the plain SHA-256 of the address, so not reversible by enumerating IPv4.
    expect(key).not.toBe(createHash('sha256').update('203.0.113.7').digest('hex'));
    expect(clientKey(req, '203.0.113.7', 'autre secret')).not.toBe(key);
  });

  it('ignores forwarded headers', () => {
    const plain = request('POST', {});
    expect(clientKey(req, '203.0.113.7')).toBe(clientKey(plain, '203.0.113.7'));
  });

  it('groups an IPv6 /64 and IPv4-mapped addresses', () => {
    expect(clientKey(req, '2001:db8:1:2::1')).toBe(clientKey(req, '2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(clientKey(req, '2001:db8:1:2::1')).not.toBe(clientKey(req, '2001:db8:1:3::1'));
    expect(clientKey(req, '::ffff:203.0.113.7')).toBe(clientKey(req, '203.0.113.7'));
    expect(rateLimitSubject('2001:DB8::1')).toBe('2001:0db8:0000:0000::/64');
    expect(rateLimitSubject('[2001:db8:a:b:c:d:e:f]')).toBe('2001:0db8:000a:000b::/64');
    expect(rateLimitSubject('fe80::1%eth0')).toBe('fe80:0000:0000:0000::/64');
    expect(rateLimitSubject('::1')).toBe('0000:0000:0000:0000::/64');
    expect(rateLimitSubject(undefined)).toBe('unknown');
  });

  it('property: different IPv4 addresses never share a key', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), (a, b) => {
        fc.pre(a !== b);
        expect(clientKey(req, a)).not.toBe(clientKey(req, b));
      }),
    );
  });
});
