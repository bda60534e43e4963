/**
 * POST /api/payments/webhooks/{provider} through the middleware, with the real Stripe adapter and
 * a stand-in for the process's services: every refusal is JSON with a French message and a status
 * line that says its reason, and a fault of ours (the database down) is a 500 in JSON, never the
 * HTML error page. (Here rather than beside the code: a test file in src/pages would be a route.)
 */
import type { APIContext, MiddlewareNext } from 'astro';
import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onRequest } from '../../src/middleware';
import { ALL, POST } from '../../src/pages/api/payments/webhooks/[provider]';
import { log } from '../../src/server/core/log';
import { createStripeProvider } from '../../src/server/payments/stripe';

const SECRET = 'whsec_test_endpoint_0123456789';
const SITE = 'https://contrechamp.example';
const signer = new Stripe('sk_test_signer');

// The process's services: the real Stripe adapter, and a database that is down (any query throws).
vi.mock('../../src/server/runtime', () => ({
  services: async () => {
    const siteUrl = new URL('https://contrechamp.example');
    const down = new Proxy(
      {},
      {
        get: () => {
          throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        },
      },
    );
    return {
      siteUrl,
      db: down,
      clock: { now: () => new Date() },
      jobs: { wake: () => {} },
      payments: createStripeProvider({ secretKey: 'sk_test_x', webhookSecret: 'whsec_test_endpoint_0123456789', siteUrl }),
    };
  },
}));

const event = (over: Record<string, unknown> = {}) => ({
  id: 'evt_1SfC01LkdIwHu7ixdele0001',
  object: 'event',
  type: 'customer.subscription.deleted',
  data: { object: { id: 'sub_1', object: 'subscription' } },
  ...over,
});

async function post(body: string, { signed = true, provider = 'stripe', method = 'POST' } = {}) {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (signed) headers.set('stripe-signature', signer.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }));
  const url = new URL(`/api/payments/webhooks/${provider}`, SITE);
  const request = new Request(url, { method, headers, ...(method === 'GET' ? {} : { body }) });
  const context = { isPrerendered: false, url, request, params: { provider } } as unknown as APIContext;
  const route = method === 'POST' ? POST : ALL;
  const answer = (await onRequest(context, (async () => route(context)) as MiddlewareNext)) as Response;
  return {
    status: `${answer.status} ${answer.statusText}`,
    type: answer.headers.get('content-type'),
    allow: answer.headers.get('allow'),
    body: (await answer.json()) as Record<string, unknown>,
  };
}

let errors: string[];
beforeEach(() => {
  errors = [];
  vi.spyOn(log, 'error').mockImplementation((message) => void errors.push(message));
  vi.spyOn(log, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('POST /api/payments/webhooks/{provider}', () => {
  const unreadable = {
    statusCode: 400,
    statusMessage: 'Bad Request',
    message: 'Notification illisible : ce n’est pas un événement Stripe (identifiant, type ou données manquants).',
  };

  it('answers a correctly signed event without data, or without id, 400 in JSON, before anything is recorded', async () => {
    const withoutData = event();
    delete (withoutData as Partial<typeof withoutData>).data;
    const withoutId = event();
    delete (withoutId as Partial<typeof withoutId>).id;
    for (const body of [withoutData, withoutId, null]) {
      // The database is down: reaching it would be a 500.
      expect(await post(JSON.stringify(body))).toEqual({ status: '400 Bad Request', type: 'application/json; charset=utf-8', allow: null, body: unreadable });
    }
    expect(errors).toEqual([]);
  });

  it('answers a bad signature 400 in JSON', async () => {
    expect(await post(JSON.stringify(event()), { signed: false })).toMatchObject({
      status: '400 Bad Request',
      body: { message: 'Signature de notification invalide.' },
    });
  });

  it('answers a body over its limit 413 Payload Too Large, in JSON', async () => {
    expect(await post(JSON.stringify(event({ padding: 'x'.repeat(300 * 1024) })))).toMatchObject({
      status: '413 Payload Too Large',
      type: 'application/json; charset=utf-8',
      body: { statusCode: 413, statusMessage: 'Payload Too Large', message: 'Corps de requête trop volumineux.' },
    });
  });

  it('answers an unknown provider 404 in JSON', async () => {
    expect(await post(JSON.stringify(event()), { provider: 'paypal' })).toMatchObject({
      status: '404 Not Found',
      body: { statusCode: 404, message: 'Prestataire de paiement inconnu.' },
    });
  });

  it('answers a fault of ours (the database down) 500 in JSON, which Stripe retries, and logs it', async () => {
    expect(await post(JSON.stringify(event()))).toMatchObject({
      status: '500 Internal Server Error',
      type: 'application/json; charset=utf-8',
      body: { statusCode: 500, statusMessage: 'Internal Server Error' },
    });
    expect(errors).toEqual(['unhandled error']);
  });

  it('answers another method 405 in JSON, with Allow', async () => {
    expect(await post('', { method: 'GET' })).toMatchObject({ status: '405 Method Not Allowed', allow: 'POST', body: { statusCode: 405 } });
  });
});
