/**
 * Subscriptions and monthly donations: what a paid order starts, the renewals (run by the site
 * for the simulated provider, by Stripe otherwise), the retries after a refused payment, the
 * L. 215-1 notice before a yearly renewal, and what the owner does from « Mes abonnements »:
 * cancel (effective at period end), resume, change plan or amount (from the next renewal),
 * change the payment method.
 *
 * Every change is a conditional update of the row the caller read (repository
 * `updateSubscriptionIf`) plus a line in `subscription_events`; every mail is a job scheduled in
 * the same transaction. Scheduled work carries the period it is about, so that a job that runs
 * late, twice, or after the subscription moved on does nothing.
 */
import { addDays, addMonths, addYears } from 'date-fns';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { findPlan, formatEuros, SUBSCRIPTION_VAT_BP, vatIncluded, donationMaximumCents, donationMinimumCents } from '../../config/catalog';
import { formatDate, formatPeriod } from '../../lib/dates';
import { findUser } from '../auth/service';
import { orderPeriod, withdrawalBlocks } from '../contract-withdrawals/links';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type BillingInterval, type Database, toFlag, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { mailFor, type MailContent } from '../mail/layout';
import { SEND_MAIL } from '../mail/jobs';
import { type Fulfilment, type Fulfilments, scheduleUnwantedRefund, transitionOrder } from '../orders/service';
import { findOrder, insertOrder, listSubscriptionOrders, type Order, customerRef } from '../orders/public';
import { type PaymentEvent, ProviderError } from '../payments/provider';
import { EventAhead } from '../payments/webhooks';
import {
  cancellationMail,
  donationStartedMail,
  endedMail,
  paymentFailedMail,
  paymentMethodChangedMail,
  paymentReceivedMail,
  planChangedMail,
  renewalNoticeMail,
  resumedMail,
  sepaDebitNoticeMail,
  subscriptionStartedMail,
} from './mails';
import {
  debitToAnnounce,
  type DebitToAnnounce,
  mandateReferenceOf,
  newMandateReference,
  nextChargeCents,
  orderMandate,
  retryToAnnounce,
  subscriptionMandate,
} from './sepa';
import {
  countSubscriptionEvents,
  findByProviderRef,
  findSubscription,
  findUserSubscription,
  insertSubscriptionEvent,
  listUserSubscriptions,
  type Subscription,
  subscriptionEvents,
  updateSubscriptionIf,
} from './repository';
import { isLive, RENEWAL_NOTICE_DAYS, RETRY_DAYS, SEPA_PRENOTICE_DAYS } from './state';

export type SubscriptionDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs' | 'payments'>;

export const addInterval = (date: Date, interval: BillingInterval, times = 1): Date => (interval === 'month' ? addMonths(date, times) : addYears(date, times));

/** "Abonnement Mensuel", "Don mensuel de 10 €". */
export function subscriptionLabel(sub: Pick<Subscription, 'kind' | 'planId' | 'amountCents'>): string {
  if (sub.kind === 'donation') return `Don mensuel de ${formatEuros(sub.amountCents)}`;
  if (sub.kind === 'gift') return 'Abonnement offert';
  return `Abonnement ${findPlan(sub.planId ?? '')?.label ?? sub.planId ?? ''}`.trim();
}

async function mailOwner(deps: SubscriptionDeps, trx: Kysely<Database>, userId: string | null, mail: MailContent, uniqueKey?: string): Promise<void> {
  if (!userId) return;
  const user = await findUser(trx, userId);
  if (!user) return;
  await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), uniqueKey ? { uniqueKey } : {});
}

// ---------------------------------------------------------------------------------------------
// Jobs

export const RENEW = jobType({ kind: 'subscriptions.renew', schema: z.object({ subscriptionId: z.string(), periodEnd: z.string() }) });
export const RETRY_RENEWAL = jobType({
  kind: 'subscriptions.retry',
  schema: z.object({ subscriptionId: z.string(), orderId: z.string(), attempt: z.number().int().min(2) }),
});
export const RENEWAL_NOTICE = jobType({ kind: 'subscriptions.renewal-notice', schema: z.object({ subscriptionId: z.string(), periodEnd: z.string() }) });

/**
 * Schedules what the start of a period needs: its renewal (when the site runs them) and the
 * notice before it: for a year, the L. 215-1 notice (which is also the SEPA pre-notification of
 * a SEPA payer); otherwise the SEPA pre-notification, `SEPA_PRENOTICE_DAYS` before the debit,
 * which finds out when it runs whether the method then saved is a SEPA debit.
 */
export async function schedulePeriod(
  deps: SubscriptionDeps,
  trx: Kysely<Database>,
  sub: { id: string; kind: Subscription['kind']; interval: BillingInterval },
  periodEnd: Date,
): Promise<void> {
  const end = toTimestamp(periodEnd);
  if (!deps.payments.runsRenewals)
    await schedule(deps, trx, RENEW, { subscriptionId: sub.id, periodEnd: end }, { runAt: periodEnd, uniqueKey: `subscriptions.renew:${sub.id}:${end}` });
  if (sub.kind === 'plan' && sub.interval === 'year') {
    const noticeAt = addDays(periodEnd, -RENEWAL_NOTICE_DAYS);
    if (noticeAt > deps.clock.now())
      await schedule(
        deps,
        trx,
        RENEWAL_NOTICE,
        { subscriptionId: sub.id, periodEnd: end },
        { runAt: noticeAt, uniqueKey: `subscriptions.notice:${sub.id}:${end}` },
      );
  } else if (sub.kind !== 'gift') {
    const noticeAt = addDays(periodEnd, -SEPA_PRENOTICE_DAYS);
    if (noticeAt > deps.clock.now())
      await schedule(
        deps,
        trx,
        RENEWAL_NOTICE,
        { subscriptionId: sub.id, periodEnd: end },
        { runAt: noticeAt, uniqueKey: `subscriptions.notice:${sub.id}:${end}` },
      );
  }
}

/**
 * The renewal at a period's end, when the site runs renewals: ends a subscription whose
 * cancellation was asked, otherwise applies the change asked for, creates the period's order
 * (one per period: the attempt key) and asks the provider to charge it. A run repeated after a
 * crash finds the same order and the provider the same idempotency key.
 */
