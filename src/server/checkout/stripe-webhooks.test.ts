/**
 * The Stripe adapter wired to the domain: signed fixture events (the SDK's own test signature)
 * delivered to the webhook entry move a real order and subscription, replays change nothing, and
 * a renewal, a refused renewal and the end of the subscription follow Stripe's word — in
 * whatever order Stripe delivers them: an event ahead of its object is refused (409, nothing
 * recorded) and, delivered again as Stripe would, ends in the same state as in order.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { insertOrder } from '../orders/repository';
import { createStripeProvider } from '../payments/stripe';
import { insertSubscription } from '../subscriptions/repository';
import { handlePaymentWebhook } from './service';

vi.setConfig({ testTimeout: 30_000 });
const SECRET = 'whsec_test_contrechamp';
const FIXTURE_ORDER = '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e01';
/** The site's subscription id in the fixtures' metadata (what startCheckout gives Stripe). */
const FIXTURE_SUBSCRIPTION = '0196f3a2-7c1e-7b7a-9d0e-2b1f4c5a6e02';
const signer = new Stripe('sk_test_signer');
const fixtureText = (name: string) => readFileSync(new URL(`../../../tests/fixtures/stripe/${name}.json`, import.meta.url), 'utf8');

/** Every order of `items`, each once (n! of them). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

it('permutations gives every order once', () => {
  const all = permutations(['a', 'b', 'c']).map((p) => p.join(''));
  expect(all.sort()).toEqual(['abc', 'acb', 'bac', 'bca', 'cab', 'cba']);
});

/**
 * A local stand-in for the Stripe API, for the calls a refund makes (the invoice's payment, then
 * the refund); every call is recorded.
 */
