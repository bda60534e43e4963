import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config';
import { MAX_BODY_BYTES, MAX_SKEW_SECONDS, type RelayEvent, verifyGenericWebhook, verifyMailgunWebhook } from './relay-webhooks';

const SECRET = '5f0c2a9e7b3d4c1a8e6f0b2d9c7a5e3f';
const MAILGUN_KEY = 'key-test-0123456789abcdef0123456789abcdef';
const NOW = new Date('2026-11-28T09:30:00Z');
const T = Math.floor(NOW.getTime() / 1000);

const hmac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('hex');

/** Signed as docs/newsletter-webhooks.md tells a relay to sign: computed here, not with the module's code. */
const signGeneric = (raw: string, { secret = SECRET, t = T } = {}) => `t=${t},v1=${hmac(secret, `${t}.${raw}`)}`;
const headersFor = (signature: string | null) => new Headers(signature === null ? {} : { 'X-Contrechamp-Signature': signature });
const verifyGeneric = (raw: string, signature: string | null = signGeneric(raw), now = NOW) => verifyGenericWebhook(raw, headersFor(signature), SECRET, now);

const event = (over: Record<string, unknown> = {}) => ({
  id: 'evt-1',
  type: 'bounce',
  severity: 'permanent',
  recipient: 'Lectrice@Exemple.FR',
  message_id: '<0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e01@contrechamp.media>',
  timestamp: '2026-11-28T09:29:00+01:00',
  description: '550 5.1.1',
  ...over,
});
const batch = (...events: unknown[]) => JSON.stringify({ events });