export async function renew(deps: SubscriptionDeps, subscriptionId: string, periodEnd: string): Promise<void> {
  const now = deps.clock.now();
  const sub = await findSubscription(deps.db, subscriptionId);
  if (!sub || !sub.currentPeriodEnd || toTimestamp(sub.currentPeriodEnd) !== periodEnd) return;
  if (sub.status === 'active' && sub.cancelAtPeriodEnd) {
    await writeTransaction(deps.db, async (trx) => {
      const ended = await updateSubscriptionIf(
        trx,
        sub,
        { set: { status: 'canceled', ended_at: periodEnd }, type: 'ended', detail: 'Résiliation effective à la fin de la période payée' },
        now,
      );
      if (ended)
        await mailOwner(deps, trx, sub.userId, endedMail({ siteUrl: deps.siteUrl, kind: sub.kind, label: subscriptionLabel(sub), reason: 'canceled' }));
    });
    deps.jobs.wake();
    return;
  }
  if (sub.status !== 'active') return;
  const owner = sub.userId;
  const customer = owner ? await customerRef(deps.db, owner, deps.payments.name) : undefined;
  const order = await writeTransaction(deps.db, async (trx) => {
    // Re-checked under the row's lock: a cancellation committed since the read above wins.
    const locked = await trx
      .updateTable('subscriptions')
      .set({ updated_at: toTimestamp(now) })
      .where('id', '=', sub.id)
      .where('status', '=', 'active')
      .where('cancel_at_period_end', '=', 0)
      .where('current_period_end', '=', periodEnd)
      .executeTakeFirst();
    if (locked.numUpdatedRows === 0n) return undefined;
    let current = sub;
    // A change asked for takes effect now, with this period.
    const plan = sub.nextPlanId ? findPlan(sub.nextPlanId) : undefined;
    if (plan || sub.nextAmountCents) {
      const amount = plan?.priceCents ?? sub.nextAmountCents ?? sub.amountCents;
      const set = {
        plan_id: plan?.id ?? sub.planId,
        amount_cents: amount,
        interval: plan?.interval ?? sub.interval,
        next_plan_id: null,
        next_amount_cents: null,
      };
      if (await updateSubscriptionIf(trx, sub, { set, type: 'changed', detail: `Nouveau tarif appliqué : ${formatEuros(amount)}` }, now)) {
        current = { ...sub, planId: set.plan_id, amountCents: amount, interval: set.interval, nextPlanId: null, nextAmountCents: null };
      }
    }
    const periodStart = new Date(periodEnd);
    const { order } = await insertOrder(
      trx,
      {
        userId: owner ?? '',
        purpose: current.kind === 'plan' ? 'subscription' : 'donation',
        reason: 'renewal',
        offerId: current.planId ?? 'don',
        description: subscriptionLabel(current),
        interval: current.interval,
        amountCents: current.amountCents,
        vatRateBp: current.kind === 'plan' ? current.vatRateBp : 0,
        vatCents: current.kind === 'plan' ? vatIncluded(current.amountCents, current.vatRateBp) : 0,
        source: current.source,
        method: null,
        provider: deps.payments.name,
        subscriptionId: current.id,
        attemptKey: `renewal:${current.id}:${periodEnd}`,
        periodStart,
        periodEnd: addInterval(periodStart, current.interval),
      },
      now,
    );
    return order;
  });
  if (!order) return renew(deps, subscriptionId, periodEnd);
  if (order.status !== 'pending') return;
  if (!customer) {
    await writeTransaction(deps.db, (trx) =>
      transitionOrder(trx, order.id, 'failed', {
        cause: 'Aucun moyen de paiement enregistré',
        providerEventId: null,
        now,
        set: { failure_reason: 'Aucun moyen de paiement enregistré.' },
      }),
    );
    return;
  }
  await deps.payments.chargeRenewal({
    orderId: order.id,
    subscriptionId: sub.id,
    customerRef: customer,
    amountCents: order.amountCents,
    description: order.description,
    idempotencyKey: `renewal:${order.id}:1`,
  });
}

/** A retry of a refused renewal: charges the same order again, under the attempt's own key. */
async function retryRenewal(deps: SubscriptionDeps, payload: { subscriptionId: string; orderId: string; attempt: number }): Promise<void> {
  const sub = await findSubscription(deps.db, payload.subscriptionId);
  const order = await findOrder(deps.db, payload.orderId);
  if (!sub || sub.status !== 'past_due' || !order || order.status !== 'failed' || !sub.userId) return;
  const customer = await customerRef(deps.db, sub.userId, deps.payments.name);
  if (!customer) return;
  await deps.payments.chargeRenewal({
    orderId: order.id,
    subscriptionId: sub.id,
    customerRef: customer,
    amountCents: order.amountCents,
    description: order.description,
    idempotencyKey: `renewal:${order.id}:${payload.attempt}`,
  });
}

async function sendRenewalNotice(deps: SubscriptionDeps, subscriptionId: string, periodEnd: string): Promise<void> {
  await writeTransaction(deps.db, async (trx) => {
    // Read under the row's lock: a change committing meanwhile is either seen here or, coming
    // after, announces itself (`debitToAnnounce`); the payer's last mail is what stands.
    await trx
      .updateTable('subscriptions')
      .set({ updated_at: toTimestamp(deps.clock.now()) })
      .where('id', '=', subscriptionId)
      .execute();
    const sub = await findSubscription(trx, subscriptionId);
    if (!sub || sub.status !== 'active' || sub.cancelAtPeriodEnd || !sub.currentPeriodEnd || toTimestamp(sub.currentPeriodEnd) !== periodEnd) return;
    const mandate = subscriptionMandate(sub);
    const mailKey = `subscriptions.notice-mail:${sub.id}:${periodEnd}`;
    if (sub.kind === 'plan' && sub.interval === 'year') {
      const plan = findPlan(sub.nextPlanId ?? sub.planId ?? '');
      const sepa = mandate ? { mandate, methodLabel: sub.paymentMethod } : null;
      await mailOwner(
        deps,
        trx,
        sub.userId,
        renewalNoticeMail({
          siteUrl: deps.siteUrl,
          subscriptionId: sub.id,
          planLabel: plan?.label ?? subscriptionLabel(sub),
          amountCents: nextChargeCents(sub),
          renewsAt: sub.currentPeriodEnd,
          sepa,
        }),
        mailKey,
      );
    } else if (mandate && sub.kind !== 'gift') {
      // A monthly period: only a SEPA payer is told (the pre-notification of the debit); a card is just charged.
      await mailOwner(
        deps,
        trx,
        sub.userId,
        sepaDebitNoticeMail({
          siteUrl: deps.siteUrl,
          subscriptionId: sub.id,
          kind: sub.kind,
          label: subscriptionLabel(sub),
          amountCents: nextChargeCents(sub),
          debitAt: sub.currentPeriodEnd,
          methodLabel: sub.paymentMethod,
          mandate,
        }),
        mailKey,
      );
    }
  });
  deps.jobs.wake();
}

