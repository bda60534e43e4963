/**
 * Reader revenue end to end at the service level, on both databases, with the simulated
 * provider and the real job machinery: the support path, the provider's page, its signed
 * webhooks (replayed, shuffled, forged), the subscription lifecycle and the owner's actions.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { TEST_WEBHOOK_KEY, withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { fakeClock } from '../core/clock';
import type { OutgoingMail } from '../mail/transport';
import {
  PROMPT_DELIVERY,
  SIMULATED_SIGNATURE_HEADER,
  signSimulated,
  submitSimulatedSession,
  type Delivery,
  type SimulatedProvider,
} from '../payments/simulated';
import { cancelSubscription, changeDonationAmount, changePlan, resumeSubscription, subscriptionDetail } from '../subscriptions/service';
import { summarize } from '../subscriptions/owner-view';
import { findSubscription } from '../subscriptions/repository';
import { confirmation, donationThanks, donationThanksPath, type CheckoutInput, handlePaymentWebhook, placeOrder } from './service';

vi.setConfig({ testTimeout: 30_000 });
const DAY = 24 * 3600_000;

const billing = {
  given_name: 'Inès',
  family_name: 'Durand',
  address_line1: '3 rue du Port',
  address_line2: '',
  postal_code: '44000',
  city: 'Nantes',
  country: 'FR',
};
const form = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
  ...billing,
  methode: 'card',
  cgv: true,
  demarrage_immediat: true,
  tentative: randomUUID(),
  ...over,
});
const basketOf = (values: Record<string, string>): Basket => {
  const parsed = parseBasket(values);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.basket;
};

describeEachDialect('reader revenue', (kind) => {
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
    ({ clock, deps, provider } = revenueWorld(test.db, { now: new Date('2026-11-23T10:00:00Z'), onMail: (mail) => sent.push(mail) }));
    userId = await createUser(test.db, { email: `payeur${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    otherId = await createUser(test.db, { email: `autre${n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  });

  const sessionOf = (url: string) => new URL(url, 'https://contrechamp.example').pathname.split('/').pop()!;
  const subjects = () => sent.map((m) => m.subject);

  async function pay(values: Record<string, string>, number: string, options: { delivery?: Delivery; input?: Partial<CheckoutInput>; source?: string } = {}) {
    const placed = await placeOrder(
      deps,
      userId,
      basketOf(values),
      options.source,
      form({ methode: number.startsWith('FR') ? 'sepa_debit' : 'card', ...options.input }),
    );
    if (!placed.ok) throw new Error(placed.message);
    const submitted = await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number, delivery: options.delivery ?? PROMPT_DELIVERY });
    await deps.flush();
    return { orderId: placed.orderId, submitted };
  }

  const orderRow = (id: string) => test.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const subOf = async (orderId: string) =>
    test.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', (await orderRow(orderId)).subscription_id!)
      .executeTakeFirstOrThrow();

  it('a monthly subscription paid by card: order paid, subscription active for a month, source kept, two mails', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4242 4242 4242 4242', { source: 'printemps' });
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'paid', amount_cents: 700, vat_rate_bp: 210, vat_cents: 14, source: 'printemps', method: 'card' });
    const sub = await subOf(orderId);
    expect(sub).toMatchObject({ status: 'active', plan_id: 'mensuel', payment_method: 'Carte •••• 4242', source: 'printemps' });
    expect(sub.current_period_end).toBe('2026-12-23T10:00:00.000Z');
    expect(sent.map((m) => m.to)).toEqual([`payeur${n}@exemple.fr`, `payeur${n}@exemple.fr`]);
    expect((await confirmation(deps, userId, orderId))?.state).toBe('paid');
  });

  it('the withdrawal waiver is a choice: without it the order is accepted, the right is kept on the record and in the mail', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4242 4242 4242 4242', { input: { demarrage_immediat: false } });
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: 'paid', immediate_start_at: null });
    expect(order.terms_accepted_at).not.toBeNull();
    expect((await subOf(orderId)).status).toBe('active');
    const welcome = sent.find((m) => m.subject.startsWith('Bienvenue'))!;
    expect(welcome.text).toMatch(/Vous conservez votre droit de rétractation/);
    expect(welcome.text).not.toMatch(/commencé immédiatement/);

    const waived = await pay({ formule: 'mensuel' }, '4242 4242 4242 4242', { input: { demarrage_immediat: true } });
    expect((await orderRow(waived.orderId)).immediate_start_at).not.toBeNull();
    expect(sent.filter((m) => m.subject.startsWith('Bienvenue'))[1]!.text).toMatch(/Même si votre abonnement a commencé immédiatement/);
  });

  it('one thank-you per donation, with the next steps: one mail (monthly too), and the confirmation page hands a paid donation to its thank-you page', async () => {
    const monthly = await pay({ don: '1500', frequence: 'mensuel' }, '4242 4242 4242 4242');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toMatch(/^Merci pour votre don mensuel/);
    const reference = (await orderRow(monthly.orderId)).reference;
    expect(sent[0]!.text).toContain(reference);
    expect(sent[0]!.text).toContain('https://contrechamp.example/mailinglist');
    expect(sent[0]!.text).toContain('https://contrechamp.example/mon-compte');
    expect(sent[0]!.text).toMatch(/Parler de Contrechamp autour de vous/);

    sent.length = 0;
    const once = await pay({ don: '2000', frequence: 'unique' }, '4242 4242 4242 4242');
    expect(sent.map((m) => m.subject)).toEqual([expect.stringMatching(/^Merci pour votre don de/)]);
    expect(sent[0]!.text).toContain('https://contrechamp.example/mailinglist');

    const paid = (await confirmation(deps, userId, once.orderId))!;
    expect(donationThanksPath(paid.order, paid.state)).toBe(`/soutenir/dons/merci?commande=${once.orderId}`);
    const subscription = await pay({ formule: 'mensuel' }, '4242 4242 4242 4242');
    const sub = (await confirmation(deps, userId, subscription.orderId))!;
    expect(donationThanksPath(sub.order, sub.state)).toBeUndefined();
    const declined = await pay({ don: '1500', frequence: 'unique' }, '4000 0000 0000 0002');
    const failed = (await confirmation(deps, userId, declined.orderId))!;
    expect(donationThanksPath(failed.order, failed.state)).toBeUndefined();
    // A SEPA donation stays on its confirmation page, which shows the mandate, and thanks there.
    const sepa = await pay({ don: '3000', frequence: 'unique' }, 'FR1420041010050500013M02606');
    clock.advance(60_000);
    await deps.flush();
    const debited = (await confirmation(deps, userId, sepa.orderId))!;
    expect(debited.state).toBe('paid');
    expect(donationThanksPath(debited.order, debited.state)).toBeUndefined();
  });

  it('the same form sent twice, even at once, makes one order, one subscription and one provider session', async () => {
    const input = form();
    const [a, b] = await Promise.all([
      placeOrder(deps, userId, basketOf({ formule: 'annuel' }), undefined, input),
      placeOrder(deps, userId, basketOf({ formule: 'annuel' }), undefined, input),
    ]);
    const c = await placeOrder(deps, userId, basketOf({ formule: 'annuel' }), undefined, input);
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(new Set([a.orderId, b.orderId, c.orderId]).size).toBe(1);
    expect(new Set([a.url, b.url, c.url]).size).toBe(1);
    expect(await test.db.selectFrom('orders').select('id').where('user_id', '=', userId).execute()).toHaveLength(1);
    expect(await test.db.selectFrom('subscriptions').select('id').where('user_id', '=', userId).execute()).toHaveLength(1);
    expect(await test.db.selectFrom('simulated_sessions').select('id').where('order_id', '=', a.orderId).execute()).toHaveLength(1);
  });

  it('a declined card fails the order and says why; the subscription never starts', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4000000000000002');
    expect(await orderRow(orderId)).toMatchObject({ status: 'failed', failure_reason: 'Votre banque a refusé le paiement.' });
    expect((await subOf(orderId)).status).toBe('expired');
    expect((await confirmation(deps, userId, orderId))?.state).toBe('failed');
  });

  it('3-D Secure: the challenge passed pays, the challenge failed does not', async () => {
    const passed = await pay({ formule: 'annuel' }, '4000 0027 6000 3184');
    expect(passed.submitted).toMatchObject({ ok: true, redirect: expect.stringContaining('/paiement-simule/') });
    expect((await orderRow(passed.orderId)).status).toBe('pending');
    const session = (await orderRow(passed.orderId)).checkout_ref!;
    await submitSimulatedSession(provider, session, { action: 'challenge', pass: true, delivery: PROMPT_DELIVERY });
    await deps.flush();
    expect((await orderRow(passed.orderId)).status).toBe('paid');
    expect((await subOf(passed.orderId)).current_period_end).toBe('2027-11-23T10:00:00.000Z');

    const refused = await pay({ formule: 'annuel' }, '4000002760003184');
    await submitSimulatedSession(provider, (await orderRow(refused.orderId)).checkout_ref!, { action: 'challenge', pass: false, delivery: PROMPT_DELIVERY });
    await deps.flush();
    expect(await orderRow(refused.orderId)).toMatchObject({ status: 'failed', failure_reason: 'L’authentification 3-D Secure a échoué.' });
  });

  it('SEPA stays pending (processing) until the bank answers, then activates; a rejected debit fails', async () => {
    const ok = await pay({ formule: 'solidaire-mensuel' }, 'FR1420041010050500013M02606');
    expect((await confirmation(deps, userId, ok.orderId))?.state).toBe('processing');
    expect((await subOf(ok.orderId)).status).toBe('incomplete');
    clock.advance(60_000);
    await deps.flush();
    expect((await orderRow(ok.orderId)).status).toBe('paid');
    expect((await subOf(ok.orderId)).status).toBe('active');

    const ko = await pay({ don: '2000', frequence: 'unique' }, 'FR8420041010050500013M02607');
    clock.advance(60_000);
    await deps.flush();
    expect(await orderRow(ko.orderId)).toMatchObject({ status: 'failed', failure_reason: 'Votre banque a rejeté le prélèvement SEPA.' });
    // The reader waited days for the bank: the refusal is told, once, with the way to try again.
    await deps.flush();
    const told = sent.filter((m) => m.subject === 'Votre paiement de 20 € n’a pas abouti'.replace(' €', '\u00a0€'));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('Votre banque a rejeté le prélèvement SEPA.');
    expect(told[0]!.text).toContain('Votre don n’a pas été pris en compte');
    expect(told[0]!.text).toContain('https://contrechamp.example/soutenir/dons');

    // A subscription whose first debit is rejected never started: told, and not shown as « terminé ».
    const never = await pay({ formule: 'solidaire-mensuel' }, 'FR8420041010050500013M02607');
    clock.advance(60_000);
    await deps.flush();
    const sub = await findSubscription(test.db, (await subOf(never.orderId)).id);
    expect(summarize(sub!, clock.now())).toMatchObject({ statusLabel: 'Jamais commencé', when: expect.stringContaining('Le premier paiement n’a pas abouti') });
    expect(sent.filter((m) => m.text.includes('Votre abonnement n’a pas commencé'))).toHaveLength(1);
  });

  it('thanks for a donation only once paid or with the bank (SEPA); otherwise points to its confirmation, or knows nothing', async () => {
    const paid = await pay({ don: '2000', frequence: 'unique' }, '4242 4242 4242 4242');
    expect(await donationThanks(deps, userId, paid.orderId)).toMatchObject({ kind: 'paid', order: { id: paid.orderId, amountCents: 2000 } });
    // Someone else's donation, a subscription, no id or a malformed one: nothing to say.
    expect(await donationThanks(deps, otherId, paid.orderId)).toEqual({ kind: 'unknown' });
    expect(await donationThanks(deps, userId, null)).toEqual({ kind: 'unknown' });
    expect(await donationThanks(deps, userId, 'pas-un-uuid')).toEqual({ kind: 'unknown' });
    expect(await donationThanks(deps, userId, randomUUID())).toEqual({ kind: 'unknown' });
    const subscription = await pay({ formule: 'mensuel' }, '4242 4242 4242 4242');
    expect(await donationThanks(deps, userId, subscription.orderId)).toEqual({ kind: 'unknown' });

    const sepa = await pay({ don: '3000', frequence: 'unique' }, 'FR1420041010050500013M02606');
    expect(await donationThanks(deps, userId, sepa.orderId)).toMatchObject({ kind: 'pending', order: { id: sepa.orderId } });

    const declined = await pay({ don: '1500', frequence: 'unique' }, '4000 0000 0000 0002');
    expect(await donationThanks(deps, userId, declined.orderId)).toEqual({ kind: 'elsewhere', orderId: declined.orderId });

    // Left at the provider's page without paying: not thanked either.
    const placed = await placeOrder(deps, userId, basketOf({ don: '1000', frequence: 'mensuel' }), undefined, form());
    if (!placed.ok) throw new Error(placed.message);
    expect(await donationThanks(deps, userId, placed.orderId)).toEqual({ kind: 'elsewhere', orderId: placed.orderId });

    // The bank accepts the debit: paid.
    clock.advance(60_000);
    await deps.flush();
    expect(await donationThanks(deps, userId, sepa.orderId)).toMatchObject({ kind: 'paid' });
  });

  it('notifications sent twice, late and reversed end in the same state, each effect once', async () => {
    const { orderId } = await pay({ formule: 'solidaire-annuel' }, 'FR1420041010050500013M02606', {
      delivery: { twice: true, lateMs: 20_000, reversed: true },
    });
    expect((await orderRow(orderId)).status).toBe('pending');
    clock.advance(20_000 + 60_000 + 5_000);
    await deps.flush();
    expect((await orderRow(orderId)).status).toBe('paid');
    expect((await confirmation(deps, userId, orderId))?.state).toBe('paid');
    expect((await subOf(orderId)).status).toBe('active');
    const events = await test.db.selectFrom('order_events').select(['from_status', 'to_status']).where('order_id', '=', orderId).execute();
    expect(events.filter((e) => e.to_status === 'paid')).toHaveLength(1);
    expect(subjects().length).toBe(2);
  });

  describe('webhooks', () => {
    const deliver = (body: string, at = clock.now()) =>
      handlePaymentWebhook(
        deps,
        'simulated',
        new TextEncoder().encode(body),
        new Headers({ [SIMULATED_SIGNATURE_HEADER]: signSimulated(TEST_WEBHOOK_KEY, body, at) }),
      );
    const event = (data: Record<string, unknown>) => JSON.stringify({ id: `evt_test_${randomUUID()}`, created: clock.now().toISOString(), data });

    async function pendingOrder(values: Record<string, string> = { formule: 'mensuel' }) {
      const placed = await placeOrder(deps, userId, basketOf(values), undefined, form());
      if (!placed.ok) throw new Error(placed.message);
      return placed.orderId;
    }

    it('a replay (×3) changes nothing after the first delivery', async () => {
      const orderId = await pendingOrder();
      const body = event({ type: 'payment.succeeded', orderId, paymentRef: 'ch_x', methodLabel: 'Carte •••• 4242' });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await deliver(body));
      expect(answers.map((a) => a.ok && a.replayed)).toEqual([0, 1, 1, 1]);
      await deps.flush();
      expect(await test.db.selectFrom('order_events').select('id').where('order_id', '=', orderId).where('to_status', '=', 'paid').execute()).toHaveLength(1);
      expect(sent).toHaveLength(2);
      expect(await test.db.selectFrom('provider_events').select('event_id').where('event_id', 'like', 'evt_test_%').execute()).not.toHaveLength(0);
    });

    it('the same notification delivered three times at once is applied once (concurrent connections on PostgreSQL)', async () => {
      const orderId = await pendingOrder({ don: '3000', frequence: 'unique' });
      const body = event({ type: 'payment.succeeded', orderId, paymentRef: 'ch_once', methodLabel: 'Carte •••• 4242' });
      const answers = await Promise.all([deliver(body), deliver(body), deliver(body)]);
      expect(answers.map((a) => a.ok && a.applied).sort()).toEqual([0, 0, 1]);
      expect(await test.db.selectFrom('order_events').select('id').where('order_id', '=', orderId).where('to_status', '=', 'paid').execute()).toHaveLength(1);
    });

    it('events in every order end in the right state (processing, failure of an earlier attempt, success)', async () => {
      const permutations = <T>(xs: T[]): T[][] =>
        xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
      for (const order of permutations(['processing', 'failed', 'succeeded'] as const)) {
        const orderId = await pendingOrder({ don: '1500', frequence: 'mensuel' });
        const bodies = {
          processing: event({ type: 'payment.processing', orderId, methodLabel: 'Prélèvement SEPA •••• 2606' }),
          failed: event({ type: 'payment.failed', orderId, reason: 'Votre banque a refusé le paiement.' }),
          succeeded: event({ type: 'payment.succeeded', orderId, paymentRef: `ch_${orderId}`, methodLabel: 'Prélèvement SEPA •••• 2606' }),
        };
        for (const step of order) expect((await deliver(bodies[step])).ok).toBe(true);
        // …and the whole lot again, in reverse: replays.
        for (const step of [...order].reverse()) expect(await deliver(bodies[step])).toMatchObject({ ok: true, replayed: 1 });
        const row = await orderRow(orderId);
        expect(row.status, order.join(' → ')).toBe('paid');
        expect(row.payment_ref).toBe(`ch_${orderId}`);
      }
    });

    it('an unsigned, forged, stale or unknown-provider notification is refused and changes nothing', async () => {
      const orderId = await pendingOrder();
      const body = event({ type: 'payment.succeeded', orderId, paymentRef: 'ch_forged', methodLabel: 'x' });
      const raw = new TextEncoder().encode(body);
      expect(await handlePaymentWebhook(deps, 'simulated', raw, new Headers())).toMatchObject({ ok: false, status: 400 });
      const forged = signSimulated(Buffer.alloc(32, 1), body, clock.now());
      expect(await handlePaymentWebhook(deps, 'simulated', raw, new Headers({ [SIMULATED_SIGNATURE_HEADER]: forged }))).toMatchObject({
        ok: false,
        status: 400,
      });
      const tampered = new TextEncoder().encode(body.replace('ch_forged', 'ch_other'));
      expect(
        await handlePaymentWebhook(
          deps,
          'simulated',
          tampered,
          new Headers({ [SIMULATED_SIGNATURE_HEADER]: signSimulated(TEST_WEBHOOK_KEY, body, clock.now()) }),
        ),
      ).toMatchObject({ ok: false, status: 400 });
      expect(await deliver(body, new Date(clock.now().getTime() - 10 * 60_000))).toMatchObject({ ok: false, status: 400 });
      expect(await handlePaymentWebhook(deps, 'stripe', raw, new Headers())).toMatchObject({ ok: false, status: 404 });
      expect((await orderRow(orderId)).status).toBe('pending');
    });
  });

  it('bad baskets are refused with a French message: unknown plan, too small, absurd, not a number', () => {
    expect(parseBasket({ formule: 'gratuit' })).toMatchObject({ ok: false, status: 422 });
    expect(parseBasket({ don: '499' })).toMatchObject({ ok: false, message: expect.stringMatching(/de 5\s€/u) });
    expect(parseBasket({ montant: '99999999' })).toMatchObject({ ok: false, status: 422 });
    expect(parseBasket({ montant: '12,50', frequence: 'mensuel' })).toEqual({
      ok: true,
      basket: { kind: 'donation', frequency: 'monthly', amountCents: 1250 },
    });
    expect(parseBasket({ don: '1e3' })).toMatchObject({ ok: false });
    expect(parseBasket({ don: '2000', frequence: 'hebdo' })).toMatchObject({ ok: false });
  });

  it('another reader’s order and subscription read as unknown and cannot be acted on', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4242424242424242');
    const subId = (await orderRow(orderId)).subscription_id!;
    expect(await confirmation(deps, otherId, orderId)).toBeUndefined();
    expect(await subscriptionDetail(deps, otherId, subId)).toBeUndefined();
    expect(await cancelSubscription(deps, otherId, subId)).toMatchObject({ ok: false, status: 404 });
    expect(await resumeSubscription(deps, otherId, subId)).toMatchObject({ ok: false, status: 404 });
    expect(await changePlan(deps, otherId, subId, 'annuel')).toMatchObject({ ok: false, status: 404 });
    expect((await subOf(orderId)).cancel_at_period_end).toBe(0);
  });

  it('renews at period end by itself, with a new paid order for the next period', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4242424242424242');
    const subId = (await orderRow(orderId)).subscription_id!;
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    const orders = await test.db.selectFrom('orders').selectAll().where('subscription_id', '=', subId).orderBy('created_at').execute();
    expect(orders.map((o) => [o.reason, o.status])).toEqual([
      ['initial', 'paid'],
      ['renewal', 'paid'],
    ]);
    expect((await subOf(orderId)).current_period_end).toBe('2027-01-23T10:00:00.000Z');
    // A second run of the due work changes nothing.
    await deps.flush();
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', '=', subId).execute()).toHaveLength(2);
  });

  it('a refused renewal is retried on a schedule with a mail each time, then the subscription expires', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4000000000000341');
    sent = [];
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    expect((await subOf(orderId)).status).toBe('past_due');
    for (const days of [1, 3, 5]) {
      clock.set(new Date(new Date('2026-12-23T10:00:00Z').getTime() + days * DAY + 1000));
      await deps.flush();
    }
    const sub = await subOf(orderId);
    expect(sub.status).toBe('expired');
    expect(sub.failed_attempts).toBe(4);
    expect(sent).toHaveLength(5); // four refusals, then the end
  });

  it('cancel (effective at period end, acknowledged by mail), resume, cancel again: ends at the period end', async () => {
    const { orderId } = await pay({ formule: 'mensuel' }, '4242424242424242');
    const subId = (await orderRow(orderId)).subscription_id!;
    sent = [];
    expect(await cancelSubscription(deps, userId, subId)).toMatchObject({ ok: true, endsAt: new Date('2026-12-23T10:00:00Z') });
    expect(await cancelSubscription(deps, userId, subId)).toMatchObject({ ok: true });
    await deps.flush();
    expect(sent).toHaveLength(1);
    expect(await resumeSubscription(deps, userId, subId)).toEqual({ ok: true });
    expect(await cancelSubscription(deps, userId, subId)).toMatchObject({ ok: true });
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    expect((await subOf(orderId)).status).toBe('canceled');
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', '=', subId).execute()).toHaveLength(1);
    expect(await resumeSubscription(deps, userId, subId)).toMatchObject({ ok: false, status: 409 });
  });

  it('a change of plan or of donation amount applies at the next renewal', async () => {
    const plan = await pay({ formule: 'mensuel' }, '4242424242424242');
    const planSub = (await orderRow(plan.orderId)).subscription_id!;
    expect(await changePlan(deps, userId, planSub, 'inconnu')).toMatchObject({ ok: false, status: 422 });
    expect(await changePlan(deps, userId, planSub, 'solidaire-annuel')).toMatchObject({ ok: true });
    expect((await subOf(plan.orderId)).amount_cents).toBe(700);
    const gift = await pay({ don: '1000', frequence: 'mensuel' }, '4242424242424242');
    const giftSub = (await orderRow(gift.orderId)).subscription_id!;
    expect(await changeDonationAmount(deps, userId, giftSub, 100)).toMatchObject({ ok: false, status: 422 });
    expect(await changeDonationAmount(deps, userId, giftSub, 2500)).toMatchObject({ ok: true });
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    expect(await subOf(plan.orderId)).toMatchObject({
      plan_id: 'solidaire-annuel',
      amount_cents: 3000,
      interval: 'year',
      current_period_end: '2027-12-23T10:00:00.000Z',
    });
    expect(await subOf(gift.orderId)).toMatchObject({ amount_cents: 2500, next_amount_cents: null });
  });

  it('a yearly subscription gets the renewal notice 45 days before its renewal', async () => {
    await pay({ formule: 'annuel' }, '4242424242424242');
    sent = [];
    clock.set(new Date('2027-10-09T10:00:01Z'));
    await deps.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('L. 215-1');
  });

  it('an order whose provider call never happened (a crash) is canceled by its reconciliation', async () => {
    const { insertOrder } = await import('../orders/repository');
    const { scheduleReconcile } = await import('../orders/service');
    const { order } = await insertOrder(
      test.db,
      {
        userId,
        purpose: 'donation',
        reason: 'initial',
        offerId: 'don',
        description: 'Don ponctuel',
        interval: null,
        amountCents: 2000,
        vatRateBp: 0,
        vatCents: 0,
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: `crash:${randomUUID()}`,
      },
      clock.now(),
    );
    await scheduleReconcile(deps, test.db, order.id);
    clock.advance(31 * 60_000);
    await deps.flush();
    expect((await orderRow(order.id)).status).toBe('canceled');
  });
});
