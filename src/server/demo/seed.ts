/**
 * Demo accounts, created only in demo mode (`APP_MODE=demo`, the default of `npm start`).
 * The README lists them. Existing accounts are left untouched.
 */
import type { Kysely } from 'kysely';
import { addDays, addMonths } from 'date-fns';
import { SUBSCRIPTION_VAT_BP, vatIncluded } from '../../config/catalog';
import { type Database, newId, toTimestamp, type UserRole } from '../db/database';
import { createUser, updateProfile } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { writeTransaction } from '../db/transaction';
import { findOrder, insertOrder } from '../orders/repository';
import { issueCreditNote, issueForPayment } from '../billing/documents';
import { seedDemoGift } from '../subscriptions/gifts';
import { ensureCustomer } from '../orders/service';
import { saveSimulatedMethod } from '../payments/simulated';
import { insertSubscription } from '../subscriptions/repository';
import { schedulePeriod } from '../subscriptions/service';
import { findUserRowByEmail } from '../auth/repository';
import { log } from '../core/log';

export const DEMO_PASSWORD = 'motdepasse-demo';

/**
 * Roles are staff roles; the subscriber and the sociétaire are readers whose subscription and
 * shares (seeded by the revenue and cooperative work) make them what their address says.
 */
export const DEMO_ACCOUNTS: { email: string; role: UserRole; givenName: string; familyName: string }[] = [
  { email: 'lecteur@exemple.fr', role: 'reader', givenName: 'Louis', familyName: 'Lecteur' },
  { email: 'abonne@exemple.fr', role: 'reader', givenName: 'Agnès', familyName: 'Abonnée' },
  { email: 'societaire@exemple.fr', role: 'reader', givenName: 'Samir', familyName: 'Sociétaire' },
  { email: 'redaction@exemple.fr', role: 'editor', givenName: 'Rose', familyName: 'Rédaction' },
  { email: 'administration@exemple.fr', role: 'admin', givenName: 'Alix', familyName: 'Administration' },
];

export async function seedDemoAccounts(db: Kysely<Database>, now: Date): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    if (await findUserRowByEmail(db, account.email)) continue;
    try {
      await createUser(db, { ...account, password: DEMO_PASSWORD, now });
      log.info('demo account created', { role: account.role });
    } catch (error) {
      // Another process seeded it first.
      if (!(await findUserRowByEmail(db, account.email))) throw error;
    }
  }
}

/**
 * What the demo subscriber supports: a monthly subscription paid for three months and a monthly
 * donation paid for two, both renewing at their next period end (the site renews them itself
 * with the simulated provider); a one-off donation; and a yearly subscription withdrawn within
 * its 14 days (refunded, so it has a credit note). Every payment has its invoice or receipt,
 * issued at its date in date order. Seeded once: an account that already has a subscription is
 * left as it is. `lecteur@exemple.fr` supports nothing.
 */