/**
 * A change given up after its debit was announced (a plan or amount asked, then taken back): the
 * debit is announced again as it now stands, in the pre-notification's own mail.
 */
async function announceDebitAgain(deps: SubscriptionDeps, trx: Kysely<Database>, sub: Subscription, debit: DebitToAnnounce): Promise<void> {
  await mailOwner(
    deps,
    trx,
    sub.userId,
    sepaDebitNoticeMail({
      siteUrl: deps.siteUrl,
      subscriptionId: sub.id,
      kind: sub.kind,
      label: subscriptionLabel(sub),
      amountCents: debit.amountCents,
      debitAt: debit.debitAt,
      methodLabel: debit.methodLabel,
      mandate: debit.mandate,
    }),
  );
}

export const subscriptionJobs = (deps: SubscriptionDeps) => [
  handle(RENEW, ({ payload }) => renew(deps, payload.subscriptionId, payload.periodEnd)),
  handle(RETRY_RENEWAL, ({ payload }) => retryRenewal(deps, payload)),
  handle(RENEWAL_NOTICE, ({ payload }) => sendRenewalNotice(deps, payload.subscriptionId, payload.periodEnd)),
  handle(END_AT_PROVIDER, ({ payload }) => endAtProvider(deps, payload.subscriptionId)),
];

// ---------------------------------------------------------------------------------------------
// What payments do to subscriptions

/** The fulfilment of subscription and donation orders (one-off donations have no subscription). */
export function subscriptionFulfilment(deps: SubscriptionDeps): Fulfilment {
  return {
    async paid(trx, order, { methodLabel, subscriptionRef, periodEnd, now, document }) {
      const recurring = order.subscriptionId !== null;
      const receipt = () =>
        mailOwner(
          deps,
          trx,
          order.userId,
          paymentReceivedMail({
            mandate: orderMandate(order, sub),
            siteUrl: deps.siteUrl,
            orderReference: order.reference,
            document,
            description: order.description,
            amountCents: order.amountCents,
            vatCents: order.vatCents,
            vatRateBp: order.vatRateBp,
            paidAt: now,
            methodLabel,
            purpose: order.purpose === 'subscription' ? 'subscription' : 'donation',
            recurring,
            renewal: order.reason === 'renewal',
          }),
        );
      const sub = order.subscriptionId ? await findSubscription(trx, order.subscriptionId) : undefined;
      // One thank-you per donation: a monthly donation's first payment is told by the mail that
      // starts it (with the receipt), not by a second one.
      const thankedOnStart = order.reason === 'initial' && sub?.kind === 'donation' && sub.status === 'incomplete';
      if (!thankedOnStart) await receipt();
      if (!sub) return;
      if (order.reason === 'initial') {
        if (sub.status !== 'incomplete') return;
        const end = periodEnd ?? addInterval(now, sub.interval);
        // The SEPA mandate signed with this first payment keeps the reference the reader was shown.
        const mandateRef = order.method === 'sepa_debit' ? mandateReferenceOf(order.reference) : null;
        const started = await updateSubscriptionIf(
          trx,
          sub,
          {
            set: {
              status: 'active',
              current_period_start: toTimestamp(now),
              current_period_end: toTimestamp(end),
              payment_method: methodLabel,
              provider_ref: subscriptionRef ?? null,
              mandate_ref: mandateRef,
            },
            type: 'started',
            detail: `Premier paiement reçu (${methodLabel})`,
          },
          now,
        );
        if (!started) {
          if (thankedOnStart) await receipt();
          return;
        }
        await schedulePeriod(deps, trx, sub, end);
        await mailOwner(
          deps,
          trx,
          sub.userId,
          sub.kind === 'plan'
            ? subscriptionStartedMail({
                siteUrl: deps.siteUrl,
                subscriptionId: sub.id,
                planLabel: findPlan(sub.planId ?? '')?.label ?? '',
                amountCents: sub.amountCents,
                interval: sub.interval,
                nextPaymentAt: end,
                immediateStart: order.immediateStartAt !== null,
                withdrawal: withdrawalBlocks(deps.siteUrl, { orderId: order.id }, orderPeriod(now).lastDay),
              })
            : donationStartedMail({
                siteUrl: deps.siteUrl,
                subscriptionId: sub.id,
                amountCents: sub.amountCents,
                nextPaymentAt: end,
                payment: { paidAt: now, methodLabel, orderReference: order.reference, document, mandate: orderMandate(order, sub) },
              }),
        );
        return;
      }
      // A renewal paid (at once, or by a retry): the period it was for begins.
      if (!isLive(sub.status)) {
        // Money taken for a subscription that has ended (the provider charged before it learnt of
        // the end): it is given back, by a job, since the provider is not called in a transaction.
        log.warn('subscriptions.payment_after_end', { subscriptionId: sub.id, orderId: order.id });
        await scheduleUnwantedRefund(deps, trx, order.id, 'paiement reçu pour un abonnement déjà terminé');
        return;
      }
      if (!order.periodStart || !order.periodEnd) {
        log.warn('subscriptions.late_payment', { subscriptionId: sub.id, orderId: order.id });
        return;
      }
      if (sub.currentPeriodEnd && order.periodEnd <= sub.currentPeriodEnd) return;
      const advanced = await updateSubscriptionIf(
        trx,
        sub,
        {
          set: {
            status: 'active',
            current_period_start: toTimestamp(order.periodStart),
            current_period_end: toTimestamp(order.periodEnd),
            failed_attempts: 0,
            ...(methodLabel ? { payment_method: methodLabel } : {}),
          },
          type: 'renewed',
          // The period as its invoice prints it: its last day is the one before the next starts.
          detail: `Échéance payée ${formatPeriod(order.periodStart, order.periodEnd)}`,
        },
        now,
      );
      if (advanced) await schedulePeriod(deps, trx, sub, order.periodEnd);
    },

    /**
     * A subscription whose running period is refunded ends at once (CGV art. 8: a withdrawal is
     * refunded in full, and the subscription ends). The refund of an earlier period, or of a
     * monthly donation's payment, changes nothing: the back-office ends those apart if asked.
     */
    async refunded(trx, order, { now }) {
      if (order.purpose !== 'subscription' || !order.subscriptionId) return;
      const sub = await findSubscription(trx, order.subscriptionId);
      if (!sub || sub.kind !== 'plan' || !isLive(sub.status)) return;
      const later = await trx
        .selectFrom('orders')
        .select('id')
        .where('subscription_id', '=', sub.id)
        .where('status', '=', 'paid')
        .where('id', '!=', order.id)
        .where('paid_at', '>', toTimestamp(order.paidAt ?? new Date(0)))
        .executeTakeFirst();
      if (later) return;
      const ended = await updateSubscriptionIf(
        trx,
        sub,
        { set: { status: 'canceled', ended_at: toTimestamp(now) }, type: 'ended-refunded', detail: 'Paiement de la période en cours remboursé' },
        now,
      );
      if (!ended) return;
      if (sub.providerRef) await schedule(deps, trx, END_AT_PROVIDER, { subscriptionId: sub.id }, { uniqueKey: `subscriptions.end-at-provider:${sub.id}` });
      await mailOwner(deps, trx, sub.userId, endedMail({ siteUrl: deps.siteUrl, kind: sub.kind, label: subscriptionLabel(sub), reason: 'refunded' }));
    },

    async failed(trx, order, { reason, now }) {
      if (!order.subscriptionId) return;
      const sub = await findSubscription(trx, order.subscriptionId);
      if (!sub) return;
      if (order.reason === 'initial') {
        if (sub.status === 'incomplete')
          await updateSubscriptionIf(trx, sub, { set: { status: 'expired', ended_at: toTimestamp(now) }, type: 'first-payment-failed', detail: reason }, now);
        return;
      }
      if (!isLive(sub.status)) return;
      const attempts = sub.failedAttempts + 1;
      const last = attempts > RETRY_DAYS.length;
      const nextAttemptAt = last ? null : addDays(order.periodStart ?? now, RETRY_DAYS[attempts - 1]!);
      const moved = await updateSubscriptionIf(
        trx,
        sub,
        {
          set: last ? { status: 'expired', failed_attempts: attempts, ended_at: toTimestamp(now) } : { status: 'past_due', failed_attempts: attempts },
          type: last ? 'expired-unpaid' : 'payment-failed',
          detail: reason,
        },
        now,
      );
      if (!moved) return;
      const label = subscriptionLabel(sub);
      // A SEPA debit presented again is announced in this very mail (CGV art. 5).
      const mandate = subscriptionMandate(sub);
      const sepa = mandate ? { mandate, methodLabel: sub.paymentMethod } : null;
      await mailOwner(
        deps,
        trx,
        sub.userId,
        paymentFailedMail({
          siteUrl: deps.siteUrl,
          subscriptionId: sub.id,
          kind: sub.kind,
          label,
          amountCents: order.amountCents,
          reason,
          nextAttemptAt,
          sepa,
        }),
      );
      if (last) {
        await mailOwner(deps, trx, sub.userId, endedMail({ siteUrl: deps.siteUrl, kind: sub.kind, label, reason: 'unpaid' }));
        return;
      }
      // Stripe retries by itself; the site retries for the providers it renews for.
      if (!deps.payments.runsRenewals && nextAttemptAt) {
        await schedule(
          deps,
          trx,
          RETRY_RENEWAL,
          { subscriptionId: sub.id, orderId: order.id, attempt: attempts + 1 },
          { runAt: nextAttemptAt, uniqueKey: `subscriptions.retry:${order.id}:${attempts + 1}` },
        );
      }
    },
  };
}

