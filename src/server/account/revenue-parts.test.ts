/**
 * The revenue domains' parts of the account (RGPD): what the export says about orders and
 * subscriptions, and what the deletion of an account does to them — on both databases, through
 * the real support path (simulated provider, jobs).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { createUser } from '../auth/service';
import { parseBasket } from '../catalog/basket';
import { placeOrder } from '../checkout/service';
import { fakeClock } from '../core/clock';
import type { OutgoingMail } from '../mail/transport';
import { PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { ProviderError, type PaymentProvider } from '../payments/provider';
import { cancelSubscription } from '../subscriptions/service';
import { deleteAccount, exportData } from './service';

vi.setConfig({ testTimeout: 30_000 });
const PASSWORD = 'un mot de passe solide';
const billing = {
  given_name: 'Inès',
  family_name: 'Durand',
  address_line1: '3 rue du Port',
  address_line2: '',
  postal_code: '44000',
  city: 'Nantes',
  country: 'FR',
};

describeEachDialect('account: orders and subscriptions', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let userId: string;
  let otherId: string;
  let n = 0;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    sent = [];
    ({ clock, deps, provider } = revenueWorld(test.db, { now: new Date('2026-11-23T10:00:00Z'), onMail: (mail) => sent.push(mail), sepaDelayMs: 0 }));
    userId = await createUser(test.db, { email: `rgpd${++n}@exemple.fr`, password: PASSWORD, now: clock.now() });
    otherId = await createUser(test.db, { email: `voisin${n}@exemple.fr`, password: PASSWORD, now: clock.now() });
  });

  /** Pays an offer by card through the support path; answers the order and its subscription. */
  async function pay(owner: string, values: Record<string, string>) {
    const basket = parseBasket(values);
    if (!basket.ok) throw new Error(basket.message);
    const placed = await placeOrder(deps, owner, basket.basket, 'printemps', {
      ...billing,
      methode: 'card',
      cgv: true,
      demarrage_immediat: true,
      tentative: randomUUID(),
    });
    if (!placed.ok) throw new Error(placed.message);
    clock.advance(1000);
    await submitSimulatedSession(provider, new URL(placed.url).pathname.split('/').pop()!, {
      action: 'pay',
      number: '4242424242424242',
      delivery: PROMPT_DELIVERY,
    });
    await deps.flush();
    // Each step at its own time: histories are ordered by time.
    clock.advance(1000);
    const order = await test.db.selectFrom('orders').selectAll().where('id', '=', placed.orderId).executeTakeFirstOrThrow();
    return { orderId: order.id, subscriptionId: order.subscription_id! };
  }

  const subRow = (id: string) => test.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const orderRow = (id: string) => test.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('exports the reader’s orders and subscriptions with their histories, says why orders are kept, and no internal key', async () => {
    const plan = await pay(userId, { formule: 'mensuel' });
    const gift = await pay(userId, { don: '1500', frequence: 'mensuel' });
    await pay(otherId, { formule: 'annuel' });
    await cancelSubscription(deps, userId, plan.subscriptionId);

    const data = (await exportData(deps, userId))!;
    const subscriptions = data.subscriptions as Array<Record<string, unknown> & { history: Array<{ type: string }> }>;
    expect(subscriptions.map((s) => [s.id, s.label, s.status, s.cancel_at_period_end])).toEqual([
      [plan.subscriptionId, 'Abonnement Mensuel', 'active', true],
      [gift.subscriptionId, 'Don mensuel de 15\u00a0€', 'active', false],
    ]);
    expect(subscriptions[0]!.history.map((e) => e.type)).toEqual(['created', 'started', 'cancel-requested']);
    expect(subscriptions[0]).toMatchObject({ payment_method: 'Carte •••• 4242', current_period_end: '2026-12-23T10:00:01.000Z', source: 'printemps' });

    const orders = data.orders as { note: string; orders: Array<Record<string, unknown> & { history: Array<{ to: string }> }>; payment_providers: unknown[] };
    expect(orders.note).toContain('article L. 123-22 du Code de commerce');
    expect(orders.note).toContain('jamais conservés par Contrechamp');
    expect(orders.orders.map((o) => o.id)).toEqual([plan.orderId, gift.orderId]);
    expect(orders.orders[0]).toMatchObject({
      description: 'Abonnement Mensuel',
      amount_cents: 700,
      vat_cents: 14,
      status: 'paid',
      billing_name: 'Inès Durand',
      billing_address: { line1: '3 rue du Port', city: 'Nantes' },
    });
    expect(orders.orders[0]!.history.map((e) => e.to)).toEqual(['pending', 'paid']);
    expect(orders.payment_providers).toEqual([{ provider: 'simulated', since: expect.any(String) }]);

    // The provider's internal references and the form's attempt key stay out.
    const text = JSON.stringify({ subscriptions, orders });
    expect(text).not.toMatch(/cus_sim_|cs_sim_|checkout:|attempt_key|checkout_ref|customer_ref|provider_event/);
  });

  it('an account deleted: what runs ends at once, orders stay detached with their billing name, the customer link goes; the neighbour keeps everything', async () => {
    const plan = await pay(userId, { formule: 'mensuel' });
    const gift = await pay(userId, { don: '1000', frequence: 'mensuel' });
    const neighbour = await pay(otherId, { formule: 'mensuel' });
    sent = [];

    expect(await deleteAccount(deps, { userId, password: PASSWORD })).toEqual({ ok: true });
    for (const id of [plan.subscriptionId, gift.subscriptionId]) {
      expect(await subRow(id)).toMatchObject({ user_id: null, status: 'canceled', ended_at: '2026-11-23T10:00:06.000Z' });
    }
    const events = await test.db
      .selectFrom('subscription_events')
      .select(['type', 'from_status', 'to_status'])
      .where('subscription_id', '=', plan.subscriptionId)
      .orderBy('at')
      .orderBy('id')
      .execute();
    expect(events.at(-1)).toEqual({ type: 'account-deleted', from_status: 'active', to_status: 'canceled' });
    expect(await orderRow(plan.orderId)).toMatchObject({ user_id: null, status: 'paid', billing_name: 'Inès Durand', amount_cents: 700 });
    expect(await test.db.selectFrom('payment_customers').select('provider').where('user_id', '=', userId).execute()).toEqual([]);
    // The simulated provider runs no subscription of its own: nothing to tell it.
    expect(await test.db.selectFrom('jobs').select('id').where('kind', '=', 'subscriptions.end-at-provider').execute()).toEqual([]);

    // Nothing more is charged, and the only mail is the deletion's acknowledgement.
    clock.set(new Date('2026-12-24T10:00:00Z'));
    await deps.flush();
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', 'in', [plan.subscriptionId, gift.subscriptionId]).execute()).toHaveLength(
      2,
    );
    expect(sent.filter((m) => m.to === `rgpd${n}@exemple.fr`).map((m) => m.template)).toEqual(['account-deleted']);

    // The neighbour's subscription renewed as usual.
    expect(await subRow(neighbour.subscriptionId)).toMatchObject({ user_id: otherId, status: 'active', current_period_end: '2027-01-23T10:00:05.000Z' });
    expect(await test.db.selectFrom('payment_customers').select('provider').where('user_id', '=', otherId).execute()).toHaveLength(1);
  });

  it('an ended subscription is only detached; its history stays as it was', async () => {
    const plan = await pay(userId, { formule: 'mensuel' });
    await test.db.updateTable('subscriptions').set({ status: 'expired', ended_at: '2026-11-20T10:00:00.000Z' }).where('id', '=', plan.subscriptionId).execute();
    const before = await test.db.selectFrom('subscription_events').select('id').where('subscription_id', '=', plan.subscriptionId).execute();
    expect(await deleteAccount(deps, { userId, password: PASSWORD })).toEqual({ ok: true });
    expect(await subRow(plan.subscriptionId)).toMatchObject({ user_id: null, status: 'expired', ended_at: '2026-11-20T10:00:00.000Z' });
    expect(await test.db.selectFrom('subscription_events').select('id').where('subscription_id', '=', plan.subscriptionId).execute()).toHaveLength(
      before.length,
    );
  });

  /** The simulated provider, as if it ran the renewals (like Stripe), recording what it is told. */
  function renewingProvider(failFirst = 0) {
    const ended: Array<[string, string]> = [];
    const updated: unknown[] = [];
    let failures = failFirst;
    const fake: PaymentProvider = {
      ...provider,
      runsRenewals: true,
      updateSubscription: async (change) => {
        updated.push(change);
      },
      postponeRenewal: async () => {},
      cancelSubscriptionNow: async (ref, key) => {
        if (failures-- > 0) throw new ProviderError('indisponible');
        ended.push([ref, key]);
      },
    };
    deps.payments = fake;
    return { ended, updated };
  }

  it('with a provider that runs the renewals, the deletion tells it to end the subscription, retrying until it answers', async () => {
    const plan = await pay(userId, { formule: 'mensuel' });
    await test.db
      .updateTable('subscriptions')
      .set({ provider_ref: `sub_${plan.subscriptionId}` })
      .where('id', '=', plan.subscriptionId)
      .execute();
    const told = renewingProvider(1);
    expect(await deleteAccount(deps, { userId, password: PASSWORD })).toEqual({ ok: true });
    expect(await subRow(plan.subscriptionId)).toMatchObject({ user_id: null, status: 'canceled' });
    await deps.flush();
    expect(told.ended).toEqual([[`sub_${plan.subscriptionId}`, `cancel-now:${plan.subscriptionId}`]]);
  });

  it('a cancellation in arrears ends the provider’s subscription now (no retry of the unpaid period), not at period end', async () => {
    const plan = await pay(userId, { formule: 'mensuel' });
    await test.db
      .updateTable('subscriptions')
      .set({ provider_ref: `sub_${plan.subscriptionId}`, status: 'past_due' })
      .where('id', '=', plan.subscriptionId)
      .execute();
    const told = renewingProvider();
    expect(await cancelSubscription(deps, userId, plan.subscriptionId)).toMatchObject({ ok: true, endsAt: clock.now() });
    expect(told.ended).toEqual([[`sub_${plan.subscriptionId}`, `cancel-now:${plan.subscriptionId}`]]);
    expect(told.updated).toEqual([]);
    expect(await subRow(plan.subscriptionId)).toMatchObject({ status: 'canceled' });
  });

  it('a cancellation in arrears changes nothing when the provider does not answer', async () => {
    const plan = await pay(userId, { formule: 'mensuel' });
    await test.db
      .updateTable('subscriptions')
      .set({ provider_ref: `sub_${plan.subscriptionId}`, status: 'past_due' })
      .where('id', '=', plan.subscriptionId)
      .execute();
    renewingProvider(1);
    expect(await cancelSubscription(deps, userId, plan.subscriptionId)).toMatchObject({ ok: false, status: 503 });
    expect(await subRow(plan.subscriptionId)).toMatchObject({ status: 'past_due', cancel_at_period_end: 0 });
  });
});
