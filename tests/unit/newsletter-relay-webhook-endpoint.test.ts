/**
 * POST /api/newsletter/webhooks/{provider}, with test doubles for the process's services and the
 * suppression service: routing, keys, body limits, answers and what reaches applyRelayEvent.
 * (Here rather than beside the code: nothing in src/server may import a page.)
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIContext } from 'astro';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POST } from '../../src/pages/api/newsletter/webhooks/[provider]';
import { log } from '../../src/server/core/log';
import { MAX_BODY_BYTES, type RelayEvent } from '../../src/server/newsletter/relay-webhooks';

const relay = vi.hoisted(() => ({
  events: [] as RelayEvent[],
  answer: 'applied' as 'applied' | 'duplicate' | 'unknown',
  keys: {} as { generic?: string; mailgun?: string },
}));
vi.mock('../../src/server/newsletter/suppression', () => ({
  applyRelayEvent: async (_deps: unknown, event: RelayEvent) => {
    relay.events.push(event);
    return relay.answer;
  },
}));
vi.mock('../../src/server/runtime', () => ({ services: async () => ({ clock: { now: () => new Date('2026-11-28T09:30:00Z') } }) }));
vi.mock('../../src/server/core/config', async (original) => ({
  ...(await original<typeof import('../../src/server/core/config')>()),
  config: () => ({ newsletter: { webhooks: relay.keys } }),
}));

const SECRET = '5f0c2a9e7b3d4c1a8e6f0b2d9c7a5e3f';
const MAILGUN_KEY = 'key-test-0123456789abcdef0123456789abcdef';
const T = Math.floor(new Date('2026-11-28T09:30:00Z').getTime() / 1000);
const hmac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('hex');
const signGeneric = (raw: string, secret = SECRET) => `t=${T},v1=${hmac(secret, `${T}.${raw}`)}`;
const event = (over: Record<string, unknown> = {}) => ({
  id: 'evt-1',
  type: 'bounce',
  severity: 'permanent',
  recipient: 'Lectrice@Exemple.FR',
  timestamp: '2026-11-28T09:29:00Z',
  description: '550 5.1.1',
  ...over,
});
const batch = (...events: unknown[]) => JSON.stringify({ events });

function mailgunBody(name: string) {
  const body = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/mailgun', `${name}.json`), 'utf8')) as Record<string, unknown>;
  const token = 'b7e3f1c9d2a8' + '0'.repeat(38);
  body.signature = { timestamp: String(T), token, signature: hmac(MAILGUN_KEY, `${T}${token}`) };
  return JSON.stringify(body);
}

const post = async (provider: string, body: string, headers: Record<string, string> = {}) => {
  const request = new Request(`https://contrechamp.example/api/newsletter/webhooks/${provider}`, { method: 'POST', body, headers });
  const response = await POST({ params: { provider }, request } as unknown as APIContext);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('POST /api/newsletter/webhooks/{provider}', () => {
  let warnings: string[];
  beforeEach(() => {
    relay.events = [];
    relay.answer = 'applied';
    relay.keys = { generic: SECRET, mailgun: MAILGUN_KEY };
    warnings = [];
    vi.spyOn(log, 'warn').mockImplementation((message, fields) => void warnings.push(JSON.stringify({ message, fields })));
  });
  afterEach(() => vi.restoreAllMocks());

  it('applies each verified event and counts those applied', async () => {
    const raw = batch(event(), event({ id: 'evt-2', type: 'complaint' }));
    expect(await post('generic', raw, { 'X-Contrechamp-Signature': signGeneric(raw) })).toEqual({ status: 200, body: { ok: true, applied: 2 } });
    expect(relay.events.map((e) => [e.eventId, e.kind, e.email])).toEqual([
      ['evt-1', 'hard_bounce', 'lectrice@exemple.fr'],
      ['evt-2', 'complaint', 'lectrice@exemple.fr'],
    ]);
    relay.answer = 'duplicate';
    expect(await post('mailgun', mailgunBody('complained'))).toEqual({ status: 200, body: { ok: true, applied: 0 } });
    expect(relay.events).toHaveLength(3);
  });

  it('answers 401 « Signature invalide. » to a bad signature, applies nothing and logs no address', async () => {
    const raw = batch(event());
    const { status, body } = await post('generic', raw, { 'X-Contrechamp-Signature': signGeneric(raw, 'another-secret-0123456789abcdef') });
    expect({ status, message: body.message }).toEqual({ status: 401, message: 'Signature invalide.' });
    expect(relay.events).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings.join()).not.toMatch(/exemple/i);
  });

  it('answers 400 in French to a malformed body', async () => {
    const raw = '{"events": nope}';
    const { status, body } = await post('generic', raw, { 'X-Contrechamp-Signature': signGeneric(raw) });
    expect({ status, message: body.message }).toEqual({ status: 400, message: 'Notification illisible : JSON invalide.' });
  });

  it('does not exist for an unknown provider or one without a key (404)', async () => {
    expect((await post('sendgrid', '{}')).status).toBe(404);
    relay.keys = { generic: SECRET };
    expect((await post('mailgun', mailgunBody('complained'))).status).toBe(404);
    expect(relay.events).toEqual([]);
  });

  it('stops reading a body over the limit (413)', async () => {
    expect((await post('mailgun', 'x'.repeat(MAX_BODY_BYTES.mailgun + 1))).status).toBe(413);
  });
});