/**
 * The subscription a provider's event is about, by the provider's reference. Unknown by it, but
 * naming (in the provider's metadata) one of ours still waiting for its first payment: the
 * checkout that will give it that reference has not been told yet (deliveries are not ordered),
 * so the event is early, not foreign — refused before any effect, and delivered again later.
 */
async function subscriptionOfEvent(
  deps: SubscriptionDeps,
  trx: Kysely<Database>,
  event: { id: string; type: string; subscriptionRef: string; subscriptionId?: string },
): Promise<Subscription | undefined> {
  const sub = await findByProviderRef(trx, deps.payments.name, event.subscriptionRef);
  if (sub) return sub;
  const named = event.subscriptionId ? await findSubscription(trx, event.subscriptionId) : undefined;
  if (named && named.provider === deps.payments.name && named.providerRef === null && named.status === 'incomplete') {
    throw new EventAhead(`${event.type} for subscription ${named.id}, still waiting for its first payment`);
  }
  log.warn('subscriptions.event_for_unknown', { eventId: event.id, type: event.type });
  return undefined;
}

/** Events about subscriptions themselves (providers that run renewals), and saved methods. */
export async function applySubscriptionEvent(
  deps: SubscriptionDeps,
  trx: Kysely<Database>,
  event: PaymentEvent,
  now: Date,
  fulfilments: Fulfilments = {},
): Promise<void> {
  switch (event.type) {
    case 'renewal.succeeded': {
      let sub = await subscriptionOfEvent(deps, trx, event);
      if (!sub) return;
      // The provider charged the new plan or amount asked for: it is the subscription's from this
      // period (unless it has ended: that payment is given back, see the fulfilment's `paid`).
      const plan = sub.nextPlanId ? findPlan(sub.nextPlanId) : undefined;
      if ((plan || sub.nextAmountCents) && isLive(sub.status) && event.periodStart > (sub.currentPeriodStart ?? new Date(0))) {
        const set = {
          plan_id: plan?.id ?? sub.planId,
          amount_cents: plan?.priceCents ?? sub.nextAmountCents ?? sub.amountCents,
          interval: plan?.interval ?? sub.interval,
          next_plan_id: null,
          next_amount_cents: null,
        };
        if (await updateSubscriptionIf(trx, sub, { set, type: 'changed', detail: `Nouveau tarif appliqué : ${formatEuros(set.amount_cents)}` }, now)) {
          sub = { ...sub, planId: set.plan_id, amountCents: set.amount_cents, interval: set.interval, nextPlanId: null, nextAmountCents: null };
        }
      }
      const { order, created } = await insertOrder(
        trx,
        {
          userId: sub.userId ?? '',
          purpose: sub.kind === 'plan' ? 'subscription' : 'donation',
          reason: 'renewal',
          offerId: sub.planId ?? 'don',
          description: subscriptionLabel(sub),
          interval: sub.interval,
          amountCents: event.amountCents,
          vatRateBp: sub.kind === 'plan' ? sub.vatRateBp : 0,
          vatCents: sub.kind === 'plan' ? vatIncluded(event.amountCents, sub.vatRateBp) : 0,
          source: sub.source,
          method: null,
          provider: deps.payments.name,
          subscriptionId: sub.id,
          attemptKey: `invoice:${event.invoiceRef}`,
          periodStart: event.periodStart,
          periodEnd: event.periodEnd,
        },
        now,
      );
      if (!created && order.status === 'paid') return;
      await transitionOrder(trx, order.id, 'paid', {
        cause: 'Échéance prélevée par le prestataire',
        providerEventId: event.id,
        now,
        set: { payment_ref: event.paymentRef, paid_at: toTimestamp(now) },
      }).then(async (paid) => {
        // Through the composed fulfilment (with billing's invoice or receipt), like any paid order.
        if (paid) await (fulfilments[paid.purpose] ?? subscriptionFulfilment(deps)).paid(trx, paid, { methodLabel: '', now });
      });
      return;
    }
    case 'renewal.failed': {
      const sub = await subscriptionOfEvent(deps, trx, event);
      if (!sub || !isLive(sub.status)) return;
      // An earlier attempt's refusal delivered after the invoice was paid: old news.
      const paid = await trx.selectFrom('orders').select('status').where('attempt_key', '=', `invoice:${event.invoiceRef}`).executeTakeFirst();
      if (paid?.status === 'paid' || paid?.status === 'refunded') return;
      const moved = await updateSubscriptionIf(
        trx,
        sub,
        { set: { status: 'past_due', failed_attempts: sub.failedAttempts + 1 }, type: 'payment-failed', detail: event.reason },
        now,
      );
      const mandate = subscriptionMandate(sub);
      const sepa = mandate ? { mandate, methodLabel: sub.paymentMethod } : null;
      // The provider's invoice is at the price that took effect with this period (a change asked for is applied on its success).
      if (moved)
        await mailOwner(
          deps,
          trx,
          sub.userId,
          paymentFailedMail({
            siteUrl: deps.siteUrl,
            subscriptionId: sub.id,
            kind: sub.kind,
            label: subscriptionLabel(sub),
            amountCents: nextChargeCents(sub),
            reason: event.reason,
            nextAttemptAt: event.nextAttemptAt,
            sepa,
          }),
        );
      return;
    }
    case 'subscription.ended': {
      const sub = await subscriptionOfEvent(deps, trx, event);
      if (!sub || (sub.status !== 'active' && sub.status !== 'past_due' && sub.status !== 'incomplete')) return;
      const status = sub.cancelAtPeriodEnd ? 'canceled' : 'expired';
      const moved = await updateSubscriptionIf(
        trx,
        sub,
        { set: { status, ended_at: toTimestamp(now) }, type: 'ended', detail: 'Fin notifiée par le prestataire' },
        now,
      );
      if (moved)
        await mailOwner(
          deps,
          trx,
          sub.userId,
          endedMail({ siteUrl: deps.siteUrl, kind: sub.kind, label: subscriptionLabel(sub), reason: status === 'canceled' ? 'canceled' : 'unpaid' }),
        );
      return;
    }
    case 'payment_method.updated': {
      await applyPaymentMethodChange(
        deps,
        trx,
        {
          customerRef: event.customerRef,
          changeRef: event.changeRef ?? event.id,
          methodLabel: event.methodLabel,
          method: event.method ?? (event.methodLabel.startsWith('Prélèvement SEPA') ? 'sepa_debit' : 'card'),
        },
        now,
      );
      return;
    }
    default:
      return;
  }
}

