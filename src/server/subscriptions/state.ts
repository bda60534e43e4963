/**
 * The lifecycle of a subscription (abonnement) or monthly donation (don mensuel):
 *
 *   incomplete ──first payment──▶ active ──renewal refused──▶ past_due ──retry paid──▶ active
 *        │                          │  ╲                         │
 *        └─first payment refused─▶ expired ◀──last retry refused─┘
 *                                   │
 *                         cancellation asked ─▶ (active until the period ends) ─▶ canceled
 *
 * `canceled`: someone ended it (the reader, effective at period end; an administrator, at once).
 * `expired`: it was never paid, or its payments stopped coming. Both are final: supporting again
 * starts a new subscription.
 */
import type { SubscriptionStatus } from '../db/database';

const ALLOWED: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  incomplete: ['active', 'expired', 'canceled'],
  active: ['past_due', 'canceled', 'expired'],
  past_due: ['active', 'canceled', 'expired'],
  canceled: [],
  expired: [],
};

export const canMoveSubscription = (from: SubscriptionStatus, to: SubscriptionStatus): boolean => from === to || ALLOWED[from].includes(to);

/** Still running: the reader supports, and can cancel or change it. */
export const isLive = (status: SubscriptionStatus): boolean => status === 'active' || status === 'past_due';

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  incomplete: 'En attente du premier paiement',
  active: 'Actif',
  past_due: 'Paiement en retard',
  canceled: 'Résilié',
  expired: 'Terminé',
};

/** After a refused renewal, the next attempts come this many days after the first refusal. */
export const RETRY_DAYS = [1, 3, 5] as const;
/** The L. 215-1 notice of a yearly subscription goes this long before the renewal (between 3 and 1 months). */
export const RENEWAL_NOTICE_DAYS = 45;
/**
 * A SEPA debit is announced (pre-notification: amount, date, RUM, ICS) at least this many
 * calendar days before it (CGV art. 5): the SEPA rulebook's default, so that no shorter delay
 * has to be agreed. A yearly subscription's comes with its renewal notice, earlier still.
 */
export const SEPA_PRENOTICE_DAYS = 14;
