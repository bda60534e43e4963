/**
 * The Stripe adapter wired to the domain: signed fixture events (the SDK's own test signature)
 * delivered to the webhook entry move a real order and subscription, replays change nothing, and
 * a renewal, a refused renewal and the end of the subscription follow Stripe's word.
 */
import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
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
const signer = new Stripe('sk_test_signer');

describeEachDialect('Stripe webhooks applied', (kind) => {
  let test: TestDatabase;
  let deps: ReturnType<typeof withJobs>;
  let sent: OutgoingMail[];
  beforeAll(async () => { test = await createTestDatabase(kind); });
  afterAll(async () => { await test.close(); });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    await test.db.deleteFrom('provider_events').execute();
    await test.db.deleteFrom('orders').execute();
    await test.db.deleteFrom('subscriptions').execute();
    sent = [];
    const mailer: Mailer = { send: async (mail) => { sent.push(mail); return { messageId: 'x' }; } };
    const siteUrl = new URL('https://contrechamp.example');
    deps = withJobs({ db: test.db, mailer, clock: fakeClock(new Date('2026-01-01T00:00:00Z')), siteUrl, payments: createStripeProvider({ secretKey: 'sk_test_x', webhookSecret: SECRET, siteUrl }) });
  });

  const deliver = (fixture: string, orderId: string) => {
    const payload = readFileSync(new URL(`../../../tests/fixtures/stripe/${fixture}.json`, import.meta.url), 'utf8').replaceAll(FIXTURE_ORDER, orderId);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    return handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(payload), new Headers({ 'stripe-signature': header }));
  };

  async function pendingSubscription() {
    const now = deps.clock.now();
    const userId = await createUser(test.db, { email: `stripe-${crypto.randomUUID()}@exemple.fr`, password: 'un mot de passe solide', now });
    const subscriptionId = await insertSubscription(test.db, { userId, kind: 'plan', planId: 'mensuel', amountCents: 900, interval: 'month', vatRateBp: 210, provider: 'stripe', source: null }, now);
    const { order } = await insertOrder(test.db, { userId, purpose: 'subscription', reason: 'initial', offerId: 'mensuel', description: 'Abonnement Mensuel', interval: 'month', amountCents: 900, vatRateBp: 210, vatCents: 19, source: null, method: 'card', provider: 'stripe', subscriptionId, attemptKey: crypto.randomUUID() }, now);
    return { orderId: order.id, subscriptionId };
  }
  const sub = (id: string) => test.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('a completed checkout starts the subscription once; the cycle invoice renews it; a replay changes nothing', async () => {
    const { orderId, subscriptionId } = await pendingSubscription();
    for (let i = 0; i < 3; i++) expect(await deliver('checkout.session.completed.subscription-card', orderId)).toMatchObject({ ok: true, applied: i === 0 ? 1 : 0 });
    expect(await sub(subscriptionId)).toMatchObject({ status: 'active', provider_ref: 'sub_1SfGh2LkdIwHu7ixQm8pZr4c' });
    expect((await test.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status).toBe('paid');

    for (let i = 0; i < 3; i++) expect((await deliver('invoice.paid.subscription-cycle', orderId)).ok).toBe(true);
    const orders = await test.db.selectFrom('orders').select(['reason', 'status', 'amount_cents']).where('subscription_id', '=', subscriptionId).orderBy('created_at').execute();
    expect(orders).toEqual([{ reason: 'initial', status: 'paid', amount_cents: 900 }, { reason: 'renewal', status: 'paid', amount_cents: 900 }]);
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
    const payload = readFileSync(new URL('../../../tests/fixtures/stripe/checkout.session.completed.subscription-card.json', import.meta.url), 'utf8').replaceAll(FIXTURE_ORDER, orderId).replace('"amount_total": 900', '"amount_total": 100');
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect(await handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(payload), new Headers({ 'stripe-signature': header }))).toMatchObject({ ok: true });
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
    const payload = readFileSync(new URL('../../../tests/fixtures/stripe/checkout.session.completed.subscription-card.json', import.meta.url), 'utf8').replaceAll(FIXTURE_ORDER, orderId);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(await handlePaymentWebhook(deps, 'stripe', new TextEncoder().encode(payload), new Headers({ 'stripe-signature': header }))).toMatchObject({ ok: false, status: 400 });
    expect((await test.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status).toBe('pending');
  });
});