/**
 * A saved method changed at the provider: every running subscription of its customer is paid by
 * it from now on, and its owner gets the security notice. One change (`changeRef`) is applied
 * once, whether the reader's return or the provider's notification (or its replay) brings it:
 * the update is conditional on the change not being recorded yet, the mail's job unique by it.
 * Answers the subscriptions it changed.
 */
async function applyPaymentMethodChange(
  deps: SubscriptionDeps,
  trx: Kysely<Database>,
  change: { customerRef: string; changeRef: string; methodLabel: string; method: 'card' | 'sepa_debit' },
  now: Date,
): Promise<string[]> {
  const owner = await trx
    .selectFrom('payment_customers')
    .select('user_id')
    .where('provider', '=', deps.payments.name)
    .where('customer_ref', '=', change.customerRef)
    .executeTakeFirst();
  if (!owner) return [];
  const subs = await trx
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', owner.user_id)
    .where('status', 'in', ['active', 'past_due'])
    .where('kind', '!=', 'gift')
    .execute();
  const changed: string[] = [];
  for (const row of subs) {
    const sub = (await findSubscription(trx, row.id))!;
    if (sub.paymentMethodRef === change.changeRef) continue;
    // A SEPA debit is a new mandate, with a new reference; a card has none.
    const mandateRef = change.method === 'sepa_debit' ? newMandateReference() : null;
    const moved = await trx
      .updateTable('subscriptions')
      .set({ payment_method: change.methodLabel, payment_method_ref: change.changeRef, mandate_ref: mandateRef, updated_at: toTimestamp(now) })
      .where('id', '=', sub.id)
      .where('status', 'in', ['active', 'past_due'])
      .where((eb) => eb.or([eb('payment_method_ref', 'is', null), eb('payment_method_ref', '!=', change.changeRef)]))
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) continue;
    changed.push(sub.id);
    await insertSubscriptionEvent(trx, { subscriptionId: sub.id, type: 'payment-method', from: sub.status, to: sub.status, detail: change.methodLabel }, now);
    // A reader in arrears who fixed the method is charged again now rather than at the next retry.
    const retryNow = sub.status === 'past_due' && !deps.payments.runsRenewals;
    const failed = retryNow
      ? await trx
          .selectFrom('orders')
          .select(['id', 'amount_cents as amountCents'])
          .where('subscription_id', '=', sub.id)
          .where('status', '=', 'failed')
          .where('reason', '=', 'renewal')
          .orderBy('created_at', 'desc')
          .executeTakeFirst()
      : undefined;
    const mandate = subscriptionMandate({ mandateRef });
    // A new mandate's first debit, when its period's announcement has gone, or the payment in
    // arrears presented on it now: the mail that confirms the mandate announces it (CGV art. 5).
    const debit = failed
      ? retryToAnnounce(failed, mandate, change.methodLabel, now)
      : debitToAnnounce({ ...sub, mandateRef, paymentMethod: change.methodLabel }, now);
    await mailOwner(
      deps,
      trx,
      sub.userId,
      paymentMethodChangedMail({
        siteUrl: deps.siteUrl,
        subscriptionId: sub.id,
        kind: sub.kind,
        label: subscriptionLabel(sub),
        methodLabel: change.methodLabel,
        changedAt: now,
        mandate,
        debit,
      }),
      `subscriptions.method-changed:${sub.id}:${change.changeRef}`,
    );
    if (failed)
      await schedule(
        deps,
        trx,
        RETRY_RENEWAL,
        { subscriptionId: sub.id, orderId: failed.id, attempt: sub.failedAttempts + 1 },
        { uniqueKey: `subscriptions.retry-now:${failed.id}:${change.changeRef}` },
      );
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------
// The owner's view and actions

const GIFT_HAS_NO_ACTIONS = 'Un abonnement offert ne se résilie ni ne se modifie : il se termine tout seul à sa date, sans aucun paiement.';

export interface SubscriptionDetail {
  subscription: Subscription;
  label: string;
  orders: Order[];
  events: Awaited<ReturnType<typeof subscriptionEvents>>;
}

export const listSubscriptions = (deps: Pick<ServerDeps, 'db'>, userId: string) => listUserSubscriptions(deps.db, userId);

export async function subscriptionDetail(deps: Pick<ServerDeps, 'db'>, userId: string, subscriptionId: string): Promise<SubscriptionDetail | undefined> {
  const subscription = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!subscription) return undefined;
  const [orders, events] = await Promise.all([listSubscriptionOrders(deps.db, subscription.id), subscriptionEvents(deps.db, subscription.id)]);
  return { subscription, label: subscriptionLabel(subscription), orders, events };
}

