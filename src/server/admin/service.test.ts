/**
 * The back-office on both databases, with the simulated provider and the real job machinery:
 * search by e-mail, a refund asked once and confirmed by the provider's event, refusals, the
 * cancellation on a reader's behalf, the revenue report across Paris months and sources, failed
 * jobs relaunched, and nothing of it for someone who is not an administrator.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { createUser } from '../auth/service';
import { parseBasket } from '../catalog/basket';
import { placeOrder } from '../checkout/service';
import { fakeClock } from '../core/clock';
import { type OrderStatus, toTimestamp } from '../db/database';
import { enqueue } from '../jobs/queue';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { insertOrder } from '../orders/repository';
import { PROMPT_DELIVERY, submitSimulatedSession } from '../payments/simulated';
import { isAdmin } from './guard';
import {
  cancelSubscriptionForReader,
  failedJobs,
  monthLabel,
  NO_SOURCE_LABEL,
  parisMonth,
  refundOrder,
  retryJob,
  revenueReport,
  searchOrders,
  searchSubscriptions,
} from './service';

vi.setConfig({ testTimeout: 30_000 });

describe('the back-office guard', () => {
  it('opens to administrators only, not to the newsroom nor to readers', () => {
    expect(isAdmin({ role: 'admin' })).toBe(true);
    expect(isAdmin({ role: 'editor' })).toBe(false);
    expect(isAdmin({ role: 'reader' })).toBe(false);
  });
});

describe('Paris months', () => {
  it('puts a payment in the month it was in Paris, across the daylight-saving changes', () => {
    expect(parisMonth(new Date('2026-10-31T23:30:00Z'))).toBe('2026-11');
    expect(parisMonth(new Date('2026-11-30T22:59:59Z'))).toBe('2026-11');
    expect(parisMonth(new Date('2026-11-30T23:00:00Z'))).toBe('2026-12');
    expect(parisMonth(new Date('2026-06-30T21:59:59Z'))).toBe('2026-06');
    expect(parisMonth(new Date('2026-06-30T22:00:00Z'))).toBe('2026-07');
    expect(monthLabel('2026-12')).toBe('décembre 2026');
  });
});

describeEachDialect('back-office', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let adminId: string;
  let readerId: string;
  let editorId: string;
  let n = 0;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    for (const table of [
      'order_events',
      'orders',
      'subscription_events',
      'subscriptions',
      'jobs',
      'provider_events',
      'simulated_charges',
      'simulated_sessions',
    ] as const) {
      await test.db.deleteFrom(table).execute();
    }
    sent = [];
    clock = fakeClock(new Date('2026-11-23T10:00:00Z'));
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
    n++;
    adminId = await createUser(test.db, { email: `admin${n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    readerId = await createUser(test.db, { email: `lecteur${n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    editorId = await createUser(test.db, { email: `redaction${n}@exemple.fr`, password: 'un mot de passe solide', role: 'editor', now: clock.now() });
  });

  const orderRow = (id: string) => test.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const eventsOf = (id: string) => test.db.selectFrom('order_events').selectAll().where('order_id', '=', id).orderBy('at').orderBy('id').execute();
  const refundsAtProvider = () => test.db.selectFrom('simulated_charges').selectAll().where('status', '=', 'refund').execute();

  /** A subscriber who paid a monthly subscription through the support path and the simulated provider's page. */
  async function subscriber(email = `Abonnee${n}@Exemple.fr`, source?: string) {
    const userId = await createUser(test.db, { email, password: 'un mot de passe solide', givenName: 'Agnès', familyName: 'Abonnée', now: clock.now() });
    const basket = parseBasket({ formule: 'mensuel' });
    if (!basket.ok) throw new Error(basket.message);
    const placed = await placeOrder(deps, userId, basket.basket, source, {
      given_name: 'Agnès',
      family_name: 'Abonnée',
      address_line1: '8 rue des Lilas',
      address_line2: '',
      postal_code: '69003',
      city: 'Lyon',
      country: 'FR',
      methode: 'card',
      cgv: true,
      demarrage_immediat: true,
      tentative: randomUUID(),
    });
    if (!placed.ok) throw new Error(placed.message);
    // Histories are ordered by time: each step a little later, as in life.
    clock.advance(1000);
    const session = new URL(placed.url).pathname.split('/').pop()!;
    await submitSimulatedSession(deps.payments as never, session, { action: 'pay', number: '4242 4242 4242 4242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    const order = await orderRow(placed.orderId);
    expect(order.status).toBe('paid');
    clock.advance(1000);
    return { userId, orderId: placed.orderId, subscriptionId: order.subscription_id! };
  }

  /** An order written as it would stand after its events (for sums and refusals). */
  async function orderOf(
    userId: string,
    over: { status: OrderStatus; paidAt?: string; amountCents?: number; source?: string | null; paymentRef?: string | null; createdAt?: string },
  ) {
    const created = new Date(over.createdAt ?? over.paidAt ?? clock.now().toISOString());
    const { order } = await insertOrder(
      test.db,
      {
        userId,
        purpose: 'donation',
        reason: 'initial',
        offerId: 'don',
        description: 'Don',
        interval: null,
        amountCents: over.amountCents ?? 1000,
        vatRateBp: 0,
        vatCents: 0,
        source: over.source ?? null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: randomUUID(),
        status: over.status,
        paymentRef: over.paymentRef === undefined ? (over.status === 'paid' || over.status === 'refunded' ? `ch_sim_${randomUUID()}` : null) : over.paymentRef,
        paidAt: over.paidAt ? new Date(over.paidAt) : null,
      },
      created,
    );
    return order.id;
  }

  describe('search', () => {
    it('finds orders by exact address or its beginning, whatever the case, newest first, with their histories and their owner', async () => {
      const { userId, orderId } = await subscriber();
      clock.advance(60_000);
      const later = await orderOf(userId, { status: 'pending' });
      await orderOf(readerId, { status: 'paid', paidAt: '2026-11-20T10:00:00Z' });

      for (const query of [`abonnee${n}@exemple.fr`, `ABONNEE${n}@EXEMPLE.FR`, `  Abonnee${n}@`, `abonnee${n}`]) {
        const found = await searchOrders(deps, adminId, query);
        if (!found.ok) throw new Error(found.message);
        expect(
          found.orders.map((o) => o.order.id),
          query,
        ).toEqual([later, orderId]);
      }
      const found = await searchOrders(deps, adminId, `abonnee${n}@exemple.fr`);
      if (!found.ok) throw new Error(found.message);
      const paid = found.orders[1]!;
      expect(paid.person).toEqual({ id: userId, email: `abonnee${n}@exemple.fr`, name: 'Agnès Abonnée' });
      expect(paid.events.map((e) => [e.from, e.to])).toEqual([
        [null, 'pending'],
        ['pending', 'paid'],
      ]);
      expect(paid.events[1]!.cause).toBe('Paiement reçu (Carte •••• 4242)');
      expect(paid.refund).toEqual({ can: true });
      expect(found.orders[0]!.refund).toMatchObject({ can: false, requested: false });
    });

    it('finds an order by the reference its owner reads in a mail, however it is typed', async () => {
      const { orderId } = await subscriber();
      await orderOf(readerId, { status: 'paid', paidAt: '2026-11-20T10:00:00Z' });
      const { reference } = await test.db.selectFrom('orders').select('reference').where('id', '=', orderId).executeTakeFirstOrThrow();
      for (const query of [reference, reference.toLowerCase().replace('-', ' '), ` ${reference.replace('-', '')} `]) {
        const found = await searchOrders(deps, adminId, query);
        if (!found.ok) throw new Error(found.message);
        expect(
          found.orders.map((o) => o.order.id),
          query,
        ).toEqual([orderId]);
        expect(found.orders[0]!.order.reference).toBe(reference);
      }
    });

    it('finds subscriptions with their histories; an address that does not match finds nothing; wildcards are letters', async () => {
      const { subscriptionId } = await subscriber();
      const found = await searchSubscriptions(deps, adminId, `ABONNEE${n}@exemple`);
      if (!found.ok) throw new Error(found.message);
      expect(found.subscriptions).toHaveLength(1);
      expect(found.subscriptions[0]).toMatchObject({
        label: 'Abonnement Mensuel',
        cancelable: true,
        person: { email: `abonnee${n}@exemple.fr` },
        subscription: { id: subscriptionId, status: 'active' },
      });
      expect(found.subscriptions[0]!.events.map((e) => e.type)).toEqual(['created', 'started']);

      for (const query of ['%@exemple.fr', `abonnee${n}%`, `_bonnee${n}@`, 'personne@exemple.fr']) {
        const none = await searchSubscriptions(deps, adminId, query);
        expect(none.ok && none.subscriptions, query).toEqual([]);
      }
      expect(await searchOrders(deps, adminId, 'a')).toMatchObject({ ok: false, status: 422 });
      expect(await searchOrders(deps, adminId, 'abonnee @exemple.fr')).toMatchObject({ ok: false, status: 422 });
    });
  });

  describe('refunds', () => {
    it('a paid order refunded twice (a double click, even at once) is refunded once; it becomes « remboursée » when the provider confirms', async () => {
      const { orderId } = await subscriber();
      const refund = vi.spyOn(deps.payments, 'refund');
      const first = await refundOrder(deps, orderId, adminId, 'Rétractation dans les 14 jours');
      expect(first).toMatchObject({ ok: true, message: expect.stringMatching(/^Remboursement demandé/) });
      expect(refund).toHaveBeenCalledWith({ paymentRef: (await orderRow(orderId)).payment_ref, amountCents: 700, idempotencyKey: `refund:${orderId}` });

      // Asked, not made: still paid until the provider's event.
      expect((await orderRow(orderId)).status).toBe('paid');
      const again = await refundOrder(deps, orderId, adminId, 'Rétractation dans les 14 jours');
      expect(again).toMatchObject({ ok: true, message: expect.stringMatching(/^Remboursement demandé/) });
      const search = await searchOrders(deps, adminId, `abonnee${n}@exemple.fr`);
      expect(search.ok && search.orders[0]!.refund).toMatchObject({ can: false, requested: true });

      await deps.flush();
      expect((await orderRow(orderId)).status).toBe('refunded');
      expect(await refundsAtProvider()).toHaveLength(1);
      const events = await eventsOf(orderId);
      expect(events.filter((e) => e.cause.startsWith('Remboursement demandé'))).toEqual([
        expect.objectContaining({
          from_status: 'paid',
          to_status: 'paid',
          cause: `Remboursement demandé par admin${n}@exemple.fr : Rétractation dans les 14 jours`,
        }),
      ]);
      expect(events.filter((e) => e.to_status === 'refunded')).toEqual([expect.objectContaining({ from_status: 'paid', cause: 'Remboursement effectué' })]);

      // Once refunded, refused.
      expect(await refundOrder(deps, orderId, adminId, 'encore')).toMatchObject({ ok: false, status: 409, message: 'Commande remboursée.' });
      expect(await refundsAtProvider()).toHaveLength(1);
    });

    it('two administrators at once: one refund at the provider, one note', async () => {
      const { orderId } = await subscriber();
      const [a, b] = await Promise.all([
        refundOrder(deps, orderId, adminId, 'Doublon de paiement'),
        refundOrder(deps, orderId, adminId, 'Doublon de paiement'),
      ]);
      expect(a.ok && b.ok).toBe(true);
      await deps.flush();
      expect(await refundsAtProvider()).toHaveLength(1);
      expect((await eventsOf(orderId)).filter((e) => e.cause.startsWith('Remboursement demandé'))).toHaveLength(1);
      expect((await orderRow(orderId)).status).toBe('refunded');
    });

    it('a provider that confirms before the request is noted: the order is refunded and the note kept, who and why', async () => {
      const { orderId } = await subscriber();
      const refund = deps.payments.refund.bind(deps.payments);
      // The notification delivered and applied before refundOrder writes its note.
      deps.payments.refund = async (payment) => {
        await refund(payment);
        await deps.flush();
      };
      expect(await refundOrder(deps, orderId, adminId, 'Client mécontent')).toMatchObject({ ok: true });
      expect((await orderRow(orderId)).status).toBe('refunded');
      const events = await eventsOf(orderId);
      expect(events.filter((e) => e.cause.startsWith('Remboursement demandé'))).toEqual([
        expect.objectContaining({ from_status: 'refunded', to_status: 'refunded', cause: `Remboursement demandé par admin${n}@exemple.fr : Client mécontent` }),
      ]);
      expect(events.filter((e) => e.to_status === 'refunded' && e.from_status === 'paid')).toHaveLength(1);
      expect(await refundsAtProvider()).toHaveLength(1);
    });

    it('refuses an order that is not paid, one without a payment, an unknown one, and a missing reason, asking nothing of the provider', async () => {
      const refund = vi.spyOn(deps.payments, 'refund');
      const pending = await orderOf(readerId, { status: 'pending' });
      const failed = await orderOf(readerId, { status: 'failed' });
      const noPayment = await orderOf(readerId, { status: 'paid', paidAt: '2026-11-20T10:00:00Z', paymentRef: null });
      const paid = await orderOf(readerId, { status: 'paid', paidAt: '2026-11-20T10:00:00Z' });
      expect(await refundOrder(deps, pending, adminId, 'Erreur')).toMatchObject({
        ok: false,
        status: 409,
        message: expect.stringContaining('Seule une commande payée'),
      });
      expect(await refundOrder(deps, failed, adminId, 'Erreur')).toMatchObject({ ok: false, status: 409 });
      expect(await refundOrder(deps, noPayment, adminId, 'Erreur')).toMatchObject({
        ok: false,
        status: 409,
        message: expect.stringContaining('Aucun paiement'),
      });
      expect(await refundOrder(deps, randomUUID(), adminId, 'Erreur')).toMatchObject({ ok: false, status: 404 });
      expect(await refundOrder(deps, paid, adminId, '  ')).toMatchObject({ ok: false, status: 422 });
      expect(refund).not.toHaveBeenCalled();
      expect((await orderRow(pending)).status).toBe('pending');
      expect(await eventsOf(paid)).toHaveLength(1);
    });
  });

  describe('subscriptions', () => {
    it('an administrator ends a subscription at once on the reader’s behalf, with the reason in its history and a mail to the reader', async () => {
      const { subscriptionId } = await subscriber();
      sent = [];
      const done = await cancelSubscriptionForReader(deps, subscriptionId, adminId, 'Demande écrite du 20 novembre');
      expect(done).toMatchObject({ ok: true });
      await deps.flush();
      const sub = await test.db.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirstOrThrow();
      expect(sub).toMatchObject({ status: 'canceled', ended_at: toTimestamp(clock.now()) });
      const events = await test.db
        .selectFrom('subscription_events')
        .selectAll()
        .where('subscription_id', '=', subscriptionId)
        .orderBy('at')
        .orderBy('id')
        .execute();
      expect(events.at(-1)).toMatchObject({
        type: 'canceled-by-staff',
        from_status: 'active',
        to_status: 'canceled',
        detail: `Résilié par l’administration (admin${n}@exemple.fr) : Demande écrite du 20 novembre`,
      });
      expect(sent.map((m) => m.to)).toEqual([`abonnee${n}@exemple.fr`]);

      expect(await cancelSubscriptionForReader(deps, subscriptionId, adminId, 'Encore')).toMatchObject({ ok: false, status: 409 });
      expect(await cancelSubscriptionForReader(deps, randomUUID(), adminId, 'Inconnu')).toMatchObject({ ok: false, status: 404 });
      const found = await searchSubscriptions(deps, adminId, `abonnee${n}@`);
      expect(found.ok && found.subscriptions[0]!.cancelable).toBe(false);
    });
  });

  describe('revenue', () => {
    it('sums paid orders by Paris month and by source, refunded ones apart, pending and failed ones not at all', async () => {
      // November in Paris: from 2026-10-31T23:00Z to 2026-11-30T23:00Z.
      await orderOf(readerId, { status: 'paid', paidAt: '2026-10-31T23:30:00Z', amountCents: 700, source: 'printemps' });
      await orderOf(readerId, { status: 'paid', paidAt: '2026-11-15T12:00:00Z', amountCents: 1000, source: null });
      await orderOf(readerId, { status: 'refunded', paidAt: '2026-11-20T12:00:00Z', amountCents: 5000, source: 'printemps' });
      await orderOf(readerId, { status: 'paid', paidAt: '2026-11-30T23:30:00Z', amountCents: 7000, source: 'printemps' });
      await orderOf(readerId, { status: 'paid', paidAt: '2026-12-02T08:00:00Z', amountCents: 1000, source: null });
      await orderOf(readerId, { status: 'pending', amountCents: 99900, source: 'printemps' });
      await orderOf(readerId, { status: 'failed', amountCents: 99900, source: null });

      const result = await revenueReport(deps, adminId);
      if (!result.ok) throw new Error(result.message);
      const { months, sources, total } = result.report;
      expect(months).toEqual([
        { key: '2026-12', label: 'décembre 2026', paid: { count: 2, cents: 8000 }, refunded: { count: 0, cents: 0 } },
        { key: '2026-11', label: 'novembre 2026', paid: { count: 2, cents: 1700 }, refunded: { count: 1, cents: 5000 } },
      ]);
      expect(sources).toEqual([
        { key: 'printemps', label: 'printemps', paid: { count: 2, cents: 7700 }, refunded: { count: 1, cents: 5000 } },
        { key: '', label: NO_SOURCE_LABEL, paid: { count: 2, cents: 2000 }, refunded: { count: 0, cents: 0 } },
      ]);
      expect(total).toMatchObject({ paid: { count: 4, cents: 9700 }, refunded: { count: 1, cents: 5000 } });
    });

    it('is empty, not broken, before the first payment', async () => {
      const result = await revenueReport(deps, adminId);
      expect(result).toMatchObject({ ok: true, report: { months: [], sources: [], total: { paid: { count: 0, cents: 0 } } } });
    });
  });

  describe('failed jobs', () => {
    it('lists failed jobs without their payload and relaunches one, once', async () => {
      const { id } = await enqueue(test.db, { kind: 'orders.reconcile', payload: { orderId: 'lea@exemple.fr' } }, { clock });
      await test.db
        .updateTable('jobs')
        .set({ status: 'failed', attempts: 5, last_error: 'Error: boom', finished_at: toTimestamp(clock.now()) })
        .where('id', '=', id)
        .execute();
      const listed = await failedJobs(deps, adminId);
      expect(listed).toMatchObject({ ok: true, jobs: [{ id, kind: 'orders.reconcile', attempts: 5, maxAttempts: 5, lastError: 'Error: boom' }] });
      expect(JSON.stringify(listed)).not.toContain('lea@exemple.fr');

      clock.advance(60_000);
      const wakes = deps.wakes;
      expect(await retryJob(deps, id, adminId)).toMatchObject({ ok: true });
      expect(deps.wakes).toBe(wakes + 1);
      expect(await test.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toMatchObject({
        status: 'pending',
        run_at: toTimestamp(clock.now()),
      });
      expect(await retryJob(deps, id, adminId)).toMatchObject({ ok: false, status: 409 });
      // It ran (an unknown order is settled at once): gone from the list.
      await deps.flush();
      expect(await failedJobs(deps, adminId)).toMatchObject({ ok: true, jobs: [] });
    });
  });

  describe('someone who is not an administrator', () => {
    it('can neither read nor change anything, whatever id they send', async () => {
      const { orderId, subscriptionId } = await subscriber();
      const { id: jobId } = await enqueue(test.db, { kind: 'orders.reconcile', payload: { orderId } }, { clock });
      await test.db.updateTable('jobs').set({ status: 'failed' }).where('id', '=', jobId).execute();
      const refund = vi.spyOn(deps.payments, 'refund');
      for (const actor of [readerId, editorId, randomUUID()]) {
        const refused = { ok: false, status: 403 };
        expect(await searchOrders(deps, actor, `abonnee${n}@exemple.fr`)).toMatchObject(refused);
        expect(await searchSubscriptions(deps, actor, `abonnee${n}@exemple.fr`)).toMatchObject(refused);
        expect(await refundOrder(deps, orderId, actor, 'Je me rembourse')).toMatchObject(refused);
        expect(await cancelSubscriptionForReader(deps, subscriptionId, actor, 'Je résilie')).toMatchObject(refused);
        expect(await revenueReport(deps, actor)).toMatchObject(refused);
        expect(await failedJobs(deps, actor)).toMatchObject(refused);
        expect(await retryJob(deps, jobId, actor)).toMatchObject(refused);
      }
      await deps.flush();
      expect(refund).not.toHaveBeenCalled();
      expect((await orderRow(orderId)).status).toBe('paid');
      expect((await test.db.selectFrom('subscriptions').select('status').where('id', '=', subscriptionId).executeTakeFirstOrThrow()).status).toBe('active');
      expect((await test.db.selectFrom('jobs').select('status').where('id', '=', jobId).executeTakeFirstOrThrow()).status).toBe('failed');
    });
  });
});
