/**
 * A change of payment method, and SEPA debits, as the reader lives them, on both databases, with
 * the simulated provider and the real job machinery:
 * - back from the provider's method page, « Mes abonnements » shows the new method at once and
 *   the owner gets the security notice, once, whatever the notification does after (late,
 *   replayed, sent again under another id);
 * - a SEPA payment names its mandate (RUM) and the creditor (ICS) on its confirmation and in its
 *   mail, and each later debit is announced at least `SEPA_PRENOTICE_DAYS` before, as the CGV say.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { TEST_WEBHOOK_KEY, withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { formatEuros } from '../../config/catalog';
import { SEPA_CREDITOR_ID } from '../../config/publisher';
import { formatDate } from '../../lib/dates';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { confirmation, type CheckoutInput, handlePaymentWebhook, placeOrder } from '../checkout/service';
import { fakeClock } from '../core/clock';
import type { OutgoingMail } from '../mail/transport';
import { PROMPT_DELIVERY, SIMULATED_SIGNATURE_HEADER, signSimulated, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { methodChangedMessage } from './owner-view';
import { findSubscription } from './repository';
import {
  cancelSubscription,
  changeDonationAmount,
  changePlan,
  confirmPaymentMethodChange,
  paymentMethodPage,
  RENEWAL_NOTICE,
  resumeSubscription,
  subscriptionDetail,
} from './service';
import { orderMandate, subscriptionMandate } from './sepa';
import { SEPA_PRENOTICE_DAYS } from './state';

vi.setConfig({ testTimeout: 30_000 });
const DAY = 24 * 3600_000;
const IBAN_OK = 'FR1420041010050500013M02606';

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
/** French typography puts narrow and non-breaking spaces where a test types plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describeEachDialect('payment method and SEPA', (kind) => {
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
    userId = await createUser(test.db, { email: `titulaire${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    otherId = await createUser(test.db, { email: `intrus${n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  });

  const sessionOf = (url: string) => new URL(url, 'https://contrechamp.example').pathname.split('/').pop()!;

  async function pay(values: Record<string, string>, number: string, who = userId) {
    const placed = await placeOrder(deps, who, basketOf(values), undefined, form({ methode: number.startsWith('FR') ? 'sepa_debit' : 'card' }));
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number, delivery: PROMPT_DELIVERY });
    await deps.flush();
    const order = await test.db.selectFrom('orders').selectAll().where('id', '=', placed.orderId).executeTakeFirstOrThrow();
    return { orderId: placed.orderId, subscriptionId: order.subscription_id!, reference: order.reference };
  }

  /** The reader changes the card on the provider's page; answers where the page sends them back. */
  async function changeCard(subscriptionId: string, number: string, who = userId): Promise<URL> {
    const page = await paymentMethodPage(deps, who, subscriptionId);
    if (!page.ok) throw new Error(page.message);
    const submitted = await submitSimulatedSession(provider, sessionOf(page.url), { action: 'pay', number, delivery: PROMPT_DELIVERY });
    if (!submitted.ok) throw new Error(submitted.message);
    return new URL(submitted.redirect);
  }

  const noticesOfChange = () => sent.filter((m) => m.subject === 'Votre moyen de paiement a été modifié');

  describe('a change of card', () => {
    it('shows the new card as soon as the reader is back, before the notification, and says so', async () => {
      const { subscriptionId } = await pay({ formule: 'mensuel' }, '4242424242424242');
      const back = await changeCard(subscriptionId, '4000000000000341');
      expect(back.pathname).toBe(`/mon-compte/mes-abonnements/${subscriptionId}`);
      expect(back.searchParams.get('moyen-de-paiement')).toBe('retour');

      // The provider's notification is still queued (no flush): the return alone applies it.
      const result = await confirmPaymentMethodChange(deps, userId, subscriptionId, back.searchParams.get('changement'));
      expect(result).toEqual({ ok: true, methodLabel: 'Carte •••• 0341' });
      expect((await subscriptionDetail(deps, userId, subscriptionId))?.subscription.paymentMethod).toBe('Carte •••• 0341');
      expect(methodChangedMessage(result)).toEqual({ kind: 'success', message: expect.stringContaining('Carte •••• 0341') });
    });

    it('mails the owner the security notice once: the return, its reload, the notification and its replays', async () => {
      const { subscriptionId } = await pay({ formule: 'mensuel' }, '4242424242424242');
      sent = [];
      clock.set(new Date('2026-11-28T17:05:00Z'));
      const back = await changeCard(subscriptionId, '4000000000000341');
      const changeRef = back.searchParams.get('changement');
      await confirmPaymentMethodChange(deps, userId, subscriptionId, changeRef);
      await confirmPaymentMethodChange(deps, userId, subscriptionId, changeRef); // a reload of the return
      await deps.flush(); // the notification arrives after the reader
      // The provider sends the same change again, under another event id.
      const again = JSON.stringify({
        id: `evt_sim_${randomUUID()}`,
        created: clock.now().toISOString(),
        data: {
          type: 'payment_method.updated',
          customerRef: (await test.db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', userId).executeTakeFirstOrThrow())
            .customer_ref,
          methodLabel: 'Carte •••• 0341',
          changeRef,
        },
      });
      const headers = () => new Headers({ [SIMULATED_SIGNATURE_HEADER]: signSimulated(TEST_WEBHOOK_KEY, again, clock.now()) });
      expect(await handlePaymentWebhook(deps, 'simulated', new TextEncoder().encode(again), headers())).toMatchObject({ ok: true, applied: 1 });
      expect(await handlePaymentWebhook(deps, 'simulated', new TextEncoder().encode(again), headers())).toMatchObject({ ok: true, replayed: 1 });
      await deps.flush();

      const notices = noticesOfChange();
      expect(notices).toHaveLength(1);
      const text = plain(notices[0]!.text);
      expect(notices[0]!.to).toBe(`titulaire${n}@exemple.fr`);
      expect(text).toContain('Abonnement Mensuel');
      expect(text).toContain('Carte •••• 0341');
      expect(text).toContain('28 novembre 2026 à 18 h 05 (heure de Paris)');
      expect(text).toMatch(/Ce n’est pas vous/);
      expect(text).toContain('https://contrechamp.example/modifier-mon-mot-de-passe');
      expect(text).toContain('https://contrechamp.example/contact');
      const history = await test.db
        .selectFrom('subscription_events')
        .select('type')
        .where('subscription_id', '=', subscriptionId)
        .where('type', '=', 'payment-method')
        .execute();
      expect(history).toHaveLength(1);
    });

    it('a second change is a second notice; a change given up or another reader’s session changes nothing', async () => {
      const { subscriptionId } = await pay({ formule: 'mensuel' }, '4242424242424242');
      sent = [];
      await changeCard(subscriptionId, '4000000000000341');
      await deps.flush();
      clock.advance(5 * 60_000); // another visit: the method page of the same minute is the same one
      await changeCard(subscriptionId, '4242424242424242');
      await deps.flush();
      expect(noticesOfChange()).toHaveLength(2);
      expect((await findSubscription(test.db, subscriptionId))?.paymentMethod).toBe('Carte •••• 4242');

      // Gave up on the provider's page: back with a session never completed.
      clock.advance(5 * 60_000);
      const page = await paymentMethodPage(deps, userId, subscriptionId);
      if (!page.ok) throw new Error(page.message);
      expect(await confirmPaymentMethodChange(deps, userId, subscriptionId, sessionOf(page.url))).toEqual({ ok: true, methodLabel: null });
      expect(methodChangedMessage({ ok: true, methodLabel: null })).toMatchObject({ kind: 'info' });

      // Another reader's completed session, typed into one's own return address, reads as nothing.
      const other = await pay({ formule: 'mensuel' }, '4242424242424242', otherId);
      const theirs = await changeCard(other.subscriptionId, '4000000000000341', otherId);
      expect(await confirmPaymentMethodChange(deps, userId, subscriptionId, theirs.searchParams.get('changement'))).toEqual({ ok: true, methodLabel: null });
      // And someone else's subscription is unknown.
      expect(await confirmPaymentMethodChange(deps, otherId, subscriptionId, null)).toMatchObject({ ok: false, status: 404 });
    });
  });

  describe('SEPA', () => {
    it('names the mandate (RUM) and the creditor (ICS) on the confirmation, in the payment mail and in the account, stable', async () => {
      const { orderId, subscriptionId, reference } = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      const rum = `CTC-${reference}`;
      const found = await confirmation(deps, userId, orderId);
      expect(found?.state).toBe('paid');
      expect(orderMandate(found!.order, found!.subscription)).toEqual({ reference: rum, creditorId: SEPA_CREDITOR_ID });
      const sub = (await subscriptionDetail(deps, userId, subscriptionId))!.subscription;
      expect(subscriptionMandate(sub)).toEqual({ reference: rum, creditorId: SEPA_CREDITOR_ID });
      const receipt = sent.find((m) => m.subject.includes('paiement de'))!;
      expect(plain(receipt.text)).toContain(rum);
      expect(plain(receipt.text)).toContain(SEPA_CREDITOR_ID);
      expect(plain(receipt.text)).toContain('Référence unique de mandat (RUM)');

      // A card payment has no mandate; a second SEPA subscription has its own.
      const card = await pay({ formule: 'mensuel' }, '4242424242424242');
      expect(subscriptionMandate((await findSubscription(test.db, card.subscriptionId))!)).toBeNull();
      const second = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      expect((await findSubscription(test.db, second.subscriptionId))?.mandateRef).not.toBe(rum);
    });

    it(`announces each debit at least ${SEPA_PRENOTICE_DAYS} days before it, with the amount, the date, the RUM and the ICS (as the CGV say)`, async () => {
      const { subscriptionId, reference } = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      const card = await pay({ formule: 'mensuel' }, '4242424242424242');
      const sub = (await findSubscription(test.db, subscriptionId))!;
      const debitAt = sub.currentPeriodEnd!;
      const notice = await test.db
        .selectFrom('jobs')
        .selectAll()
        .where('kind', '=', RENEWAL_NOTICE.kind)
        .where('unique_key', 'like', `%${subscriptionId}%`)
        .executeTakeFirstOrThrow();
      expect(debitAt.getTime() - new Date(notice.run_at).getTime()).toBeGreaterThanOrEqual(SEPA_PRENOTICE_DAYS * DAY);

      sent = [];
      clock.set(new Date(notice.run_at));
      await deps.flush();
      expect(sent).toHaveLength(1); // the SEPA payer only: a card is charged without a notice
      const text = plain(sent[0]!.text);
      expect(sent[0]!.subject).toContain('prélèvement SEPA');
      expect(text).toContain(plain(formatEuros(300)));
      expect(text).toContain(formatDate(debitAt));
      expect(text).toContain(`CTC-${reference}`);
      expect(text).toContain(SEPA_CREDITOR_ID);
      expect(card.subscriptionId).not.toBe(subscriptionId);

      // The next period's debit is announced too, once it starts.
      clock.set(new Date(debitAt.getTime() + 1000));
      await deps.flush();
      const next = (await findSubscription(test.db, subscriptionId))!.currentPeriodEnd!;
      expect(next > debitAt).toBe(true);
      const nextNotice = await test.db
        .selectFrom('jobs')
        .select('run_at')
        .where('kind', '=', RENEWAL_NOTICE.kind)
        .where('unique_key', '=', `subscriptions.notice:${subscriptionId}:${next.toISOString()}`)
        .executeTakeFirstOrThrow();
      expect(next.getTime() - new Date(nextNotice.run_at).getTime()).toBeGreaterThanOrEqual(SEPA_PRENOTICE_DAYS * DAY);
    });

    /** The period's regular announcement, once its time has come (the job runs). */
    async function pastTheNotice(subscriptionId: string) {
      const sub = (await findSubscription(test.db, subscriptionId))!;
      const notice = await test.db
        .selectFrom('jobs')
        .select('run_at')
        .where('kind', '=', RENEWAL_NOTICE.kind)
        .where('unique_key', '=', `subscriptions.notice:${subscriptionId}:${sub.currentPeriodEnd!.toISOString()}`)
        .executeTakeFirstOrThrow();
      clock.set(new Date(new Date(notice.run_at).getTime() + 3 * DAY));
      await deps.flush();
      return sub.currentPeriodEnd!;
    }
    const announcement = (text: string) => plain(text).includes('Ce message vaut pré-notification de prélèvement SEPA');

    it('a plan changed after the debit was announced: the confirmation announces it at its new amount, and the debit takes that amount on its day', async () => {
      const { subscriptionId, reference } = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      const debitAt = await pastTheNotice(subscriptionId);
      expect(sent.filter((m) => plain(m.subject) === plain(`Prochain prélèvement SEPA : ${formatEuros(300)} le ${formatDate(debitAt)}`))).toHaveLength(1);

      sent = [];
      expect((await changePlan(deps, userId, subscriptionId, 'mensuel')).ok).toBe(true);
      await deps.flush();
      expect(sent).toHaveLength(1);
      const text = plain(sent[0]!.text);
      expect(announcement(text)).toBe(true);
      expect(text).toContain(`Votre prochain prélèvement SEPA, à son nouveau montant : ${plain(formatEuros(700))} le ${formatDate(debitAt)}`);
      expect(text).toContain(`CTC-${reference}`);
      expect(text).toContain(SEPA_CREDITOR_ID);
      expect(text).toContain(`moins de ${SEPA_PRENOTICE_DAYS} jours avant le prélèvement`);

      // Taken back: the debit is announced again, at the amount it is back to.
      sent = [];
      expect((await changePlan(deps, userId, subscriptionId, 'solidaire-mensuel')).ok).toBe(true);
      await deps.flush();
      expect(sent.map((m) => plain(m.subject))).toEqual([plain(`Prochain prélèvement SEPA : ${formatEuros(300)} le ${formatDate(debitAt)}`)]);

      // And again to the other plan: the renewal debits what the last mail said, on the day it said.
      await changePlan(deps, userId, subscriptionId, 'mensuel');
      clock.set(new Date(debitAt.getTime() + 1000));
      await deps.flush();
      const renewal = await test.db
        .selectFrom('orders')
        .select(['amount_cents', 'status'])
        .where('subscription_id', '=', subscriptionId)
        .where('reason', '=', 'renewal')
        .executeTakeFirstOrThrow();
      expect(renewal).toEqual({ amount_cents: 700, status: 'paid' });
    });

    it('an amount changed before the announcement is told by the announcement alone; a card payer’s change announces no debit', async () => {
      const { subscriptionId } = await pay({ montant: '12', frequence: 'mensuel' }, IBAN_OK);
      const card = await pay({ formule: 'mensuel' }, '4242424242424242');
      expect((await changeDonationAmount(deps, userId, subscriptionId, 2000)).ok).toBe(true);
      await deps.flush();
      const confirmationMail = sent.at(-1)!;
      expect(confirmationMail.subject).toContain('Le nouveau montant de votre don mensuel');
      expect(announcement(confirmationMail.text)).toBe(false);
      sent = [];
      const debitAt = await pastTheNotice(subscriptionId);
      expect(sent.map((m) => plain(m.subject))).toEqual([plain(`Prochain prélèvement SEPA : ${formatEuros(2000)} le ${formatDate(debitAt)}`)]);

      sent = [];
      expect((await changePlan(deps, userId, card.subscriptionId, 'annuel')).ok).toBe(true);
      await deps.flush();
      expect(sent).toHaveLength(1);
      expect(announcement(sent[0]!.text)).toBe(false);
    });

    it('a subscription resumed after its announcement was skipped (it was resigned then) is announced by the confirmation', async () => {
      const { subscriptionId, reference } = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      expect((await cancelSubscription(deps, userId, subscriptionId)).ok).toBe(true);
      await deps.flush();
      sent = [];
      const debitAt = await pastTheNotice(subscriptionId);
      expect(sent).toEqual([]); // resigned: no debit to announce
      expect((await resumeSubscription(deps, userId, subscriptionId)).ok).toBe(true);
      await deps.flush();
      expect(sent).toHaveLength(1);
      const text = plain(sent[0]!.text);
      expect(announcement(text)).toBe(true);
      expect(text).toContain(`${plain(formatEuros(300))} le ${formatDate(debitAt)}`);
      expect(text).toContain(`CTC-${reference}`);
    });

    it('a refused SEPA renewal: the mail that says so announces the debit presented again, with its mandate', async () => {
      const { subscriptionId, reference } = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      const debitAt = (await findSubscription(test.db, subscriptionId))!.currentPeriodEnd!;
      // The payer's account is empty by then: the bank rejects the debit.
      const customer = await test.db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', userId).executeTakeFirstOrThrow();
      await test.db.updateTable('simulated_customers').set({ method_behaviour: 'sepa-fail' }).where('id', '=', customer.customer_ref).execute();
      sent = [];
      clock.set(new Date(debitAt.getTime() + 1000));
      await deps.flush();
      const failed = sent.find((m) => m.subject.includes('n’a pas abouti'))!;
      const text = plain(failed.text);
      expect(announcement(text)).toBe(true);
      expect(text).toContain(`CTC-${reference}`);
      expect(text).toContain(SEPA_CREDITOR_ID);
      expect(text).toMatch(new RegExp(`Nous réessaierons le ${formatDate(new Date(debitAt.getTime() + DAY))}`));
    });

    /** The provider tells of a new SEPA mandate signed on its own page (Stripe's customer portal). */
    async function newMandateFromProvider(who = userId) {
      const customerRef = (await test.db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', who).executeTakeFirstOrThrow())
        .customer_ref;
      const body = JSON.stringify({
        id: `evt_sim_${randomUUID()}`,
        created: clock.now().toISOString(),
        data: {
          type: 'payment_method.updated',
          customerRef,
          methodLabel: 'Prélèvement SEPA •••• 2606',
          changeRef: `seti_${randomUUID()}`,
          method: 'sepa_debit',
        },
      });
      const headers = new Headers({ [SIMULATED_SIGNATURE_HEADER]: signSimulated(TEST_WEBHOOK_KEY, body, clock.now()) });
      expect(await handlePaymentWebhook(deps, 'simulated', new TextEncoder().encode(body), headers)).toMatchObject({ ok: true, applied: 1 });
      await deps.flush();
    }

    it('a new mandate signed after the notice’s time: the mail that confirms it announces its first debit under its own RUM', async () => {
      const { subscriptionId } = await pay({ formule: 'mensuel' }, '4242424242424242');
      const debitAt = await pastTheNotice(subscriptionId);
      sent = [];
      await newMandateFromProvider();
      const rum = (await findSubscription(test.db, subscriptionId))!.mandateRef!;
      expect(rum).toMatch(/^CTC-M-/);
      const mail = sent.find((m) => m.subject === 'Votre moyen de paiement a été modifié')!;
      const text = plain(mail.text);
      expect(announcement(text)).toBe(true);
      expect(text).toContain(`Votre prochain prélèvement SEPA, sur ce nouveau mandat : ${plain(formatEuros(700))} le ${formatDate(debitAt)}`);
      expect(text).toContain(rum);
      expect(text).toContain(`moins de ${SEPA_PRENOTICE_DAYS} jours avant le prélèvement`);
    });

    it('a payment in arrears presented again on a new mandate is announced, for today, by the mail that confirms the mandate', async () => {
      const { subscriptionId } = await pay({ formule: 'mensuel' }, '4242424242424242');
      const customer = await test.db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', userId).executeTakeFirstOrThrow();
      await test.db.updateTable('simulated_customers').set({ method_behaviour: 'decline' }).where('id', '=', customer.customer_ref).execute();
      const debitAt = (await findSubscription(test.db, subscriptionId))!.currentPeriodEnd!;
      clock.set(new Date(debitAt.getTime() + 3600_000));
      await deps.flush();
      expect((await findSubscription(test.db, subscriptionId))!.status).toBe('past_due');
      sent = [];
      await test.db.updateTable('simulated_customers').set({ method_behaviour: 'sepa-succeed' }).where('id', '=', customer.customer_ref).execute();
      await newMandateFromProvider();
      const text = plain(sent.find((m) => m.subject === 'Votre moyen de paiement a été modifié')!.text);
      expect(text).toContain(`Votre prochain prélèvement SEPA, sur ce nouveau mandat : ${plain(formatEuros(700))} le ${formatDate(clock.now())}`);
      expect(text).toContain((await findSubscription(test.db, subscriptionId))!.mandateRef!);
      expect((await findSubscription(test.db, subscriptionId))!.status).toBe('active');
    });

    it('a yearly plan changed between its renewal notice and the last 14 days: announced at once, in time, with no apology for being late', async () => {
      const { subscriptionId, reference } = await pay({ formule: 'solidaire-annuel' }, IBAN_OK);
      const end = (await findSubscription(test.db, subscriptionId))!.currentPeriodEnd!;
      clock.set(new Date(end.getTime() - 30 * DAY));
      await deps.flush();
      expect(sent.filter((m) => plain(m.text).includes('L. 215-1'))).toHaveLength(1);
      sent = [];
      expect((await changePlan(deps, userId, subscriptionId, 'annuel')).ok).toBe(true);
      await deps.flush();
      const text = plain(sent[0]!.text);
      expect(announcement(text)).toBe(true);
      expect(text).toContain(`CTC-${reference}`);
      expect(text).toContain(`le ${formatDate(end)}`);
      expect(text).not.toContain('moins de 14 jours');
    });

    it('a change asked once the period has ended, while its payment is under way, is refused and changes nothing', async () => {
      const { subscriptionId } = await pay({ formule: 'solidaire-mensuel' }, IBAN_OK);
      const end = (await findSubscription(test.db, subscriptionId))!.currentPeriodEnd!;
      clock.set(new Date(end.getTime() + 1000)); // the renewal job has not run yet
      sent = [];
      const refused = await changePlan(deps, userId, subscriptionId, 'mensuel');
      expect(refused).toMatchObject({ ok: false, status: 409 });
      expect(!refused.ok && refused.message).toContain('est en cours');
      expect((await findSubscription(test.db, subscriptionId))!.nextPlanId).toBeNull();
      expect(sent).toEqual([]);
    });

    it('a yearly SEPA subscription’s renewal notice is its pre-notification', async () => {
      const { reference } = await pay({ formule: 'solidaire-annuel' }, IBAN_OK);
      sent = [];
      clock.set(new Date('2027-10-09T10:00:01Z'));
      await deps.flush();
      expect(sent).toHaveLength(1);
      const text = plain(sent[0]!.text);
      expect(text).toContain('L. 215-1');
      expect(text).toContain(`CTC-${reference}`);
      expect(text).toContain(SEPA_CREDITOR_ID);
      expect(text).toContain('pré-notification de prélèvement SEPA');
    });
  });
});

describe('the CGV (art. 5) say what the code does', () => {
  const cgv = plain(readFileSync(join(import.meta.dirname, '../../content/pages/cgv.md'), 'utf8'));
  it('names the creditor identifier and the pre-notification delay', () => {
    expect(cgv).toContain(SEPA_CREDITOR_ID);
    expect(cgv).toContain(`au moins ${SEPA_PRENOTICE_DAYS} jours calendaires avant`);
    expect(cgv).toMatch(/référence unique de mandat \(RUM\)/);
  });
  it('says that a change made after the announcement is announced by its confirmation, and a rejected debit by the mail that says so', () => {
    expect(cgv).toContain(
      'l’e-mail qui confirme votre changement, envoyé aussitôt, vous l’annonce de nouveau avec son montant, sa date, la RUM et l’ICS, et vaut pré-notification',
    );
    expect(cgv).toContain(
      'Un prélèvement rejeté par votre banque et présenté de nouveau vous est annoncé de la même façon, dans l’e-mail qui vous informe du rejet.',
    );
  });
});