const NOT_FOUND = 'Cet abonnement n’existe pas.';
/** The subscription moved between reading and writing (a renewal, another tab): nothing was recorded. */
const changedMeanwhile = () =>
  fail(409, 'Votre abonnement vient de changer (une échéance, une autre fenêtre) : rien n’a été modifié. Rechargez la page et recommencez.');
const providerDown = () => fail(503, 'Le service de paiement ne répond pas : rien n’a changé. Réessayez dans un instant.', 30);

/**
 * Tells the provider first (when it runs renewals): if it refuses, nothing changes here either.
 * The key names the subscription's state (how many events it has had) as well as the change:
 * a double click sends the same key, while cancel → resume → cancel sends three different ones
 * (a provider answers a reused key with its first answer and changes nothing).
 */
async function atProvider(
  deps: SubscriptionDeps,
  sub: Subscription,
  change: { cancelAtPeriodEnd?: boolean; next?: { amountCents: number; interval: BillingInterval; description: string } },
  action: string,
): Promise<boolean> {
  if (!deps.payments.runsRenewals || !sub.providerRef) return true;
  const version = await countSubscriptionEvents(deps.db, sub.id);
  try {
    await deps.payments.updateSubscription({ subscriptionRef: sub.providerRef, ...change, idempotencyKey: `${action}:${sub.id}:v${version}` });
    return true;
  } catch (error) {
    if (error instanceof ProviderError) return false;
    throw error;
  }
}

/** Cancels (or, for a monthly donation, stops) at the end of the paid period. */
export async function cancelSubscription(deps: SubscriptionDeps, userId: string, subscriptionId: string): Promise<Result<{ endsAt: Date }>> {
  const sub = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!sub) return fail(404, NOT_FOUND);
  if (sub.kind === 'gift') return fail(409, GIFT_HAS_NO_ACTIONS);
  if (!isLive(sub.status)) return fail(409, 'Cet abonnement est déjà terminé.');
  const now = deps.clock.now();
  if (sub.cancelAtPeriodEnd) return { ok: true, endsAt: sub.currentPeriodEnd ?? now };
  // In arrears, the period is already over: it ends now, nothing more is charged (and a provider
  // that runs renewals stops retrying the unpaid invoice).
  const endsNow = sub.status === 'past_due';
  if (endsNow && deps.payments.runsRenewals && sub.providerRef) {
    try {
      await deps.payments.cancelSubscriptionNow(sub.providerRef, `cancel-now:${sub.id}`);
    } catch (error) {
      if (error instanceof ProviderError) return providerDown();
      throw error;
    }
  } else if (!(await atProvider(deps, sub, { cancelAtPeriodEnd: true }, 'cancel'))) return providerDown();
  const endsAt = endsNow ? now : (sub.currentPeriodEnd ?? now);
  const done = await writeTransaction(deps.db, async (trx) => {
    const moved = endsNow
      ? await updateSubscriptionIf(
          trx,
          sub,
          {
            set: { status: 'canceled', cancel_at_period_end: 1, ended_at: toTimestamp(now) },
            type: 'canceled',
            detail: 'Résiliation demandée par la personne abonnée, effective immédiatement (paiement en retard)',
          },
          now,
        )
      : await updateSubscriptionIf(
          trx,
          sub,
          { set: { cancel_at_period_end: toFlag(true) }, type: 'cancel-requested', detail: `Résiliation demandée, effective le ${formatDate(endsAt)}` },
          now,
        );
    if (moved)
      await mailOwner(
        deps,
        trx,
        sub.userId,
        cancellationMail({ siteUrl: deps.siteUrl, subscriptionId: sub.id, kind: sub.kind, label: subscriptionLabel(sub), endsAt }),
      );
    return moved;
  });
  if (!done) return changedMeanwhile();
  deps.jobs.wake();
  return { ok: true, endsAt };
}

export async function resumeSubscription(deps: SubscriptionDeps, userId: string, subscriptionId: string): Promise<Result> {
  const sub = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!sub) return fail(404, NOT_FOUND);
  if (sub.kind === 'gift') return fail(409, GIFT_HAS_NO_ACTIONS);
  const now = deps.clock.now();
  if (sub.status !== 'active' || !sub.cancelAtPeriodEnd || !sub.currentPeriodEnd || sub.currentPeriodEnd <= now)
    return fail(409, 'Cet abonnement ne peut plus être repris : il est terminé ou n’a pas été résilié.');
  if (!(await atProvider(deps, sub, { cancelAtPeriodEnd: false }, 'resume'))) return providerDown();
  const done = await writeTransaction(deps.db, async (trx) => {
    const moved = await updateSubscriptionIf(trx, sub, { set: { cancel_at_period_end: 0 }, type: 'resumed', detail: 'Résiliation annulée' }, now);
    // A SEPA debit whose announcement was skipped while the subscription was resigned is announced here.
    const debit = debitToAnnounce({ ...sub, cancelAtPeriodEnd: false }, deps.clock.now());
    if (moved)
      await mailOwner(
        deps,
        trx,
        sub.userId,
        resumedMail({
          siteUrl: deps.siteUrl,
          subscriptionId: sub.id,
          kind: sub.kind,
          label: subscriptionLabel(sub),
          nextPaymentAt: sub.currentPeriodEnd!,
          debit,
        }),
      );
    return moved;
  });
  if (!done) return changedMeanwhile();
  deps.jobs.wake();
  return { ok: true };
}

/**
 * The period has ended and its renewal is being paid (a job a few seconds behind, or the
 * provider's invoice on its way): a change now would apply to a payment already under way.
 */
