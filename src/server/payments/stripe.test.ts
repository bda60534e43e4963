import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log';
import { type CheckoutRequest, type PaymentEvent, ProviderError } from './provider';
import { createStripeProvider } from './stripe';

const SECRET = 'whsec_test_contrechamp_0123456789abcdef';
const SITE = new URL('https://contrechamp.example');
const FIXTURES = join(import.meta.dirname, '../../../tests/fixtures/stripe');
const signer = new Stripe('sk_test_fake');

const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.json`), 'utf8');

/** Delivers a body as Stripe would: signed over the exact bytes, with the stripe-signature header. */
function deliver(payload: string, options: { secret?: string; timestamp?: number; body?: string; header?: string | null } = {}) {
  const provider = createStripeProvider({ secretKey: 'sk_test_fake', webhookSecret: SECRET, siteUrl: SITE });
  const header =
    options.header === undefined
      ? signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET, ...(options.timestamp ? { timestamp: options.timestamp } : {}) })
      : options.header;
  const headers = new Headers({ 'content-type': 'application/json' });
  if (header !== null) headers.set('stripe-signature', header);
  return provider.parseWebhook(new TextEncoder().encode(options.body ?? payload), headers);
}

/** The one event a fixture gives (every Stripe event maps to exactly one). */
function eventOf(payload: string): PaymentEvent {
  const result = deliver(payload);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  expect(result.events).toHaveLength(1);
  return result.events[0]!;
}

// The adapter logs what it refuses or fails on; the tests look at those lines rather than print them.
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
  vi.spyOn(log, 'warn').mockImplementation((msg) => void warnings.push(msg));
});
afterEach(() => vi.restoreAllMocks());

const ORDER = '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e01';
const SUB = 'sub_1SfGh2LkdIwHu7ixQm8pZr4c';
/** The site's subscription, in the metadata the site gave the checkout (copied by Stripe onto the subscription and its invoices). */
const SUBSCRIPTION_ID = '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e02';
const at = (iso: string) => new Date(iso);

describe('Stripe webhooks', () => {
  it.each<[string, PaymentEvent]>([
    [
      'checkout.session.completed.payment-card',
      {
        id: 'evt_1SfA01LkdIwHu7ixcard0001',
        type: 'payment.succeeded',
        orderId: ORDER,
        paymentRef: 'pi_3SfA00LkdIwHu7ix0cPay001',
        methodLabel: 'Carte',
        amountCents: 5000,
        currency: 'eur',
      },
    ],
    // A subscription's first payment is known by its invoice: no payment intent in the payload.
    [
      'checkout.session.completed.subscription-card',
      {
        id: 'evt_1SfA02LkdIwHu7ixsubs0001',
        type: 'payment.succeeded',
        orderId: ORDER,
        paymentRef: 'in_1SfA03LkdIwHu7ixInit0001',
        methodLabel: 'Carte',
        subscriptionRef: SUB,
        amountCents: 900,
        currency: 'eur',
      },
    ],
    [
      'checkout.session.completed.subscription-sepa',
      { id: 'evt_1SfA04LkdIwHu7ixsepa0001', type: 'payment.processing', orderId: ORDER, methodLabel: 'Prélèvement SEPA' },
    ],
    [
      'checkout.session.async_payment_succeeded',
      {
        id: 'evt_1SfA06LkdIwHu7ixsepa0002',
        type: 'payment.succeeded',
        orderId: ORDER,
        paymentRef: 'in_1SfA05LkdIwHu7ixInit0002',
        methodLabel: 'Prélèvement SEPA',
        subscriptionRef: SUB,
        amountCents: 900,
        currency: 'eur',
      },
    ],
    [
      'checkout.session.async_payment_failed',
      { id: 'evt_1SfA07LkdIwHu7ixsepa0003', type: 'payment.failed', orderId: ORDER, reason: 'Le prélèvement SEPA a été refusé par votre banque.', final: true },
    ],
    [
      'checkout.session.expired',
      { id: 'evt_1SfA09LkdIwHu7ixexpd0001', type: 'payment.failed', orderId: ORDER, reason: 'La session de paiement a expiré.', final: true },
    ],
    // The period paid is the line's (February), not the invoice's own period (January).
    [
      'invoice.paid.subscription-cycle',
      {
        id: 'evt_1SfB01LkdIwHu7ixrenw0001',
        type: 'renewal.succeeded',
        subscriptionRef: SUB,
        subscriptionId: SUBSCRIPTION_ID,
        invoiceRef: 'in_1SfB02LkdIwHu7ixCycle001',
        paymentRef: 'in_1SfB02LkdIwHu7ixCycle001',
        amountCents: 900,
        periodStart: at('2026-02-01T00:00:00Z'),
        periodEnd: at('2026-03-01T00:00:00Z'),
      },
    ],
    [
      'invoice.paid.subscription-cycle-legacy',
      {
        id: 'evt_1SfB03LkdIwHu7ixrenw0002',
        type: 'renewal.succeeded',
        subscriptionRef: SUB,
        subscriptionId: SUBSCRIPTION_ID,
        invoiceRef: 'in_1SfB04LkdIwHu7ixCycle002',
        paymentRef: 'pi_3SfB05LkdIwHu7ix0cRenew2',
        amountCents: 900,
        periodStart: at('2026-03-01T00:00:00Z'),
        periodEnd: at('2026-04-01T00:00:00Z'),
      },
    ],
    // The first invoice is the Checkout payment, already told by checkout.session.completed.
    ['invoice.paid.subscription-create', { id: 'evt_1SfB05LkdIwHu7ixcrea0001', type: 'ignored', providerType: 'invoice.paid' }],
    [
      'invoice.payment_failed',
      {
        id: 'evt_1SfB06LkdIwHu7ixfail0001',
        type: 'renewal.failed',
        subscriptionRef: SUB,
        subscriptionId: SUBSCRIPTION_ID,
        invoiceRef: 'in_1SfB07LkdIwHu7ixCycle003',
        reason: 'Votre banque a refusé le paiement de l’échéance.',
        nextAttemptAt: at('2026-03-04T00:00:00Z'),
      },
    ],
    [
      'invoice.payment_failed.last-attempt',
      {
        id: 'evt_1SfB08LkdIwHu7ixfail0002',
        type: 'renewal.failed',
        subscriptionRef: SUB,
        subscriptionId: SUBSCRIPTION_ID,
        invoiceRef: 'in_1SfB07LkdIwHu7ixCycle003',
        reason: 'Votre banque a refusé le paiement de l’échéance.',
        nextAttemptAt: null,
      },
    ],
    [
      'customer.subscription.deleted',
      { id: 'evt_1SfC01LkdIwHu7ixdele0001', type: 'subscription.ended', subscriptionRef: SUB, subscriptionId: SUBSCRIPTION_ID },
    ],
    // The order, from the payment intent's metadata copied onto its charge: a refund ahead of its payment is known to be early.
    [
      'charge.refunded',
      { id: 'evt_3SfD01LkdIwHu7ix0refd0001', type: 'refund.succeeded', paymentRef: 'pi_3SfA00LkdIwHu7ix0cPay001', amountCents: 5000, orderId: ORDER },
    ],
    // A partial refund made from the dashboard does not refund the order.
    ['charge.refunded.partial', { id: 'evt_3SfD02LkdIwHu7ix0refd0002', type: 'ignored', providerType: 'charge.refunded' }],
    // The site's refund of a renewal comes back with the reference the order carries.
    ['refund.updated', { id: 'evt_3SfD03LkdIwHu7ix0refu0001', type: 'refund.succeeded', paymentRef: 'in_1SfB02LkdIwHu7ixCycle001', amountCents: 900 }],
    ['refund.created.pending', { id: 'evt_3SfD04LkdIwHu7ix0refc0001', type: 'ignored', providerType: 'refund.created' }],
    [
      'payment_method.attached',
      {
        id: 'evt_1SfE01LkdIwHu7ixpmat0001',
        type: 'payment_method.updated',
        customerRef: 'cus_TkQ3bXv9LmN2pA',
        methodLabel: 'Carte •••• 4444',
        changeRef: 'pm_1SfE01LkdIwHu7ixCard4444',
        method: 'card',
      },
    ],
    ['customer.created', { id: 'evt_1SfF01LkdIwHu7ixcust0001', type: 'ignored', providerType: 'customer.created' }],
  ])('%s', (name, expected) => {
    expect(eventOf(fixture(name))).toEqual(expected);
  });

  it('ignores a session the site did not open (no order id) rather than failing', () => {
    const event = JSON.parse(fixture('checkout.session.completed.payment-card'));
    event.data.object.metadata = {};
    event.data.object.client_reference_id = null;
    expect(eventOf(JSON.stringify(event))).toEqual({ id: event.id, type: 'ignored', providerType: 'checkout.session.completed' });
  });

  it('never takes the order from client_reference_id, which a Payment Link lets its payer choose', () => {
    const event = JSON.parse(fixture('checkout.session.completed.payment-card'));
    event.data.object.metadata = null;
    expect(eventOf(JSON.stringify(event))).toEqual({ id: event.id, type: 'ignored', providerType: 'checkout.session.completed' });
  });

  it('counts a full period billed by a change of interval as a renewal, but not a proration', () => {
    const event = JSON.parse(fixture('invoice.paid.subscription-cycle'));
    event.data.object.billing_reason = 'subscription_update';
    expect(eventOf(JSON.stringify(event))).toMatchObject({ type: 'renewal.succeeded', periodStart: at('2026-02-01T00:00:00Z') });
    event.data.object.lines.data[0].parent.subscription_item_details.proration = true;
    expect(eventOf(JSON.stringify(event))).toEqual({ id: event.id, type: 'ignored', providerType: 'invoice.paid' });
  });

  it('names no subscription or order of ours when the metadata does not (an object made from the dashboard)', () => {
    const invoice = JSON.parse(fixture('invoice.paid.subscription-cycle'));
    invoice.data.object.parent.subscription_details.metadata = {};
    expect(eventOf(JSON.stringify(invoice))).not.toHaveProperty('subscriptionId');
    const charge = JSON.parse(fixture('charge.refunded'));
    charge.data.object.metadata = { orderId: 'x'.repeat(101) };
    expect(eventOf(JSON.stringify(charge))).toEqual({ id: charge.id, type: 'refund.succeeded', paymentRef: 'pi_3SfA00LkdIwHu7ix0cPay001', amountCents: 5000 });
  });

  it('ignores a signed event whose object has an unexpected shape', () => {
    const event = JSON.parse(fixture('invoice.paid.subscription-cycle'));
    delete event.data.object.lines;
    expect(eventOf(JSON.stringify(event))).toEqual({ id: event.id, type: 'ignored', providerType: 'invoice.paid' });
    const charge = JSON.parse(fixture('charge.refunded'));
    charge.data.object.amount_refunded = '5000';
    expect(eventOf(JSON.stringify(charge))).toMatchObject({ type: 'ignored' });
    expect(warnings).toEqual(['payments.stripe_unreadable_event', 'payments.stripe_unreadable_event']);
  });

  describe('refuses a correctly signed body that is not an event with a 400, in French', () => {
    const unreadable = {
      ok: false,
      status: 400,
      message: 'Notification illisible : ce n’est pas un événement Stripe (identifiant, type ou données manquants).',
    };
    const without = (...path: string[]) => {
      const event = JSON.parse(fixture('charge.refunded'));
      let target = event;
      for (const key of path.slice(0, -1)) target = target[key];
      delete target[path.at(-1)!];
      return JSON.stringify(event);
    };

    it.each([['id'], ['type'], ['data'], ['data', 'object']])('without %s', (...path) => {
      expect(deliver(without(...path))).toEqual(unreadable);
    });

    it('an empty id, an object that is not one, null, an array, a number', () => {
      const event = JSON.parse(fixture('charge.refunded'));
      expect(deliver(JSON.stringify({ ...event, id: '' }))).toEqual(unreadable);
      expect(deliver(JSON.stringify({ ...event, data: { object: 'ch_1' } }))).toEqual(unreadable);
      for (const payload of ['null', '[]', '42', '"evt_1"']) expect(deliver(payload)).toEqual(unreadable);
    });

    it('a body that is not JSON', () => {
      expect(deliver('{"id": "evt_1", "type": ')).toEqual(unreadable);
      expect(warnings).toContain('payments.stripe_unreadable_payload');
    });

    it('while a bad signature on the same body stays a signature refusal', () => {
      expect(deliver(without('data'), { secret: 'whsec_someone_else' })).toEqual({ ok: false, status: 400, message: 'Signature de notification invalide.' });
    });
  });

  describe('refuses with a 400 and nothing else', () => {
    const payload = fixture('checkout.session.completed.payment-card');
    const refused = { ok: false, status: 400, message: 'Signature de notification invalide.' };

    it('a body signed with another secret', () => {
      expect(deliver(payload, { secret: 'whsec_someone_else' })).toEqual(refused);
    });

    it('a tampered body', () => {
      expect(deliver(payload, { body: payload.replace('"amount_total": 5000', '"amount_total": 1') })).toEqual(refused);
      // Re-serialised JSON is not the body Stripe signed, even with the same content.
      expect(deliver(payload, { body: JSON.stringify(JSON.parse(payload)) })).toEqual(refused);
    });

    it('a missing or malformed signature header', () => {
      expect(deliver(payload, { header: null })).toEqual(refused);
      expect(deliver(payload, { header: '' })).toEqual(refused);
      expect(deliver(payload, { header: 't=abc,v1=00' })).toEqual(refused);
    });

    it('a stale timestamp (a replayed capture)', () => {
      expect(deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 })).toEqual(refused);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Outgoing calls, against a local fake of the Stripe API

interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

const T0 = 1_772_323_200; // 2026-03-01, the current period's start
const T1 = 1_775_001_600; // 2026-04-01, its end

const subscription = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  object: 'subscription',
  status: 'active',
  customer: 'cus_fake',
  cancel_at_period_end: false,
  schedule: null,
  latest_invoice: 'in_fake',
  items: {
    object: 'list',
    has_more: false,
    url: `/v1/subscription_items?subscription=${id}`,
    data: [
      {
        id: 'si_fake',
        object: 'subscription_item',
        subscription: id,
        quantity: 1,
        current_period_start: T0,
        current_period_end: T1,
        metadata: {},
        price: {
          id: 'price_month',
          object: 'price',
          active: false,
          currency: 'eur',
          product: 'prod_abonnement',
          type: 'recurring',
          unit_amount: 900,
          recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
        },
      },
    ],
  },
  metadata: {},
  ...over,
});

const schedule = (id: string, subscriptionId: string) => ({
  id,
  object: 'subscription_schedule',
  status: 'active',
  subscription: subscriptionId,
  customer: 'cus_fake',
  end_behavior: 'release',
  current_phase: { start_date: T0, end_date: T1 },
  phases: [
    { start_date: T0, end_date: T1, proration_behavior: 'none', currency: 'eur', items: [{ price: 'price_month', quantity: 1, metadata: {}, discounts: [] }] },
  ],
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
  res.end(JSON.stringify(body));
};
const notFound = (res: ServerResponse, what: string) =>
  json(res, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });

/** Answers like the Stripe API does, for the few resources the adapter uses. */
function answer(req: Recorded, res: ServerResponse): void {
  const { method, path, body } = req;
  let m: RegExpMatchArray | null;
  if (method === 'POST' && path === '/v1/customers') {
    return json(res, 200, {
      id: 'cus_fake',
      object: 'customer',
      email: body.get('email'),
      name: body.get('name'),
      metadata: { userId: body.get('metadata[userId]') },
      preferred_locales: ['fr'],
    });
  }
  if (method === 'POST' && path === '/v1/checkout/sessions') {
    const id = `cs_test_${body.get('metadata[orderId]')}`;
    const url = body.get('metadata[orderId]') === 'order-without-url' ? null : `https://checkout.stripe.com/c/pay/${id}`;
    return json(res, 200, {
      id,
      object: 'checkout.session',
      mode: body.get('mode'),
      status: 'open',
      payment_status: 'unpaid',
      url,
      customer: body.get('customer'),
      metadata: { orderId: body.get('metadata[orderId]') },
    });
  }
  if (method === 'GET' && (m = path.match(/^\/v1\/checkout\/sessions\/(cs_test_(\w+))$/))) {
    return json(res, 200, { id: m[1], object: 'checkout.session', status: m[2], url: null, payment_intent: null, invoice: null });
  }
  if ((m = path.match(/^\/v1\/subscriptions\/(sub_\w+)$/))) {
    const id = m[1]!;
    if (id === 'sub_missing') return notFound(res, 'subscription');
    const over: Record<string, unknown> = id === 'sub_scheduled' ? { schedule: 'sub_sched_existing' } : {};
    if (id === 'sub_ended') over.status = 'canceled';
    if (method === 'GET') return json(res, 200, subscription(id, over));
    if (method === 'POST') return json(res, 200, subscription(id, { ...over, cancel_at_period_end: body.get('cancel_at_period_end') === 'true' }));
    if (method === 'DELETE') {
      if (id === 'sub_ended')
        return json(res, 400, {
          error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' },
        });
      return json(res, 200, subscription(id, { status: 'canceled' }));
    }
  }
  if (method === 'POST' && path === '/v1/subscription_schedules') return json(res, 200, schedule('sub_sched_new', body.get('from_subscription') ?? ''));
  if ((m = path.match(/^\/v1\/subscription_schedules\/(sub_sched_\w+)(\/release)?$/))) {
    if (m[2]) return json(res, 200, { ...schedule(m[1]!, 'sub_scheduled'), status: 'released', released_subscription: 'sub_scheduled' });
    return json(res, 200, schedule(m[1]!, 'sub_scheduled'));
  }
  if (method === 'GET' && (m = path.match(/^\/v1\/invoices\/(in_\w+)$/))) {
    return json(res, 200, {
      id: m[1],
      object: 'invoice',
      status: 'paid',
      amount_paid: 900,
      payments: {
        object: 'list',
        has_more: false,
        data: [
          {
            id: 'inpay_failed',
            object: 'invoice_payment',
            status: 'canceled',
            is_default: false,
            payment: { type: 'payment_intent', payment_intent: 'pi_declined' },
          },
          {
            id: 'inpay_paid',
            object: 'invoice_payment',
            status: 'paid',
            is_default: true,
            payment: { type: 'payment_intent', payment_intent: 'pi_of_invoice' },
          },
        ],
      },
    });
  }
  if (method === 'POST' && path === '/v1/refunds') {
    return json(res, 200, {
      id: 're_fake',
      object: 'refund',
      amount: Number(body.get('amount')),
      status: 'pending',
      payment_intent: body.get('payment_intent'),
      charge: body.get('charge'),
      metadata: { paymentRef: body.get('metadata[paymentRef]') },
    });
  }
  if (method === 'GET' && (m = path.match(/^\/v1\/customers\/(cus_\w+)$/))) {
    const saved =
      m[1] === 'cus_fake' ? { id: 'pm_fake_sepa', object: 'payment_method', type: 'sepa_debit', customer: 'cus_fake', sepa_debit: { last4: '3000' } } : null;
    return json(res, 200, { id: m[1], object: 'customer', invoice_settings: { default_payment_method: saved } });
  }
  if (method === 'POST' && path === '/v1/billing_portal/sessions') {
    return json(res, 200, {
      id: 'bps_fake',
      object: 'billing_portal.session',
      customer: body.get('customer'),
      return_url: body.get('return_url'),
      url: 'https://billing.stripe.com/p/session/test_fake',
      locale: body.get('locale'),
    });
  }
  return notFound(res, `route ${method} ${path}`);
}

