/**
 * SEPA direct debit mandates, as the reader reads them: the référence unique de mandat (RUM)
 * beside the identifiant créancier SEPA (ICS) of the cooperative (config/publisher.ts), on the
 * payment's confirmation page and mail, in « Mes abonnements », and in the pre-notification of
 * each debit (CGV art. 5).
 *
 * A mandate's reference is stable and unique:
 * - signed at a payment (the first one of a subscription, or a one-off donation), it is derived
 *   from that order's reference, itself unique: `CTC-7KQ2M-X9P4R`. The subscription stores it
 *   when that payment goes through, so that it never changes afterwards;
 * - signed when a running subscription moves to SEPA at the provider (no order), it is new and
 *   random, in a shape of its own so that it never meets an order's: `CTC-M-7KQ2M-X9P4R`,
 *   and the unique index of `subscriptions.mandate_ref` keeps it apart from every other.
 *
 * Each debit is announced (pre-notification) at least `SEPA_PRENOTICE_DAYS` before it, by the
 * `renewal-notice` job, which reads what stands when it runs. What the payer changes after that
 * job's time (a plan, an amount, a new mandate, a resumption) is announced at once, in the mail
 * that confirms the change (`debitToAnnounce`): the renewal keeps its day (CGV art. 5).
 */
import { addDays } from 'date-fns';
import { findPlan } from '../../config/catalog';
import { SEPA_CREDITOR_ID } from '../../config/publisher';
import type { BillingInterval, PaymentMethodKind, SubscriptionKind, SubscriptionStatus } from '../db/database';
import { newOrderReference } from '../orders/references';
import { RENEWAL_NOTICE_DAYS, SEPA_PRENOTICE_DAYS } from './state';

export interface SepaMandate {
  /** Référence unique de mandat (RUM). */
  reference: string;
  /** Identifiant créancier SEPA (ICS). */
  creditorId: string;
}

/** The mandate signed with the payment of this order (its first SEPA payment). */
export const mandateReferenceOf = (orderReference: string): string => `CTC-${orderReference}`;

/** A mandate signed outside any order (a running subscription moved to SEPA at the provider). */
export const newMandateReference = (): string => `CTC-M-${newOrderReference()}`;

const mandate = (reference: string): SepaMandate => ({ reference, creditorId: SEPA_CREDITOR_ID });

/** A subscription's mandate, while it is paid by SEPA debit. */
export const subscriptionMandate = (sub: { mandateRef: string | null }): SepaMandate | null => (sub.mandateRef ? mandate(sub.mandateRef) : null);

/**
 * The mandate an order is (or will be) debited under: its subscription's, or, for a first SEPA
 * payment whose subscription has not stored it yet (the debit is with the bank), or a one-off
 * payment, the one signed with the order. Null for a card.
 */
export function orderMandate(
  order: { reference: string; method: PaymentMethodKind | null; subscriptionId: string | null },
  subscription?: { mandateRef: string | null } | null,
): SepaMandate | null {
  if (subscription?.mandateRef && (order.method === 'sepa_debit' || order.method === null)) return mandate(subscription.mandateRef);
  if (order.method === 'sepa_debit') return mandate(mandateReferenceOf(order.reference));
  return null;
}

/** The rows a page or a mail prints for a mandate. */
export const mandateRows = (m: SepaMandate): [string, string][] => [
  ['Référence unique de mandat (RUM)', m.reference],
  ['Identifiant créancier SEPA (ICS)', m.creditorId],
];

// ---------------------------------------------------------------------------------------------
// Announcements (pre-notifications)

/** What the next renewal charges: the plan or amount asked for, else the current one. */
export function nextChargeCents(sub: { planId: string | null; amountCents: number; nextPlanId: string | null; nextAmountCents: number | null }): number {
  return (sub.nextPlanId ? findPlan(sub.nextPlanId)?.priceCents : undefined) ?? sub.nextAmountCents ?? sub.amountCents;
}

/** When a period's regular announcement goes: a year's renewal notice (which carries it), a month's pre-notification. */
export function regularNoticeAt(sub: { kind: SubscriptionKind; interval: BillingInterval }, periodEnd: Date): Date {
  return addDays(periodEnd, -(sub.kind === 'plan' && sub.interval === 'year' ? RENEWAL_NOTICE_DAYS : SEPA_PRENOTICE_DAYS));
}

/** The next SEPA debit as it now stands, for the mail that confirms a change to it. */
export interface DebitToAnnounce {
  amountCents: number;
  debitAt: Date;
  methodLabel: string;
  mandate: SepaMandate;
  /** Fewer than `SEPA_PRENOTICE_DAYS` before the debit: the mail says why. */
  late: boolean;
}

/**
 * The next debit of `sub`, as it stands after a change its payer just made, when the mail that
 * confirms that change must announce it: the subscription runs and renews by SEPA debit, and the
 * period's regular announcement has gone already (or was skipped: the subscription was resigned
 * then). Null otherwise: a card, a gift, a subscription that ends or is in arrears, or a notice
 * still to come, which will read the change when it goes.
 */
export function debitToAnnounce(
  sub: {
    kind: SubscriptionKind;
    status: SubscriptionStatus;
    cancelAtPeriodEnd: boolean;
    interval: BillingInterval;
    currentPeriodEnd: Date | null;
    mandateRef: string | null;
    paymentMethod: string | null;
    planId: string | null;
    amountCents: number;
    nextPlanId: string | null;
    nextAmountCents: number | null;
  },
  now: Date,
): DebitToAnnounce | null {
  const mandate = subscriptionMandate(sub);
  const end = sub.currentPeriodEnd;
  if (!mandate || !end || sub.kind === 'gift' || sub.status !== 'active' || sub.cancelAtPeriodEnd) return null;
  if (now < regularNoticeAt(sub, end)) return null;
  // The period has ended and its renewal is on its way (a job a little late): it debits now.
  const debitAt = end > now ? end : now;
  return {
    amountCents: nextChargeCents(sub),
    debitAt,
    methodLabel: sub.paymentMethod ?? 'Prélèvement SEPA',
    mandate,
    late: addDays(now, SEPA_PRENOTICE_DAYS) > debitAt,
  };
}

/**
 * A subscription in arrears whose payer signs a new mandate: the failed payment is presented
 * again on it at once (the site's retry, `RETRY_RENEWAL`), which the mail that confirms the
 * mandate announces. Null for a card, or when the provider runs its own retries (their days are
 * its own; its notification of each attempt tells them).
 */
export function retryToAnnounce(
  failed: { amountCents: number } | undefined,
  mandate: SepaMandate | null,
  methodLabel: string,
  now: Date,
): DebitToAnnounce | null {
  if (!failed || !mandate) return null;
  return { amountCents: failed.amountCents, debitAt: now, methodLabel, mandate, late: true };
}