function paymentUnderWay(periodEnd: Date, what: string): Result<never> {
  return fail(
    409,
    `Le paiement de l’échéance du ${formatDate(periodEnd)} est en cours : vous pourrez ${what} dès qu’il sera passé, dans quelques minutes.`,
    60,
  );
}

/** Another plan from the next renewal on (monthly ↔ yearly, normal ↔ solidaire). */
export async function changePlan(deps: SubscriptionDeps, userId: string, subscriptionId: string, planId: string): Promise<Result<{ effectiveAt: Date }>> {
  const sub = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!sub || sub.kind !== 'plan') return fail(404, NOT_FOUND);
  if (sub.status !== 'active') return fail(409, 'Seul un abonnement actif peut changer de formule.');
  const plan = findPlan(planId);
  if (!plan) return fail(422, 'Cette formule n’existe pas.');
  const now = deps.clock.now();
  const effectiveAt = sub.currentPeriodEnd ?? now;
  const back = plan.id === sub.planId;
  // The current plan with no change pending: nothing to record, nothing to tell the provider.
  if (back && !sub.nextPlanId) return { ok: true, effectiveAt };
  if (effectiveAt <= now) return paymentUnderWay(effectiveAt, 'changer de formule');
  if (
    !(await atProvider(
      deps,
      sub,
      { next: { amountCents: plan.priceCents, interval: plan.interval, description: `Abonnement ${plan.label}` } },
      `plan-${plan.id}`,
    ))
  )
    return providerDown();
  const done = await writeTransaction(deps.db, async (trx) => {
    const moved = await updateSubscriptionIf(
      trx,
      sub,
      {
        set: { next_plan_id: back ? null : plan.id, next_amount_cents: null, vat_rate_bp: SUBSCRIPTION_VAT_BP },
        type: 'plan-change',
        detail: back ? 'Changement de formule annulé' : `Formule ${plan.label} à partir du ${formatDate(effectiveAt)}`,
      },
      now,
    );
    if (!moved) return false;
    // The debit at its new amount, when its announcement has gone (CGV art. 5); the time read
    // under the row's lock, after the provider's answer, as the notice job reads it.
    const debit = debitToAnnounce({ ...sub, nextPlanId: back ? null : plan.id, nextAmountCents: null }, deps.clock.now());
    if (!back) {
      await mailOwner(
        deps,
        trx,
        sub.userId,
        planChangedMail({
          siteUrl: deps.siteUrl,
          subscriptionId: sub.id,
          kind: 'plan',
          fromLabel: findPlan(sub.planId ?? '')?.label ?? '',
          toLabel: plan.label,
          amountCents: plan.priceCents,
          interval: plan.interval,
          effectiveAt,
          debit,
        }),
      );
    } else if (debit) {
      await announceDebitAgain(deps, trx, sub, debit);
    }
    return true;
  });
  if (!done) return changedMeanwhile();
  deps.jobs.wake();
  return { ok: true, effectiveAt };
}

/** A monthly donation's new amount, from the next payment on. */
export async function changeDonationAmount(
  deps: SubscriptionDeps,
  userId: string,
  subscriptionId: string,
  amountCents: number,
): Promise<Result<{ effectiveAt: Date }>> {
  const sub = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!sub || sub.kind !== 'donation') return fail(404, NOT_FOUND);
  if (sub.status !== 'active') return fail(409, 'Seul un don mensuel en cours peut changer de montant.');
  if (!Number.isInteger(amountCents) || amountCents < donationMinimumCents)
    return fail(422, `Le montant minimum d’un don est de ${formatEuros(donationMinimumCents)}.`);
  if (amountCents > donationMaximumCents) return fail(422, `Pour un don mensuel de plus de ${formatEuros(donationMaximumCents)}, écrivez-nous.`);
  const now = deps.clock.now();
  const effectiveAt = sub.currentPeriodEnd ?? now;
  const same = amountCents === sub.amountCents;
  // The current amount with no change pending: nothing to record, nothing to tell the provider.
  if (same && sub.nextAmountCents === null) return { ok: true, effectiveAt };
  if (effectiveAt <= now) return paymentUnderWay(effectiveAt, 'changer de montant');
  if (
    !(await atProvider(
      deps,
      sub,
      { next: { amountCents, interval: 'month', description: `Don mensuel de ${formatEuros(amountCents)}` } },
      `amount-${amountCents}`,
    ))
  )
    return providerDown();
  const done = await writeTransaction(deps.db, async (trx) => {
    const moved = await updateSubscriptionIf(
      trx,
      sub,
      {
        set: { next_amount_cents: same ? null : amountCents },
        type: 'amount-change',
        detail: same ? 'Changement de montant annulé' : `Montant de ${formatEuros(amountCents)} à partir du ${formatDate(effectiveAt)}`,
      },
      now,
    );
    if (!moved) return false;
    const debit = debitToAnnounce({ ...sub, nextAmountCents: same ? null : amountCents }, deps.clock.now());
    if (!same)
      await mailOwner(
        deps,
        trx,
        sub.userId,
        planChangedMail({
          siteUrl: deps.siteUrl,
          subscriptionId: sub.id,
          kind: 'donation',
          fromLabel: formatEuros(sub.amountCents),
          toLabel: formatEuros(amountCents),
          amountCents,
          interval: 'month',
          effectiveAt,
          debit,
        }),
      );
    else if (debit) await announceDebitAgain(deps, trx, sub, debit);
    return true;
  });
  if (!done) return changedMeanwhile();
  deps.jobs.wake();
  return { ok: true, effectiveAt };
}

/** The provider's page where the owner changes the saved payment method. */
export async function paymentMethodPage(deps: SubscriptionDeps, userId: string, subscriptionId: string): Promise<Result<{ url: string }>> {
  const sub = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!sub) return fail(404, NOT_FOUND);
  if (sub.kind === 'gift') return fail(409, GIFT_HAS_NO_ACTIONS);
  if (!isLive(sub.status)) return fail(409, 'Cet abonnement est terminé.');
  const customer = await customerRef(deps.db, userId, deps.payments.name);
  if (!customer) return fail(409, 'Aucun moyen de paiement n’est enregistré pour cet abonnement.');
  try {
    const url = await deps.payments.paymentMethodUrl({
      customerRef: customer,
      subscriptionId: sub.id,
      subscriptionRef: sub.providerRef,
      returnUrl: new URL(`/mon-compte/mes-abonnements/${sub.id}?${METHOD_RETURN}`, deps.siteUrl).href,
      idempotencyKey: `method:${sub.id}:${deps.clock.now().toISOString().slice(0, 16)}`,
    });
    return { ok: true, url };
  } catch (error) {
    if (error instanceof ProviderError) return providerDown();
    throw error;
  }
}