const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/mailgun');
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.json`), 'utf8');

/** A published sample with its signature block made again, as Mailgun would, with the test key. */
function mailgunBody(name: string, { key = MAILGUN_KEY, timestamp = String(T), token = 'b7e3f1c9d2a8' + '0'.repeat(38) } = {}) {
  const body = JSON.parse(fixture(name)) as Record<string, unknown>;
  body.signature = { timestamp, token, signature: hmac(key, timestamp + token) };
  return JSON.stringify(body);
}
const verifyMailgun = (raw: string, now = NOW) => verifyMailgunWebhook(raw, MAILGUN_KEY, now);

describe('the generic relay webhook', () => {
  it('turns a signed batch into events: kinds, lower-cased address, bare Message-ID, date, detail', () => {
    const raw = batch(
      event(),
      event({ id: 'evt-2', severity: 'temporary', description: '452 4.2.2 Mailbox full' }),
      event({ id: 'evt-3', type: 'complaint', severity: undefined, description: undefined, message_id: undefined }),
      event({ id: 'evt-4', type: 'unsubscribe', severity: undefined, description: 'List-Unsubscribe' }),
    );
    expect(verifyGeneric(raw)).toEqual({
      ok: true,
      events: [
        {
          provider: 'generic',
          eventId: 'evt-1',
          kind: 'hard_bounce',
          email: 'lectrice@exemple.fr',
          messageId: '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e01@contrechamp.media',
          at: new Date('2026-11-28T08:29:00Z'),
          detail: '550 5.1.1',
        },
        {
          provider: 'generic',
          eventId: 'evt-2',
          kind: 'soft_bounce',
          email: 'lectrice@exemple.fr',
          messageId: '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e01@contrechamp.media',
          at: new Date('2026-11-28T08:29:00Z'),
          detail: '452 4.2.2 Mailbox full',
        },
        { provider: 'generic', eventId: 'evt-3', kind: 'complaint', email: 'lectrice@exemple.fr', at: new Date('2026-11-28T08:29:00Z'), detail: 'complaint' },
        {
          provider: 'generic',
          eventId: 'evt-4',
          kind: 'unsubscribe',
          email: 'lectrice@exemple.fr',
          messageId: '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e01@contrechamp.media',
          at: new Date('2026-11-28T08:29:00Z'),
          detail: 'List-Unsubscribe',
        },
      ],
    });
  });

  it('never keeps a whole bounce text: addresses are masked, one line, 100 characters at most', () => {
    const text = `550 5.1.1 <Lectrice@Exemple.FR>: Recipient address rejected:\n${'user unknown in virtual mailbox table '.repeat(5)}`;
    const result = verifyGeneric(batch(event({ description: text })));
    if (!result.ok) throw new Error(result.message);
    const detail = result.events[0]!.detail;
    expect(detail).toMatch(/^550 5\.1\.1 <\[email\]>: Recipient address rejected: user unknown/);
    expect(detail).not.toMatch(/exemple/i);
    expect(detail).toHaveLength(100);
  });

  it('refuses a request without the signature header (401)', () => {
    expect(verifyGeneric(batch(event()), null)).toEqual({
      ok: false,
      status: 401,
      message: 'Notification non signée : l’en-tête X-Contrechamp-Signature est requis.',
    });
  });

  it('refuses a tampered body, another key, another timestamp or a malformed header (401, « Signature invalide. »)', () => {
    const raw = batch(event());
    const refused = { ok: false, status: 401, message: 'Signature invalide.' };
    expect(verifyGeneric(batch(event({ type: 'complaint' })), signGeneric(raw))).toEqual(refused);
    expect(verifyGeneric(raw, signGeneric(raw, { secret: 'another-secret-0123456789abcdef' }))).toEqual(refused);
    expect(verifyGeneric(raw, signGeneric(raw).replace(`t=${T}`, `t=${T + 1}`))).toEqual(refused);
    expect(verifyGeneric(raw, `v1=${hmac(SECRET, `${T}.${raw}`)}`)).toEqual(refused);
    expect(verifyGeneric(raw, `t=${T},v1=zz`)).toEqual(refused);
    expect(verifyGeneric(raw, `t=${T},sha256=${hmac(SECRET, `${T}.${raw}`)}`)).toEqual(refused);
  });

  it('refuses a timestamp more than five minutes away, in either direction (401), and accepts one just inside', () => {
    const raw = batch(event());
    const at = (seconds: number) => verifyGeneric(raw, signGeneric(raw), new Date(NOW.getTime() + seconds * 1000));
    expect(at(MAX_SKEW_SECONDS + 1)).toMatchObject({ ok: false, status: 401, message: expect.stringContaining('périmée') });
    expect(at(-(MAX_SKEW_SECONDS + 1))).toMatchObject({ ok: false, status: 401, message: expect.stringContaining('périmée') });
    expect(at(MAX_SKEW_SECONDS - 1)).toMatchObject({ ok: true });
  });

  it('accepts one matching signature among several, while the shared secret is rotated', () => {
    const raw = batch(event());
    const old = hmac('the-previous-secret-0123456789ab', `${T}.${raw}`);
    expect(verifyGeneric(raw, `t=${T},v1=${old},v1=${hmac(SECRET, `${T}.${raw}`)}`)).toMatchObject({ ok: true });
  });

  it('refuses malformed bodies with a French message naming the field (400)', () => {
    const refusal = (raw: string) => verifyGeneric(raw);
    expect(refusal('{"events": [')).toEqual({ ok: false, status: 400, message: 'Notification illisible : JSON invalide.' });
    expect(refusal('{}')).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/^Champ « events » : /) });
    expect(refusal(batch(event({ type: 'opened' })))).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/^Champ « events\.0\.type » : /),
    });
    expect(refusal(batch(event(), event({ severity: undefined })))).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/^Champ « events\.1\.severity » : /),
    });
    expect(refusal(batch(event({ recipient: 'pas une adresse' })))).toEqual({
      ok: false,
      status: 400,
      message: 'Champ « events.0.recipient » : adresse électronique invalide.',
    });
    expect(refusal(batch(event({ timestamp: '28/11/2026' })))).toEqual({
      ok: false,
      status: 400,
      message: 'Champ « events.0.timestamp » : date ISO 8601 attendue (par exemple 2026-11-28T09:30:00Z).',
    });
    expect(refusal(batch(event({ id: '' })))).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/^Champ « events\.0\.id » : /) });
  });

  it('takes at most 1000 events and 1 MB', () => {
    const events = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `e${i}`, type: 'complaint', recipient: 'a@b.fr', timestamp: '2026-11-28T09:00:00Z' }));
    const full = JSON.stringify({ events: events(1000) });
    expect(verifyGeneric(full)).toMatchObject({ ok: true, events: { length: 1000 } });
    expect(verifyGeneric(JSON.stringify({ events: events(1001) }))).toEqual({
      ok: false,
      status: 400,
      message: 'Champ « events » : au plus 1000 événements par notification.',
    });
    const huge = batch(event({ description: 'x'.repeat(MAX_BODY_BYTES.generic) }));
    expect(verifyGeneric(huge)).toEqual({ ok: false, status: 400, message: 'Notification trop volumineuse (au plus 1 Mo).' });
  });
});

describe('the Mailgun webhook, on the samples Mailgun publishes', () => {
  it.each<[string, Omit<RelayEvent, 'provider'>]>([
    [
      'failed-permanent',
      {
        eventId: 'pl271FzxTTmGRW8Uj3dUWw',
        kind: 'hard_bounce',
        email: 'slava@mailgun.com',
        messageId: '20180622211249.1.2A6098970A380E12@example.org',
        at: new Date(1529701969818),
        detail: '605 (suppress-bounce)',
      },
    ],
    [
      'failed-permanent-delayed-bounce',
      {
        eventId: 'ZDMqRgjLTDi6rQcy7K60aA',
        kind: 'hard_bounce',
        email: 'christest123@test.com',
        messageId: '20221019211537.93011d31ea99c5a8@test.com',
        at: new Date(1666214138404),
        detail: '550 5.1.1 (generic)',
      },
    ],
    [
      'complained',
      {
        eventId: 'ncV2XwymRUKbPek_MIM-Gw',
        kind: 'complaint',
        email: 'foo@example.com',
        messageId: '20130718032413.263EE2E0926@example.com',
        at: new Date(1377214260049),
        detail: 'complained',
      },
    ],
    [
      'unsubscribed',
      {
        eventId: 'W3X4JOhFT-OZidZGKKr9iA',
        kind: 'unsubscribe',
        email: 'recipient@example.com',
        messageId: '20130822232216.13966.79700@samples.mailgun.org',
        at: new Date(1377213791421),
        detail: 'unsubscribed',
      },
    ],
  ])('%s', (name, expected) => {
    const result = verifyMailgun(mailgunBody(name));
    expect(result).toEqual({ ok: true, events: [{ provider: 'mailgun', ...expected }] });
  });

  it.each(['failed-temporary', 'delivered', 'opened', 'clicked'])(
    'accepts %s and ignores it: Mailgun retries a temporary failure itself; opens and clicks are never tracked',
    (name) => {
      expect(verifyMailgun(mailgunBody(name))).toEqual({ ok: true, events: [] });
    },
  );

  it('refuses the samples under the signature they were published with (another key)', () => {
    expect(verifyMailgun(fixture('failed-permanent'), new Date(1529006854 * 1000))).toEqual({ ok: false, status: 401, message: 'Signature invalide.' });
  });

  it('refuses another key, a changed token or timestamp, or no signature block (401)', () => {
    const refused = { ok: false, status: 401, message: 'Signature invalide.' };
    expect(verifyMailgun(mailgunBody('complained', { key: 'key-another-0123456789abcdef' }))).toEqual(refused);
    const body = JSON.parse(mailgunBody('complained')) as { signature: { token: string; timestamp: string } };
    expect(verifyMailgun(JSON.stringify({ ...body, signature: { ...body.signature, token: `${body.signature.token}x` } }))).toEqual(refused);
    expect(verifyMailgun(JSON.stringify({ ...body, signature: { ...body.signature, timestamp: String(T - 1) } }))).toEqual(refused);
    const { signature: _, ...unsigned } = body;
    expect(verifyMailgun(JSON.stringify(unsigned))).toMatchObject({ ok: false, status: 401, message: expect.stringContaining('non signée') });
  });

  it('refuses a signature more than five minutes old or ahead (401): a captured token cannot be replayed', () => {
    expect(verifyMailgun(mailgunBody('complained', { timestamp: String(T - MAX_SKEW_SECONDS - 1) }))).toMatchObject({
      ok: false,
      status: 401,
      message: expect.stringContaining('périmée'),
    });
    expect(verifyMailgun(mailgunBody('complained', { timestamp: String(T + MAX_SKEW_SECONDS + 1) }))).toMatchObject({ ok: false, status: 401 });
    expect(verifyMailgun(mailgunBody('complained', { timestamp: String(T - MAX_SKEW_SECONDS + 1) }))).toMatchObject({ ok: true });
  });

  it('refuses malformed bodies with a French message (400)', () => {
    expect(verifyMailgun('<xml/>')).toEqual({ ok: false, status: 400, message: 'Notification illisible : JSON invalide.' });
    const resigned = (edit: (data: Record<string, unknown>) => void) => {
      const body = JSON.parse(mailgunBody('failed-permanent')) as { 'event-data': Record<string, unknown> };
      edit(body['event-data']);
      return verifyMailgun(JSON.stringify(body));
    };
    expect(resigned((data) => delete data.severity)).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/^Champ « event-data\.severity » : /),
    });
    expect(resigned((data) => delete data.recipient)).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/^Champ « event-data\.recipient » : /),
    });
    expect(resigned((data) => delete data.event)).toMatchObject({ ok: false, status: 400, message: expect.stringMatching(/^Champ « event-data\.event » : /) });
  });

  it('refuses a body over 256 KB (400)', () => {
    const body = JSON.parse(mailgunBody('delivered')) as Record<string, unknown>;
    body.padding = 'x'.repeat(MAX_BODY_BYTES.mailgun);
    expect(verifyMailgun(JSON.stringify(body))).toEqual({ ok: false, status: 400, message: 'Notification trop volumineuse (au plus 256 Ko).' });
  });
});

describe('the webhook keys in the configuration', () => {
  it('publishes a demo key for the generic webhook in demo mode only; Mailgun has none unless configured', () => {
    expect(loadConfig({}).newsletter.webhooks).toEqual({ generic: 'demo-relay-secret', mailgun: undefined });
    expect(loadConfig({ SITE_URL: 'https://contrechamp.media', PAYMENT_PROVIDER: 'simulated' }).newsletter.webhooks).toEqual({
      generic: undefined,
      mailgun: undefined,
    });
    expect(loadConfig({ NEWSLETTER_WEBHOOK_SECRET: SECRET, MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY }).newsletter.webhooks).toEqual({
      generic: SECRET,
      mailgun: MAILGUN_KEY,
    });
    expect(() => loadConfig({ NEWSLETTER_WEBHOOK_SECRET: 'changeme' })).toThrow(/NEWSLETTER_WEBHOOK_SECRET est trop faible/);
  });
});