export async function seedDemoRevenue(deps: ServerDeps): Promise<void> {
  const user = await findUserRowByEmail(deps.db, 'abonne@exemple.fr');
  if (!user) return;
  const already = await deps.db.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).executeTakeFirst();
  if (already || deps.payments.name !== 'simulated') return;
  const now = deps.clock.now();
  const customer = await ensureCustomer(deps, { id: user.id, email: user.email, name: `${user.given_name} ${user.family_name}` });
  const methodLabel = await saveSimulatedMethod(deps.db, customer, 'card', '4242424242424242');
  const address = { line1: '8 rue des Lilas', line2: '', postalCode: '69003', city: 'Lyon', country: 'FR' };
  await writeTransaction(deps.db, async (trx) => {
    await updateProfile(trx, { userId: user.id, givenName: user.given_name, familyName: user.family_name, address, now });
    const billingName = `${user.given_name} ${user.family_name}`;
    const plans = [
      { kind: 'plan' as const, planId: 'mensuel', amountCents: 700, months: 3, source: 'printemps', description: 'Abonnement Mensuel', vatRateBp: SUBSCRIPTION_VAT_BP },
      { kind: 'donation' as const, planId: null, amountCents: 1000, months: 2, source: null, description: 'Don mensuel', vatRateBp: 0 },
    ];
    for (const p of plans) {
      // Started `months` ago (a few days more, so that the next renewal is a few days ahead).
      const start = addDays(addMonths(now, -p.months), 5);
      const subscriptionId = await insertSubscription(trx, { userId: user.id, kind: p.kind, planId: p.planId, amountCents: p.amountCents, interval: 'month', vatRateBp: p.vatRateBp, provider: 'simulated', source: p.source }, start);
      let periodStart = start;
      for (let i = 0; i < p.months; i++) {
        const periodEnd = addMonths(periodStart, 1);
        const { order } = await insertOrder(trx, {
          userId: user.id, purpose: p.kind === 'plan' ? 'subscription' : 'donation', reason: i === 0 ? 'initial' : 'renewal', offerId: p.planId ?? 'don',
          description: p.description, interval: 'month', amountCents: p.amountCents, vatRateBp: p.vatRateBp, vatCents: vatIncluded(p.amountCents, p.vatRateBp),
          source: p.source, method: 'card', provider: 'simulated', subscriptionId, attemptKey: `demo:${subscriptionId}:${i}`,
          billingName: `${user.given_name} ${user.family_name}`, billingAddress: address, termsAcceptedAt: start, immediateStartAt: p.kind === 'plan' && i === 0 ? start : null,
          periodStart, periodEnd, status: 'paid', paymentRef: `ch_sim_demo_${subscriptionId}_${i}`, paidAt: periodStart,
        }, periodStart);
        await trx.insertInto('order_events').values({ id: newId(), order_id: order.id, from_status: 'pending', to_status: 'paid', cause: `Paiement reçu (${methodLabel})`, provider_event_id: null, at: toTimestamp(periodStart) }).execute();
        periodStart = periodEnd;
      }
      const current = await trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirstOrThrow();
      await trx.updateTable('subscriptions').set({ status: 'active', current_period_start: toTimestamp(addMonths(periodStart, -1)), current_period_end: toTimestamp(periodStart), payment_method: methodLabel, updated_at: toTimestamp(now) }).where('id', '=', current.id).execute();
      await trx.insertInto('subscription_events').values({ id: newId(), subscription_id: subscriptionId, type: 'started', from_status: 'incomplete', to_status: 'active', detail: `Premier paiement reçu (${methodLabel})`, at: toTimestamp(start) }).execute();
      await schedulePeriod(deps, trx, { id: subscriptionId, kind: p.kind, interval: 'month' }, periodStart);
    }

    // A one-off donation, six weeks ago.
    const donatedAt = addDays(now, -42);
    await insertOrder(trx, {
      userId: user.id, purpose: 'donation', reason: 'initial', offerId: 'don', description: 'Don ponctuel', interval: null, amountCents: 2000, vatRateBp: 0, vatCents: 0,
      source: null, method: 'card', provider: 'simulated', subscriptionId: null, attemptKey: `demo:don:${user.id}`, billingName, billingAddress: address,
      termsAcceptedAt: donatedAt, status: 'paid', paymentRef: `ch_sim_demo_don_${user.id}`, paidAt: donatedAt,
    }, donatedAt);

    // A yearly subscription taken four months ago and withdrawn three days later (CGV art. 8): refunded in full.
    const yearlyAt = addDays(addMonths(now, -4), 2);
    const refundedAt = addDays(yearlyAt, 3);
    const yearlyId = await insertSubscription(trx, { userId: user.id, kind: 'plan', planId: 'annuel', amountCents: 7000, interval: 'year', vatRateBp: SUBSCRIPTION_VAT_BP, provider: 'simulated', source: null }, yearlyAt);
    await trx.updateTable('subscriptions').set({ status: 'canceled', current_period_start: toTimestamp(yearlyAt), current_period_end: toTimestamp(refundedAt), ended_at: toTimestamp(refundedAt), payment_method: methodLabel, updated_at: toTimestamp(refundedAt) }).where('id', '=', yearlyId).execute();
    await trx.insertInto('subscription_events').values([
      { id: newId(), subscription_id: yearlyId, type: 'started', from_status: 'incomplete', to_status: 'active', detail: `Premier paiement reçu (${methodLabel})`, at: toTimestamp(yearlyAt) },
      { id: newId(), subscription_id: yearlyId, type: 'ended', from_status: 'active', to_status: 'canceled', detail: 'Rétractation dans les 14 jours : remboursement intégral', at: toTimestamp(refundedAt) },
    ]).execute();
    await insertOrder(trx, {
      userId: user.id, purpose: 'subscription', reason: 'initial', offerId: 'annuel', description: 'Abonnement Annuel', interval: 'year', amountCents: 7000, vatRateBp: SUBSCRIPTION_VAT_BP,
      vatCents: vatIncluded(7000, SUBSCRIPTION_VAT_BP), source: null, method: 'card', provider: 'simulated', subscriptionId: yearlyId, attemptKey: `demo:${yearlyId}:0`,
      billingName, billingAddress: address, termsAcceptedAt: yearlyAt, immediateStartAt: yearlyAt, periodStart: yearlyAt, periodEnd: addMonths(yearlyAt, 12),
      status: 'refunded', paymentRef: `ch_sim_demo_${yearlyId}_0`, paidAt: yearlyAt,
    }, yearlyAt);

    // Their invoices and receipts, at each payment's date and in date order (numbers follow dates), then the credit note.
    const paid = await trx.selectFrom('orders').select('id').where('user_id', '=', user.id).where('paid_at', 'is not', null).orderBy('paid_at', 'asc').execute();
    for (const { id } of paid) {
      const order = (await findOrder(trx, id))!;
      if (order.status === 'refunded' && order.paidAt) {
        await issueForPayment(trx, deps.siteUrl, order, { methodLabel, now: order.paidAt });
        await issueCreditNote(trx, deps.siteUrl, order, refundedAt);
      } else if (order.paidAt) {
        await issueForPayment(trx, deps.siteUrl, order, { methodLabel, now: order.paidAt });
      }
    }
  });
  // A gift bought for Louis Lecteur, delivered and not activated: its code is in the README.
  await seedDemoGift(deps, { id: user.id, name: `${user.given_name} ${user.family_name}`, address }, { name: 'Louis Lecteur', email: 'lecteur@exemple.fr' }, async (trx, orderId, paidAt) => {
    await issueForPayment(trx, deps.siteUrl, (await findOrder(trx, orderId))!, { methodLabel, now: paidAt });
  });
  log.info('demo revenue seeded');
}