/** The query of the return from the provider's method page: the page then reads what it saved. */
export const METHOD_RETURN = 'moyen-de-paiement=retour';

/**
 * The reader is back from the provider's method page: what it saved is applied now, so that the
 * page shows the new method at once (the provider's notification, later, finds it done). Answers
 * the method now saved, or null when nothing was (the reader gave up, or it is not theirs).
 */
export async function confirmPaymentMethodChange(
  deps: SubscriptionDeps,
  userId: string,
  subscriptionId: string,
  changeRef: string | null,
): Promise<Result<{ methodLabel: string | null }>> {
  const sub = await findUserSubscription(deps.db, userId, subscriptionId);
  if (!sub) return fail(404, NOT_FOUND);
  if (sub.kind === 'gift' || !isLive(sub.status)) return { ok: true, methodLabel: null };
  const customer = await customerRef(deps.db, userId, deps.payments.name);
  if (!customer) return { ok: true, methodLabel: null };
  let saved: Awaited<ReturnType<SubscriptionDeps['payments']['paymentMethodChange']>>;
  try {
    saved = await deps.payments.paymentMethodChange({ customerRef: customer, changeRef });
  } catch (error) {
    if (error instanceof ProviderError) return providerDown();
    throw error;
  }
  if (!saved) return { ok: true, methodLabel: null };
  const change = saved;
  await writeTransaction(deps.db, (trx) => applyPaymentMethodChange(deps, trx, { customerRef: customer, ...change }, deps.clock.now()));
  deps.jobs.wake();
  return { ok: true, methodLabel: change.methodLabel };
}

/** An administrator ends a subscription at once, on the reader's behalf (a withdrawal, a request by mail). */
export async function cancelNowForReader(deps: SubscriptionDeps, subscriptionId: string, cause: string): Promise<Result> {
  const sub = await findSubscription(deps.db, subscriptionId);
  if (!sub) return fail(404, NOT_FOUND);
  if (sub.status === 'incomplete') return fail(409, 'Cet abonnement attend son premier paiement : il commencera ou expirera avec lui.');
  if (!isLive(sub.status)) return fail(409, 'Cet abonnement est déjà terminé.');
  const now = deps.clock.now();
  if (deps.payments.runsRenewals && sub.providerRef) {
    try {
      await deps.payments.cancelSubscriptionNow(sub.providerRef, `cancel-now:${sub.id}`);
    } catch (error) {
      if (error instanceof ProviderError) return providerDown();
      throw error;
    }
  }
  const moved = await writeTransaction(deps.db, async (trx) => {
    const done = await updateSubscriptionIf(
      trx,
      sub,
      { set: { status: 'canceled', ended_at: toTimestamp(now) }, type: 'canceled-by-staff', detail: cause },
      now,
    );
    if (done) await mailOwner(deps, trx, sub.userId, endedMail({ siteUrl: deps.siteUrl, kind: sub.kind, label: subscriptionLabel(sub), reason: 'admin' }));
    return done;
  });
  // It moved meanwhile (a renewal, the reader's own cancellation, another administrator): nothing was ended here.
  if (!moved) return fail(409, 'Cet abonnement vient de changer : rechargez la page et vérifiez son état.');
  deps.jobs.wake();
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Personal data (RGPD): the account's export and deletion (src/server/account/parts.ts)

/**
 * A subscription ended by the deletion of its owner's account, or by the refund of its running
 * period, told to the provider that runs its renewals (Stripe). Neither can wait on the provider
 * (each is one transaction, with no provider call in it): this durable job, scheduled in that
 * transaction, is retried until the provider has ended it.
 */
export const END_AT_PROVIDER = jobType({ kind: 'subscriptions.end-at-provider', schema: z.object({ subscriptionId: z.string() }), maxAttempts: 20 });

async function endAtProvider(deps: SubscriptionDeps, subscriptionId: string): Promise<void> {
  const sub = await findSubscription(deps.db, subscriptionId);
  if (!sub?.providerRef) return;
  if (sub.provider !== deps.payments.name) return log.warn('subscriptions.end_at_other_provider', { subscriptionId, provider: sub.provider });
  if (!deps.payments.runsRenewals) return;
  // A ProviderError throws: the job is tried again later.
  await deps.payments.cancelSubscriptionNow(sub.providerRef, `cancel-now:${sub.id}`);
}

/** The user's subscriptions and monthly donations, every one (even never paid), with their history. */
export async function exportUserSubscriptions(db: Kysely<Database>, userId: string) {
  const rows = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      kind: row.kind,
      label: subscriptionLabel({ kind: row.kind, planId: row.plan_id, amountCents: row.amount_cents }),
      plan_id: row.plan_id,
      amount_cents: row.amount_cents,
      interval: row.interval,
      vat_rate_bp: row.vat_rate_bp,
      status: row.status,
      cancel_at_period_end: Boolean(row.cancel_at_period_end),
      current_period_start: row.current_period_start,
      current_period_end: row.current_period_end,
      next_plan_id: row.next_plan_id,
      next_amount_cents: row.next_amount_cents,
      payment_method: row.payment_method,
      provider: row.provider,
      source: row.source,
      failed_attempts: row.failed_attempts,
      created_at: row.created_at,
      ended_at: row.ended_at,
      history: (await subscriptionEvents(db, row.id)).map((e) => ({ type: e.type, from: e.from, to: e.to, detail: e.detail, at: toTimestamp(e.at) })),
    })),
  );
}

/**
 * On deletion of an account: whatever still runs ends now (nothing more is charged, and a
 * provider that runs the renewals is told by a job scheduled here), then every subscription is
 * detached from the account. The rows stay, anonymous, beside the orders they explain.
 */
export async function eraseUserSubscriptions(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  const running = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['active', 'past_due', 'incomplete'])
    .execute();
  for (const row of running) {
    const ended = await db
      .updateTable('subscriptions')
      .set({ status: 'canceled', ended_at: toTimestamp(now), updated_at: toTimestamp(now) })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (ended.numUpdatedRows === 0n) continue;
    await insertSubscriptionEvent(
      db,
      {
        subscriptionId: row.id,
        type: 'account-deleted',
        from: row.status,
        to: 'canceled',
        detail: 'Compte supprimé : arrêt immédiat, plus rien n’est prélevé',
      },
      now,
    );
    if (row.provider_ref)
      await schedule({ clock: { now: () => now } }, db, END_AT_PROVIDER, { subscriptionId: row.id }, { uniqueKey: `subscriptions.end-at-provider:${row.id}` });
  }
  await db
    .updateTable('subscriptions')
    .set({ user_id: null, updated_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .execute();
}