describe('Stripe API calls', () => {
  let server: Server;
  let client: Stripe;
  let calls: Recorded[] = [];
  let failNext = false;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const key = req.headers['idempotency-key'];
        const recorded: Recorded = {
          method: req.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          body: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
          idempotencyKey: typeof key === 'string' ? key : undefined,
        };
        calls.push(recorded);
        if (failNext) {
          failNext = false;
          return json(res, 500, { error: { type: 'api_error', message: 'Something went wrong on Stripe’s end.' } });
        }
        answer(recorded, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    calls = [];
    failNext = false;
  });

  const provider = () => createStripeProvider({ secretKey: 'sk_test_fake', webhookSecret: SECRET, siteUrl: SITE, client });
  const posts = () => calls.filter((c) => c.method !== 'GET');

  const request = (over: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
    orderId: 'order-1',
    customerRef: 'cus_fake',
    description: 'Abonnement Mensuel — Contrechamp',
    amountCents: 900,
    recurring: { interval: 'month', subscriptionId: 'subscription-1' },
    method: 'card',
    returnUrl: 'https://contrechamp.example/soutenir/confirmation/order-1',
    cancelUrl: 'https://contrechamp.example/soutenir/confirmation/order-1',
    idempotencyKey: 'checkout:order-1',
    ...over,
  });

  it('creates the customer once per key, in French, with the user id', async () => {
    const ref = await provider().ensureCustomer({ id: 'user-1', email: 'lecteur@exemple.fr', name: 'Camille Lecteur' }, 'customer:user-1');
    expect(ref).toBe('cus_fake');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({ method: 'POST', path: '/v1/customers', idempotencyKey: 'customer:user-1' });
    expect(call!.body.get('email')).toBe('lecteur@exemple.fr');
    expect(call!.body.get('name')).toBe('Camille Lecteur');
    expect(call!.body.get('metadata[userId]')).toBe('user-1');
    expect(call!.body.get('preferred_locales[0]')).toBe('fr');
  });

  it('opens a subscription Checkout for a recurring order', async () => {
    const result = await provider().startCheckout(request());
    expect(result).toEqual({ checkoutRef: 'cs_test_order-1', url: 'https://checkout.stripe.com/c/pay/cs_test_order-1' });
    expect(posts()).toHaveLength(1);
    const { body, idempotencyKey, path } = calls[0]!;
    expect(path).toBe('/v1/checkout/sessions');
    expect(idempotencyKey).toBe('checkout:order-1');
    expect(Object.fromEntries(body)).toMatchObject({
      mode: 'subscription',
      customer: 'cus_fake',
      client_reference_id: 'order-1',
      'metadata[orderId]': 'order-1',
      'allowed_payment_method_types[0]': 'card',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '900',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Abonnement Mensuel — Contrechamp',
      'subscription_data[metadata][orderId]': 'order-1',
      'subscription_data[metadata][subscriptionId]': 'subscription-1',
      success_url: 'https://contrechamp.example/soutenir/confirmation/order-1',
      cancel_url: 'https://contrechamp.example/soutenir/confirmation/order-1',
      locale: 'fr',
    });
    expect(body.has('payment_intent_data[metadata][orderId]')).toBe(false);
  });

  it('opens a one-off payment Checkout, without recurrence, by SEPA debit', async () => {
    await provider().startCheckout(
      request({
        orderId: 'order-2',
        recurring: null,
        amountCents: 5000,
        method: 'sepa_debit',
        description: 'Don de 50,00 € — Contrechamp',
        idempotencyKey: 'checkout:order-2',
      }),
    );
    const { body, idempotencyKey } = calls[0]!;
    expect(idempotencyKey).toBe('checkout:order-2');
    expect(Object.fromEntries(body)).toMatchObject({
      mode: 'payment',
      'allowed_payment_method_types[0]': 'sepa_debit',
      'line_items[0][price_data][unit_amount]': '5000',
      'payment_intent_data[metadata][orderId]': 'order-2',
      'metadata[orderId]': 'order-2',
    });
    expect([...body.keys()].some((k) => k.includes('[recurring]'))).toBe(false);
    expect([...body.keys()].some((k) => k.startsWith('subscription_data'))).toBe(false);
  });

  it('refuses to send the reader back anywhere but the site', async () => {
    await expect(provider().startCheckout(request({ returnUrl: 'https://evil.example/merci' }))).rejects.toThrow(/not on the site/);
    expect(calls).toHaveLength(0);
  });

  it('fails with a ProviderError when Stripe gives no payment page', async () => {
    const error = await provider()
      .startCheckout(request({ orderId: 'order-without-url' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
  });

  it('turns a failure of Stripe into a ProviderError in French, keeping the cause', async () => {
    failNext = true;
    const error = await provider()
      .startCheckout(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('Le service de paiement est indisponible, réessayez dans un instant.');
    expect((error as ProviderError).cause).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(warnings).toEqual(['payments.stripe_call_failed']);
    // No retry behind the caller's back here (maxNetworkRetries 0): the caller's retry, with the same key, is the retry.
    expect(calls).toHaveLength(1);
  });

  it('tells where a checkout stands', async () => {
    expect(await provider().checkoutStatus('cs_test_open')).toBe('open');
    expect(await provider().checkoutStatus('cs_test_complete')).toBe('complete');
    expect(await provider().checkoutStatus('cs_test_expired')).toBe('expired');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /v1/checkout/sessions/cs_test_open',
      'GET /v1/checkout/sessions/cs_test_complete',
      'GET /v1/checkout/sessions/cs_test_expired',
    ]);
  });

  it('never charges a renewal itself: Stripe does', async () => {
    const p = provider();
    expect(p.runsRenewals).toBe(true);
    const error = await p
      .chargeRenewal({ orderId: 'o', subscriptionId: 's', customerRef: 'cus_fake', amountCents: 900, description: 'x', idempotencyKey: 'k' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ProviderError);
    expect(calls).toHaveLength(0);
  });

  describe('updateSubscription', () => {
    it('sets the cancellation at period end, with the caller’s key', async () => {
      await provider().updateSubscription({ subscriptionRef: 'sub_plain', cancelAtPeriodEnd: true, idempotencyKey: 'cancel:s1:2026-04-01' });
      expect(posts()).toHaveLength(1);
      expect(posts()[0]).toMatchObject({ method: 'POST', path: '/v1/subscriptions/sub_plain', idempotencyKey: 'cancel:s1:2026-04-01' });
      expect(Object.fromEntries(posts()[0]!.body)).toEqual({ cancel_at_period_end: 'true' });
    });

    it('takes the cancellation back', async () => {
      await provider().updateSubscription({ subscriptionRef: 'sub_plain', cancelAtPeriodEnd: false, idempotencyKey: 'resume:s1:x' });
      expect(Object.fromEntries(posts()[0]!.body)).toEqual({ cancel_at_period_end: 'false' });
      expect(posts()[0]!.idempotencyKey).toBe('resume:s1:x');
    });

    it('changes the price from the next renewal on, without proration, same interval', async () => {
      await provider().updateSubscription({
        subscriptionRef: 'sub_plain',
        next: { amountCents: 1500, interval: 'month', description: 'Don mensuel de 15,00 €' },
        idempotencyKey: 'amount:s1:1500:x',
      });
      expect(posts()).toHaveLength(1);
      const { path, body, idempotencyKey } = posts()[0]!;
      expect(path).toBe('/v1/subscriptions/sub_plain');
      expect(idempotencyKey).toBe('amount:s1:1500:x');
      expect(Object.fromEntries(body)).toEqual({
        'items[0][id]': 'si_fake',
        'items[0][price_data][currency]': 'eur',
        'items[0][price_data][product]': 'prod_abonnement',
        'items[0][price_data][unit_amount]': '1500',
        'items[0][price_data][recurring][interval]': 'month',
        proration_behavior: 'none',
      });
    });

    it('moves to another interval at the end of the period through a schedule, never on the subscription itself', async () => {
      await provider().updateSubscription({
        subscriptionRef: 'sub_plain',
        next: { amountCents: 9000, interval: 'year', description: 'Abonnement Annuel' },
        idempotencyKey: 'plan:s1:annuel:x',
      });
      // Updating the subscription's item to a yearly price would reset its cycle and charge at once.
      expect(posts().some((c) => c.path.startsWith('/v1/subscriptions/'))).toBe(false);
      expect(posts().map((c) => [c.path, c.idempotencyKey])).toEqual([
        ['/v1/subscription_schedules', 'plan:s1:annuel:x:schedule'],
        ['/v1/subscription_schedules/sub_sched_new', 'plan:s1:annuel:x:phases'],
      ]);
      expect(posts()[0]!.body.get('from_subscription')).toBe('sub_plain');
      expect(Object.fromEntries(posts()[1]!.body)).toEqual({
        end_behavior: 'release',
        proration_behavior: 'none',
        'phases[0][items][0][price]': 'price_month',
        'phases[0][items][0][quantity]': '1',
        'phases[0][start_date]': String(T0),
        'phases[0][end_date]': String(T1),
        'phases[0][proration_behavior]': 'none',
        'phases[1][items][0][price_data][currency]': 'eur',
        'phases[1][items][0][price_data][product]': 'prod_abonnement',
        'phases[1][items][0][price_data][unit_amount]': '9000',
        'phases[1][items][0][price_data][recurring][interval]': 'year',
        'phases[1][items][0][quantity]': '1',
        'phases[1][duration][interval]': 'year',
        'phases[1][duration][interval_count]': '1',
        'phases[1][proration_behavior]': 'none',
      });
    });

    it('changes the pending phase of a schedule already attached', async () => {
      await provider().updateSubscription({
        subscriptionRef: 'sub_scheduled',
        next: { amountCents: 900, interval: 'month', description: 'Abonnement Mensuel' },
        idempotencyKey: 'plan:s2:mensuel:x',
      });
      expect(posts().map((c) => [c.path, c.idempotencyKey])).toEqual([['/v1/subscription_schedules/sub_sched_existing', 'plan:s2:mensuel:x:phases']]);
      expect(posts()[0]!.body.get('phases[1][items][0][price_data][unit_amount]')).toBe('900');
    });

    it('releases a pending schedule before cancelling at period end', async () => {
      await provider().updateSubscription({ subscriptionRef: 'sub_scheduled', cancelAtPeriodEnd: true, idempotencyKey: 'cancel:s2:x' });
      expect(posts().map((c) => [c.path, c.idempotencyKey])).toEqual([
        ['/v1/subscription_schedules/sub_sched_existing/release', 'cancel:s2:x:release'],
        ['/v1/subscriptions/sub_scheduled', 'cancel:s2:x'],
      ]);
    });

    it('does nothing for an empty change', async () => {
      await provider().updateSubscription({ subscriptionRef: 'sub_plain', idempotencyKey: 'k' });
      expect(calls).toHaveLength(0);
    });

    it('fails with a ProviderError for a subscription Stripe does not know', async () => {
      await expect(provider().updateSubscription({ subscriptionRef: 'sub_missing', cancelAtPeriodEnd: true, idempotencyKey: 'k' })).rejects.toBeInstanceOf(
        ProviderError,
      );
    });
  });

  it('postpones the next renewal (gift months after the paid period) by a trial until then, without proration, with the caller’s key', async () => {
    const until = new Date('2027-06-23T09:00:00Z');
    await provider().postponeRenewal({ subscriptionRef: 'sub_plain', until, idempotencyKey: 'gift-postpone:s1:2027-06-23T09:00:00.000Z' });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]).toMatchObject({ method: 'POST', path: '/v1/subscriptions/sub_plain', idempotencyKey: 'gift-postpone:s1:2027-06-23T09:00:00.000Z' });
    expect(Object.fromEntries(posts()[0]!.body)).toEqual({ trial_end: String(until.getTime() / 1000), proration_behavior: 'none' });
    failNext = true;
    await expect(provider().postponeRenewal({ subscriptionRef: 'sub_plain', until, idempotencyKey: 'k' })).rejects.toBeInstanceOf(ProviderError);
  });

  it('cancels a subscription now, with the caller’s key', async () => {
    await provider().cancelSubscriptionNow('sub_plain', 'cancel-now:s1');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'DELETE', path: '/v1/subscriptions/sub_plain', idempotencyKey: 'cancel-now:s1' });
  });

  it('takes a subscription already ended at Stripe as cancelled', async () => {
    await provider().cancelSubscriptionNow('sub_ended', 'cancel-now:s3');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /v1/subscriptions/sub_ended', 'GET /v1/subscriptions/sub_ended']);
  });

  it('fails with a ProviderError when the cancellation cannot be done', async () => {
    failNext = true;
    await expect(provider().cancelSubscriptionNow('sub_plain', 'cancel-now:s1')).rejects.toBeInstanceOf(ProviderError);
  });

  it('refunds a payment intent in full, with the caller’s key', async () => {
    await provider().refund({ paymentRef: 'pi_3SfA00LkdIwHu7ix0cPay001', amountCents: 5000, idempotencyKey: 'refund:order-2' });
    expect(posts()).toHaveLength(1);
    const { path, body, idempotencyKey } = posts()[0]!;
    expect(path).toBe('/v1/refunds');
    expect(idempotencyKey).toBe('refund:order-2');
    expect(Object.fromEntries(body)).toEqual({
      payment_intent: 'pi_3SfA00LkdIwHu7ix0cPay001',
      amount: '5000',
      'metadata[paymentRef]': 'pi_3SfA00LkdIwHu7ix0cPay001',
    });
  });

  it('refunds a subscription payment known by its invoice, through the invoice’s paid payment', async () => {
    await provider().refund({ paymentRef: 'in_1SfB02LkdIwHu7ixCycle001', amountCents: 900, idempotencyKey: 'refund:order-3' });
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/v1/invoices/in_1SfB02LkdIwHu7ixCycle001' });
    expect(calls[0]!.query.getAll('expand[0]')).toEqual(['payments']);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]!.idempotencyKey).toBe('refund:order-3');
    expect(Object.fromEntries(posts()[0]!.body)).toEqual({
      payment_intent: 'pi_of_invoice',
      amount: '900',
      'metadata[paymentRef]': 'in_1SfB02LkdIwHu7ixCycle001',
    });
  });

  it('opens the portal on the payment method form, back to the subscription', async () => {
    const url = await provider().paymentMethodUrl({
      customerRef: 'cus_fake',
      subscriptionId: 's1',
      subscriptionRef: 'sub_plain',
      returnUrl: 'https://contrechamp.example/mon-compte/mes-abonnements/s1',
      idempotencyKey: 'method:s1:2026-03-02T10:00',
    });
    expect(url).toBe('https://billing.stripe.com/p/session/test_fake');
    expect(posts()[0]).toMatchObject({ path: '/v1/billing_portal/sessions', idempotencyKey: 'method:s1:2026-03-02T10:00' });
    expect(Object.fromEntries(posts()[0]!.body)).toEqual({
      customer: 'cus_fake',
      return_url: 'https://contrechamp.example/mon-compte/mes-abonnements/s1',
      locale: 'fr',
      'flow_data[type]': 'payment_method_update',
      'flow_data[after_completion][type]': 'redirect',
      'flow_data[after_completion][redirect][return_url]': 'https://contrechamp.example/mon-compte/mes-abonnements/s1',
    });
  });

  it('reads on the reader’s return the method just saved, named as its notification names it', async () => {
    expect(await provider().paymentMethodChange({ customerRef: 'cus_fake', changeRef: null })).toEqual({
      changeRef: 'pm_fake_sepa',
      methodLabel: 'Prélèvement SEPA •••• 3000',
      method: 'sepa_debit',
    });
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/v1/customers/cus_fake' });
    expect(calls[0]!.query.getAll('expand[0]')).toEqual(['invoice_settings.default_payment_method']);
    expect(await provider().paymentMethodChange({ customerRef: 'cus_none', changeRef: null })).toBeNull();
  });

  it('fails with a ProviderError when the portal is down', async () => {
    failNext = true;
    await expect(
      provider().paymentMethodUrl({
        customerRef: 'cus_fake',
        subscriptionId: 's1',
        subscriptionRef: null,
        returnUrl: 'https://contrechamp.example/x',
        idempotencyKey: 'k',
      }),
    ).rejects.toBeInstanceOf(ProviderError);
  });
});