interface StripeCall {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}
const api = { calls: [] as StripeCall[], server: undefined as Server | undefined, client: undefined as Stripe | undefined };
beforeAll(async () => {
  api.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const key = req.headers['idempotency-key'];
      api.calls.push({ method: req.method ?? '', path, body, idempotencyKey: typeof key === 'string' ? key : undefined });
      const answer = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        res.end(JSON.stringify(value));
      };
      const invoice = /^\/v1\/invoices\/(in_\w+)$/.exec(path);
      if (req.method === 'GET' && invoice) {
        return answer(200, {
          id: invoice[1],
          object: 'invoice',
          status: 'paid',
          payments: {
            object: 'list',
            has_more: false,
            data: [{ id: 'inpay_1', object: 'invoice_payment', status: 'paid', payment: { type: 'payment_intent', payment_intent: `pi_of_${invoice[1]}` } }],
          },
        });
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        return answer(200, {
          id: 're_fake',
          object: 'refund',
          amount: Number(body.get('amount')),
          status: 'pending',
          payment_intent: body.get('payment_intent'),
          metadata: { paymentRef: body.get('metadata[paymentRef]') },
        });
      }
      answer(404, { error: { type: 'invalid_request_error', message: `No such route: ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((ready) => api.server!.listen(0, '127.0.0.1', ready));
  const { port } = api.server.address() as AddressInfo;
  api.client = new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(() => new Promise<void>((done) => (api.server ? api.server.close(() => done()) : done())));

describeEachDialect('Stripe webhooks applied', (kind) => {
  let test: TestDatabase;
  let deps: ReturnType<typeof withJobs>;
  let sent: OutgoingMail[];
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    await test.db.deleteFrom('provider_events').execute();
    await test.db.deleteFrom('orders').execute();
    await test.db.deleteFrom('subscriptions').execute();
    sent = [];
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    const siteUrl = new URL('https://contrechamp.example');
    deps = withJobs({
      db: test.db,
      mailer,
      clock: fakeClock(new Date('2026-01-01T00:00:00Z')),
      siteUrl,
      payments: createStripeProvider({ secretKey: 'sk_test_x', webhookSecret: SECRET, siteUrl, client: api.client! }),
    });
    api.calls = [];
  });

  const deliver = (fixture: string, orderId: string) => {
    const payload = readFileSync(new URL(`../../../tests/fixtures/stripe/${fixture}.json`, import.meta.url), 'utf8').replaceAll(FIXTURE_ORDER, orderId);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    return handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(payload), new Headers({ 'stripe-signature': header }));
  };

  async function pendingSubscription() {
    const now = deps.clock.now();
    const userId = await createUser(test.db, { email: `stripe-${crypto.randomUUID()}@exemple.fr`, password: 'un mot de passe solide', now });
    const subscriptionId = await insertSubscription(
      test.db,
      { userId, kind: 'plan', planId: 'mensuel', amountCents: 900, interval: 'month', vatRateBp: 210, provider: 'stripe', source: null },
      now,
    );
    const { order } = await insertOrder(
      test.db,
      {
        userId,
        purpose: 'subscription',
        reason: 'initial',
        offerId: 'mensuel',
        description: 'Abonnement Mensuel',
        interval: 'month',
        amountCents: 900,
        vatRateBp: 210,
        vatCents: 19,
        source: null,
        method: 'card',
        provider: 'stripe',
        subscriptionId,
        attemptKey: crypto.randomUUID(),
      },
      now,
    );
    return { orderId: order.id, subscriptionId };
  }
  const sub = (id: string) => test.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a completed checkout starts the subscription once; the cycle invoice renews it; a replay changes nothing', async () => {
    const { orderId, subscriptionId } = await pendingSubscription();
    for (let i = 0; i < 3; i++)
      expect(await deliver('checkout.session.completed.subscription-card', orderId)).toMatchObject({ ok: true, applied: i === 0 ? 1 : 0 });
    expect(await sub(subscriptionId)).toMatchObject({ status: 'active', provider_ref: 'sub_1SfGh2LkdIwHu7ixQm8pZr4c' });
    expect((await test.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status).toBe('paid');

    for (let i = 0; i < 3; i++) expect((await deliver('invoice.paid.subscription-cycle', orderId)).ok).toBe(true);
    const orders = await test.db
      .selectFrom('orders')
      .select(['reason', 'status', 'amount_cents'])
      .where('subscription_id', '=', subscriptionId)
      .orderBy('created_at')
      .execute();
    expect(orders).toEqual([
      { reason: 'initial', status: 'paid', amount_cents: 900 },
      { reason: 'renewal', status: 'paid', amount_cents: 900 },
    ]);
    expect((await sub(subscriptionId)).current_period_end).toBe('2026-03-01T00:00:00.000Z');
  });

  it('a refused renewal makes it past due with a mail; Stripe’s end of the subscription ends it here', async () => {
    const { orderId, subscriptionId } = await pendingSubscription();
    await deliver('checkout.session.completed.subscription-card', orderId);
    sent = [];
    expect((await deliver('invoice.payment_failed', orderId)).ok).toBe(true);
    expect((await sub(subscriptionId)).status).toBe('past_due');
    await deps.flush();
    expect(sent.map((m) => m.subject).join()).toMatch(/paiement/i);
    expect((await deliver('customer.subscription.deleted', orderId)).ok).toBe(true);
    expect(await sub(subscriptionId)).toMatchObject({ status: 'expired' });
  });

  it('a payment collected for another amount (a Payment Link naming our order) pays nothing', async () => {
    const { orderId, subscriptionId } = await pendingSubscription();
    const payload = readFileSync(new URL('../../../tests/fixtures/stripe/checkout.session.completed.subscription-card.json', import.meta.url), 'utf8')
      .replaceAll(FIXTURE_ORDER, orderId)
      .replace('"amount_total": 900', '"amount_total": 100');
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect(await handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(payload), new Headers({ 'stripe-signature': header }))).toMatchObject({
      ok: true,
    });
    expect((await test.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status).toBe('pending');
    expect((await sub(subscriptionId)).status).toBe('incomplete');
  });

  it('a refusal of an earlier attempt delivered after the invoice was paid changes nothing', async () => {
    const { orderId, subscriptionId } = await pendingSubscription();
    await deliver('checkout.session.completed.subscription-card', orderId);
    await deliver('invoice.paid.subscription-cycle', orderId);
    const failed = readFileSync(new URL('../../../tests/fixtures/stripe/invoice.payment_failed.json', import.meta.url), 'utf8');
    const invoiceRef = 'in_1SfB02LkdIwHu7ixCycle001';
    const late = failed.replace(/"id": "in_[A-Za-z0-9]+"/, `"id": "${invoiceRef}"`);
    const header = signer.webhooks.generateTestHeaderString({ payload: late, secret: SECRET });
    expect((await handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(late), new Headers({ 'stripe-signature': header }))).ok).toBe(true);
    expect((await sub(subscriptionId)).status).toBe('active');
  });

  it('a forged Stripe notification is refused', async () => {
    const { orderId } = await pendingSubscription();
    const payload = readFileSync(
      new URL('../../../tests/fixtures/stripe/checkout.session.completed.subscription-card.json', import.meta.url),
      'utf8',
    ).replaceAll(FIXTURE_ORDER, orderId);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(await handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(payload), new Headers({ 'stripe-signature': header }))).toMatchObject({
      ok: false,
      status: 400,
    });
    expect((await test.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status).toBe('pending');
  });
  // -------------------------------------------------------------------------------------------
  // Out of order, as Stripe delivers

  /** A fixture for one run: our order and subscription ids, and Stripe's ids made unique to the run (`tag`). */
  const payloadFor = (name: string, ids: { orderId: string; subscriptionId: string; tag: string }) =>
    fixtureText(name)
      .replaceAll(FIXTURE_ORDER, ids.orderId)
      .replaceAll(FIXTURE_SUBSCRIPTION, ids.subscriptionId)
      .replace(/\b(?:evt|sub|in|pi|ch|re|cs|txn)_[A-Za-z0-9]+/g, (id) => `${id}${ids.tag}`);
  const sendSigned = (payload: string) =>
    handlePaymentWebhook(
      deps,
      'stripe',
      new TextEncoder().encode(payload),
      new Headers({ 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: SECRET }) }),
    );
  const recorded = async (eventId: string) =>
    (await test.db.selectFrom('provider_events').select('event_id').where('provider', '=', 'stripe').where('event_id', '=', eventId).executeTakeFirst()) !==
    undefined;

  /**
   * Delivers the fixtures in this order. A delivery refused (409: ahead of its object) must have
   * recorded nothing; Stripe tries it again later, after the others here. Then every event is
   * delivered once more (Stripe delivers twice too). Answers how many deliveries were refused.
   */
  async function deliverInOrder(names: readonly string[], ids: { orderId: string; subscriptionId: string; tag: string }): Promise<number> {
    const queue = [...names];
    let refused = 0;
    while (queue.length > 0) {
      if (refused > names.length * names.length) throw new Error(`never accepted: ${queue.join(', ')}`);
      const name = queue.shift()!;
      const payload = payloadFor(name, ids);
      const result = await sendSigned(payload);
      if (result.ok) continue;
      expect(result).toMatchObject({ ok: false, status: 409 });
      expect(await recorded(JSON.parse(payload).id)).toBe(false);
      refused++;
      queue.push(name);
    }
    for (const name of names) expect(await sendSigned(payloadFor(name, ids))).toMatchObject({ ok: true, applied: 0 });
    return refused;
  }

  /** What a run leaves, without what differs from run to run by construction (ids, document numbers). */
  async function endState(ids: { orderId: string; subscriptionId: string | null; tag: string; email: string }, eventNames: readonly string[]) {
    const untag = (value: string | null) => value?.replaceAll(ids.tag, '') ?? null;
    const orders = await test.db
      .selectFrom('orders')
      .selectAll()
      .where((eb) => (ids.subscriptionId ? eb.or([eb('id', '=', ids.orderId), eb('subscription_id', '=', ids.subscriptionId)]) : eb('id', '=', ids.orderId)))
      .orderBy('reason')
      .orderBy('period_start')
      .execute();
    // One clock for the whole run: the lines of a history share their time, so they are compared as a set (each names its move).
    const history = await Promise.all(
      orders.map(async (o) =>
        (
          await test.db
            .selectFrom('order_events')
            .select(['from_status', 'to_status', 'cause'])
            .where('order_id', '=', o.id)
            .orderBy('at')
            .orderBy('id')
            .execute()
        )
          .map((e) => `${e.from_status ?? ''}→${e.to_status}: ${e.cause}`)
          .sort(),
      ),
    );
    const documents = await test.db
      .selectFrom('billing_documents')
      .select(['kind', 'order_id', 'total_cents', 'vat_cents'])
      .where(
        'order_id',
        'in',
        orders.map((o) => o.id),
      )
      .orderBy('kind')
      .execute();
    const sub = ids.subscriptionId
      ? await test.db.selectFrom('subscriptions').selectAll().where('id', '=', ids.subscriptionId).executeTakeFirstOrThrow()
      : null;
    const mails = (await test.db.selectFrom('jobs').select('payload').where('kind', '=', 'mail.send').execute())
      .map((j) => JSON.parse(j.payload) as { to: string; mail: { subject: string } })
      .filter((m) => m.to === ids.email)
      .map((m) => m.mail.subject)
      .sort();
    const events = await Promise.all(
      eventNames.map((name) => recorded(JSON.parse(payloadFor(name, { orderId: ids.orderId, subscriptionId: ids.subscriptionId ?? '', tag: ids.tag })).id)),
    );
    return {
      orders: orders.map((o, i) => ({
        reason: o.reason,
        status: o.status,
        amount: o.amount_cents,
        paymentRef: untag(o.payment_ref),
        periodStart: o.period_start,
        periodEnd: o.period_end,
        history: history[i] ?? [],
        documents: documents.filter((d) => d.order_id === o.id).map((d) => [d.kind, d.total_cents, d.vat_cents]),
      })),
      subscription: sub && {
        status: sub.status,
        providerRef: untag(sub.provider_ref),
        periodStart: sub.current_period_start,
        periodEnd: sub.current_period_end,
        failedAttempts: sub.failed_attempts,
      },
      mails,
      everyEventRecorded: events.every(Boolean),
    };
  }

  let run = 0;
  async function newReader() {
    const now = deps.clock.now();
    const email = `ordre-${++run}-${crypto.randomUUID()}@exemple.fr`;
    const userId = await createUser(test.db, { email, password: 'un mot de passe solide', now });
    return { userId, email, tag: `x${run}${Math.random().toString(36).slice(2, 8)}` };
  }

  async function donationRun(names: readonly string[]) {
    const { userId, email, tag } = await newReader();
    const { order } = await insertOrder(
      test.db,
      {
        userId,
        purpose: 'donation',
        reason: 'initial',
        offerId: 'don',
        description: 'Don de 50 €',
        interval: null,
        amountCents: 5000,
        vatRateBp: 0,
        vatCents: 0,
        source: null,
        method: 'card',
        provider: 'stripe',
        subscriptionId: null,
        attemptKey: crypto.randomUUID(),
      },
      deps.clock.now(),
    );
    const ids = { orderId: order.id, subscriptionId: '', tag };
    const refused = await deliverInOrder(names, ids);
    return { refused, state: await endState({ orderId: order.id, subscriptionId: null, tag, email }, names) };
  }

  async function subscriptionRun(names: readonly string[]) {
    const { userId, email, tag } = await newReader();
    const now = deps.clock.now();
    const subscriptionId = await insertSubscription(
      test.db,
      { userId, kind: 'plan', planId: 'mensuel', amountCents: 900, interval: 'month', vatRateBp: 210, provider: 'stripe', source: null },
      now,
    );
    const { order } = await insertOrder(
      test.db,
      {
        userId,
        purpose: 'subscription',
        reason: 'initial',
        offerId: 'mensuel',
        description: 'Abonnement Mensuel',
        interval: 'month',
        amountCents: 900,
        vatRateBp: 210,
        vatCents: 19,
        source: null,
        method: 'card',
        provider: 'stripe',
        subscriptionId,
        attemptKey: crypto.randomUUID(),
      },
      now,
    );
    const ids = { orderId: order.id, subscriptionId, tag };
    const refused = await deliverInOrder(names, ids);
    return { refused, state: await endState({ orderId: order.id, subscriptionId, tag, email }, names) };
  }

  describe('every delivery order ends as the natural one', () => {
    // A one-off donation paid, then refunded from the dashboard (charge.refunded), with the refund's
    // pending notice (of no interest) and an event the site does not listen to.
    const refundFlow = ['checkout.session.completed.payment-card', 'charge.refunded', 'refund.created.pending', 'customer.created'] as const;
    // A subscription's checkout, its first invoice (the same payment, told by the checkout), a
    // renewal in the current API version and one in an older version.
    const renewalFlow = [
      'checkout.session.completed.subscription-card',
      'invoice.paid.subscription-create',
      'invoice.paid.subscription-cycle',
      'invoice.paid.subscription-cycle-legacy',
    ] as const;

    it('a refund: the order ends refunded, with its receipt, whatever came first', async () => {
      const natural = await donationRun(refundFlow);
      expect(natural.refused).toBe(0);
      expect(natural.state).toMatchObject({
        everyEventRecorded: true,
        orders: [{ status: 'refunded', paymentRef: 'pi_3SfA00LkdIwHu7ix0cPay001', documents: [['receipt', 5000, 0]] }],
      });
      expect(natural.state.orders[0]!.history.map((h) => h.split(':')[0])).toEqual(['paid→refunded', 'pending→paid', '→pending']);
      let early = 0;
      for (const order of permutations(refundFlow)) {
        const { refused, state } = await donationRun(order);
        expect({ order, state }).toEqual({ order, state: natural.state });
        early += refused;
      }
      // The refund ahead of its payment was refused in every order that put it first (half of them).
      expect(early).toBe(12);
    });

    it('renewals: both paid with their invoices, the subscription running to the last period, whatever came first', async () => {
      const natural = await subscriptionRun(renewalFlow);
      expect(natural.refused).toBe(0);
      expect(natural.state).toMatchObject({
        everyEventRecorded: true,
        subscription: { status: 'active', providerRef: 'sub_1SfGh2LkdIwHu7ixQm8pZr4c', periodEnd: '2026-04-01T00:00:00.000Z' },
        orders: [
          { reason: 'initial', status: 'paid', documents: [['invoice', 900, 19]] },
          {
            reason: 'renewal',
            status: 'paid',
            paymentRef: 'in_1SfB02LkdIwHu7ixCycle001',
            periodStart: '2026-02-01T00:00:00.000Z',
            documents: [['invoice', 900, 19]],
          },
          {
            reason: 'renewal',
            status: 'paid',
            paymentRef: 'pi_3SfB05LkdIwHu7ix0cRenew2',
            periodStart: '2026-03-01T00:00:00.000Z',
            documents: [['invoice', 900, 19]],
          },
        ],
      });
      let early = 0;
      for (const order of permutations(renewalFlow)) {
        const { refused, state } = await subscriptionRun(order);
        expect({ order, state }).toEqual({ order, state: natural.state });
        early += refused;
      }
      expect(early).toBeGreaterThan(0);
    });

    it('a refusal of the renewal and Stripe’s end of the subscription: expired, whatever came first', async () => {
      const endFlow = ['checkout.session.completed.subscription-card', 'invoice.payment_failed', 'customer.subscription.deleted'] as const;
      const natural = await subscriptionRun(endFlow);
      expect(natural.state).toMatchObject({ everyEventRecorded: true, subscription: { status: 'expired' }, orders: [{ reason: 'initial', status: 'paid' }] });
      for (const order of permutations(endFlow)) {
        const { state } = await subscriptionRun(order);
        // The refusal's mail and count depend on whether it came before the end: the outcome does not.
        expect({ order, subscription: state.subscription?.status, orders: state.orders, recorded: state.everyEventRecorded }).toEqual({
          order,
          subscription: 'expired',
          orders: natural.state.orders,
          recorded: true,
        });
      }
    });
  });

  it('an event about a subscription or payment that is not ours is recorded and ignored, not refused', async () => {
    const { userId, tag } = await newReader();
    const subscriptionId = await insertSubscription(
      test.db,
      { userId, kind: 'plan', planId: 'mensuel', amountCents: 900, interval: 'month', vatRateBp: 210, provider: 'stripe', source: null },
      deps.clock.now(),
    );
    // Names no subscription or order of ours (a subscription made from the dashboard, another site).
    const foreign = { orderId: crypto.randomUUID(), subscriptionId: crypto.randomUUID(), tag };
    for (const name of ['invoice.paid.subscription-cycle', 'customer.subscription.deleted', 'charge.refunded']) {
      const payload = payloadFor(name, foreign);
      expect(await sendSigned(payload)).toMatchObject({ ok: true, applied: 1 });
      expect(await recorded(JSON.parse(payload).id)).toBe(true);
    }
    expect((await sub(subscriptionId)).status).toBe('incomplete');
    expect(await test.db.selectFrom('orders').select('id').where('attempt_key', '=', `invoice:in_1SfB02LkdIwHu7ixCycle001${tag}`).execute()).toEqual([]);
  });

  it('a renewal paid after Stripe ended the subscription is refunded by itself, with an invoice then a credit note', async () => {
    const { orderId, subscriptionId } = await pendingSubscription();
    await deliver('checkout.session.completed.subscription-card', orderId);
    expect((await deliver('customer.subscription.deleted', orderId)).ok).toBe(true);
    expect((await sub(subscriptionId)).status).toBe('expired');
    // The period's payment, delivered after the end.
    expect(await deliver('invoice.paid.subscription-cycle', orderId)).toMatchObject({ ok: true, applied: 1 });
    const renewal = await test.db
      .selectFrom('orders')
      .selectAll()
      .where('subscription_id', '=', subscriptionId)
      .where('reason', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(renewal).toMatchObject({ status: 'paid', payment_ref: 'in_1SfB02LkdIwHu7ixCycle001', amount_cents: 900 });
    // The subscription stays ended: no period is given for it.
    expect(await sub(subscriptionId)).toMatchObject({ status: 'expired', current_period_end: '2026-02-01T00:00:00.000Z' });

    // The refund is asked of Stripe by a job, once, with the order's key, for the invoice's payment.
    await deps.flush();
    await deps.flush();
    const refunds = api.calls.filter((c) => c.method === 'POST' && c.path === '/v1/refunds');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.idempotencyKey).toBe(`refund:${renewal.id}`);
    expect(Object.fromEntries(refunds[0]!.body)).toEqual({
      payment_intent: 'pi_of_in_1SfB02LkdIwHu7ixCycle001',
      amount: '900',
      'metadata[paymentRef]': 'in_1SfB02LkdIwHu7ixCycle001',
    });

    // Stripe tells the refund done: the renewal is refunded and its invoice cancelled by a credit note.
    expect(await deliver('refund.updated', orderId)).toMatchObject({ ok: true, applied: 1 });
    expect((await test.db.selectFrom('orders').select('status').where('id', '=', renewal.id).executeTakeFirstOrThrow()).status).toBe('refunded');
    const causes = (await test.db.selectFrom('order_events').select('cause').where('order_id', '=', renewal.id).orderBy('at').orderBy('id').execute()).map(
      (e) => e.cause,
    );
    expect(causes).toEqual(
      expect.arrayContaining([
        'Échéance prélevée par le prestataire',
        'Remboursement demandé automatiquement : paiement reçu pour un abonnement déjà terminé',
        'Remboursement effectué',
      ]),
    );
    const documents = await test.db
      .selectFrom('billing_documents')
      .select(['id', 'kind', 'total_cents', 'refers_to_id'])
      .where('order_id', '=', renewal.id)
      .orderBy('kind')
      .execute();
    expect(documents.map((d) => [d.kind, d.total_cents])).toEqual([
      ['credit_note', 900],
      ['invoice', 900],
    ]);
    expect(documents[0]!.refers_to_id).toBe(documents[1]!.id);
    expect((await sub(subscriptionId)).status).toBe('expired');
  });
});
