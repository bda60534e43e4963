/**
 * What « Mes abonnements » and the « Mon soutien » block show of a subscription or monthly
 * donation, in French, from the rows the owner's services read: the status as the reader
 * understands it (a subscription whose cancellation is asked is still running, until a date),
 * the price with its VAT, the next payment or the end, a change waiting for the next renewal,
 * the history, and which of the owner's actions make sense now. Pure: the pages render it.
 */
import { findPlan, formatEuros, formatRate, intervalLabel, perMonthAndYear, plans, vatIncluded, type Interval, type Plan } from '../../config/catalog';
import { formatDate, formatPeriod } from '../../lib/dates';
import type { Order } from '../orders/public';
import { ORDER_STATUS_LABELS } from '../orders/state';
import type { Subscription, SubscriptionEvent } from './repository';
import { subscriptionLabel } from './service';
import { isLive, SUBSCRIPTION_STATUS_LABELS } from './state';

/** How a status looks: running, running until a date, needing the reader, over. */
export type Tone = 'live' | 'ending' | 'alert' | 'ended';

export interface SubscriptionSummary {
  id: string;
  kind: Subscription['kind'];
  /** "Abonnement Mensuel", "Don mensuel de 10 €". */
  label: string;
  /** Still running (active or in arrears): it supports, and can be cancelled. */
  live: boolean;
  tone: Tone;
  /** "Actif", "Résiliation demandée", "Paiement en retard", "Résilié"… */
  statusLabel: string;
  /** "7 € par mois". */
  price: string;
  /** "Prochain paiement le 23 décembre 2026", "Prend fin le 23 décembre 2026", "Terminé le …". */
  when: string | null;
  /** What the next payment will take (the change asked for, if any), while one is due. */
  nextPaymentCents: number | null;
  /** "Carte •••• 4242", or what to say when none is known. */
  paymentMethod: string;
  /** "À partir du 23 décembre 2026 : formule Annuel (70 € par an)". */
  pendingChange: string | null;
  /** Which of the owner's actions make sense now. */
  can: { cancel: boolean; resume: boolean; change: boolean; updateMethod: boolean };
}

const words = (kind: Subscription['kind']) =>
  kind === 'plan'
    ? { your: 'votre abonnement', Your: 'Votre abonnement', endAsked: 'Résiliation demandée', ended: 'Résilié' }
    : kind === 'gift'
      ? { your: 'votre abonnement offert', Your: 'Votre abonnement offert', endAsked: 'Se termine', ended: 'Terminé' }
      : { your: 'votre don mensuel', Your: 'Votre don mensuel', endAsked: 'Arrêt demandé', ended: 'Arrêté' };

/** "7 € par mois". */
export const priceOf = (amountCents: number, interval: Interval) => `${formatEuros(amountCents)} ${intervalLabel(interval)}`;

/** "70 € par an (soit 5,83 € par mois)", "7 € par mois (soit 84 € par an)". */
export function planPrice(plan: Pick<Plan, 'priceCents' | 'interval'>): string {
  const { monthCents, yearCents } = perMonthAndYear(plan.priceCents, plan.interval);
  const other = plan.interval === 'year' ? `${formatEuros(monthCents)} par mois` : `${formatEuros(yearCents)} par an`;
  return `${priceOf(plan.priceCents, plan.interval)} (soit ${other})`;
}

/** What the change asked for will be, from the next renewal. */
function pendingChangeOf(sub: Subscription): string | null {
  if (!sub.currentPeriodEnd) return null;
  const from = `À partir du ${formatDate(sub.currentPeriodEnd)}`;
  const plan = sub.nextPlanId ? findPlan(sub.nextPlanId) : undefined;
  if (plan) return `${from} : formule ${plan.label} (${priceOf(plan.priceCents, plan.interval)})`;
  if (sub.nextAmountCents) return `${from} : ${priceOf(sub.nextAmountCents, 'month')}`;
  return null;
}

export function summarize(sub: Subscription, now: Date): SubscriptionSummary {
  const w = words(sub.kind);
  if (sub.kind === 'gift') {
    // Offered: nothing is ever charged, nothing to cancel or change; it simply ends.
    const live = sub.status === 'active';
    return {
      id: sub.id,
      kind: sub.kind,
      label: subscriptionLabel(sub),
      live,
      tone: live ? 'live' : 'ended',
      statusLabel: live ? 'Actif' : w.ended,
      price: 'Offert',
      when:
        live && sub.currentPeriodEnd
          ? `Se termine le ${formatDate(sub.currentPeriodEnd)}, sans renouvellement`
          : sub.endedAt
            ? `Terminé le ${formatDate(sub.endedAt)}`
            : null,
      nextPaymentCents: null,
      paymentMethod: 'aucun, c’est un cadeau',
      pendingChange: null,
      can: { cancel: false, resume: false, change: false, updateMethod: false },
    };
  }
  const live = isLive(sub.status);
  const ending = sub.status === 'active' && sub.cancelAtPeriodEnd;
  const periodEnd = sub.currentPeriodEnd;
  let tone: Tone = 'ended';
  let statusLabel = SUBSCRIPTION_STATUS_LABELS[sub.status];
  let when: string | null = sub.endedAt ? `Terminé le ${formatDate(sub.endedAt)}` : null;
  if (ending) {
    tone = 'ending';
    statusLabel = w.endAsked;
    when = periodEnd ? `Prend fin le ${formatDate(periodEnd)}` : null;
  } else if (sub.status === 'active') {
    tone = 'live';
    when = periodEnd ? `Prochain paiement le ${formatDate(periodEnd)}` : null;
  } else if (sub.status === 'past_due') {
    tone = 'alert';
    when = periodEnd ? `Paiement de l’échéance du ${formatDate(periodEnd)} en attente` : null;
  } else if (sub.status === 'canceled') {
    statusLabel = w.ended;
  } else if (sub.status === 'expired' && !sub.currentPeriodStart) {
    // Its first payment failed: it never started, so it did not « end ».
    statusLabel = 'Jamais commencé';
    when = sub.endedAt ? `Le premier paiement n’a pas abouti, le ${formatDate(sub.endedAt)}` : 'Le premier paiement n’a pas abouti';
  }
  return {
    id: sub.id,
    kind: sub.kind,
    label: subscriptionLabel(sub),
    live,
    tone,
    statusLabel,
    price: priceOf(sub.amountCents, sub.interval),
    when,
    nextPaymentCents: sub.status === 'active' && !ending ? (findPlan(sub.nextPlanId ?? '')?.priceCents ?? sub.nextAmountCents ?? sub.amountCents) : null,
    paymentMethod: sub.paymentMethod || 'Moyen de paiement enregistré chez notre prestataire',
    pendingChange: ending ? null : pendingChangeOf(sub),
    can: {
      cancel: live && !ending,
      resume: ending && periodEnd !== null && periodEnd > now,
      change: sub.status === 'active' && !ending,
      // Nothing more is charged once the end is asked: the method matters again if it is resumed.
      updateMethod: live && !ending,
    },
  };
}

/** Running ones first (they are what the reader comes for), then the newest. */
export function liveFirst<T extends Pick<Subscription, 'status' | 'createdAt'>>(subs: readonly T[]): T[] {
  return [...subs].sort((a, b) => Number(isLive(b.status)) - Number(isLive(a.status)) || b.createdAt.getTime() - a.createdAt.getTime());
}

/** The price lines of the detail: what is paid, and for a plan the VAT inside it. */
export function priceLines(sub: Subscription): { price: string; detail: string } {
  if (sub.kind === 'gift') {
    return { price: 'Offert', detail: 'Cet abonnement vous a été offert\u00a0: rien ne vous est prélevé, et il ne se renouvelle pas.' };
  }
  if (sub.kind === 'donation') {
    return { price: `${priceOf(sub.amountCents, sub.interval)}`, detail: 'Un don n’est pas soumis à la TVA et ne donne lieu à aucune contrepartie.' };
  }
  const { monthCents, yearCents } = perMonthAndYear(sub.amountCents, sub.interval);
  const other = sub.interval === 'year' ? `soit ${formatEuros(monthCents)} par mois` : `soit ${formatEuros(yearCents)} par an`;
  const vat = vatIncluded(sub.amountCents, sub.vatRateBp);
  return {
    price: `${formatEuros(sub.amountCents)} TTC ${intervalLabel(sub.interval)} (${other})`,
    detail: `Dont TVA à ${formatRate(sub.vatRateBp)} : ${formatEuros(vat)}, soit ${formatEuros(sub.amountCents - vat)} HT.`,
  };
}

export interface PlanChoice {
  id: string;
  label: string;
  price: string;
  /** The plan the subscription has now (offered only to take back a change asked for). */
  current: boolean;
  /** The plan asked for, from the next renewal. */
  chosen: boolean;
}

/** The plans a subscription can move to: the others, and its own when a change waits (to undo it). */
export function planChoices(sub: Subscription): PlanChoice[] {
  return plans
    .filter((p) => p.id !== sub.planId || sub.nextPlanId !== null)
    .map((p) => ({ id: p.id, label: p.label, price: planPrice(p), current: p.id === sub.planId, chosen: p.id === sub.nextPlanId }));
}

/** The date a subscription was started: its first payment, else its creation. */
export function startedAt(sub: Subscription, events: readonly SubscriptionEvent[]): Date {
  return events.find((e) => e.type === 'started')?.at ?? sub.createdAt;
}

export interface OrderLine {
  id: string;
  date: string;
  description: string;
  period: string | null;
  amount: string;
  status: string;
  failed: boolean;
}

export function orderLines(orders: readonly Order[]): OrderLine[] {
  return orders.map((o) => ({
    id: o.id,
    date: formatDate(o.paidAt ?? o.createdAt),
    description: o.description,
    // As on the invoice: the last day is the one before the next period starts.
    period: o.periodStart && o.periodEnd ? formatPeriod(o.periodStart, o.periodEnd) : null,
    amount: formatEuros(o.amountCents),
    status: o.failureReason && o.status === 'failed' ? `${ORDER_STATUS_LABELS[o.status]} : ${o.failureReason}` : ORDER_STATUS_LABELS[o.status],
    failed: o.status === 'failed' || o.status === 'canceled',
  }));
}

const EVENT_TITLES: Record<string, string> = {
  created: 'Commande passée',
  started: 'Début',
  renewed: 'Échéance payée',
  'payment-failed': 'Paiement refusé',
  'first-payment-failed': 'Premier paiement refusé',
  'cancel-requested': 'Résiliation demandée',
  canceled: 'Résiliation',
  resumed: 'Reprise',
  'plan-change': 'Changement de formule',
  'amount-change': 'Changement de montant',
  changed: 'Nouveau tarif',
  'payment-method': 'Moyen de paiement',
  ended: 'Fin',
  'canceled-by-staff': 'Arrêt par Contrechamp',
  'ended-refunded': 'Fin après remboursement',
  'account-deleted': 'Compte supprimé',
  'gift-added': 'Abonnement offert ajouté',
};

export interface EventLine {
  date: string;
  title: string;
  detail: string;
}

/** The subscription's history, newest first, in the reader's words. */
export function eventLines(events: readonly SubscriptionEvent[], kind: Subscription['kind']): EventLine[] {
  const titles =
    kind === 'donation'
      ? { ...EVENT_TITLES, 'cancel-requested': 'Arrêt demandé', canceled: 'Arrêt' }
      : kind === 'gift'
        ? { ...EVENT_TITLES, created: 'Code cadeau activé' }
        : EVENT_TITLES;
  return [...events].reverse().map((e) => ({ date: formatDate(e.at), title: titles[e.type] ?? e.type, detail: e.detail }));
}

/** What a cancellation confirmed now does: ends at the period's end, or at once in arrears. */
export function cancellationTerms(sub: Subscription, now: Date): { endsNow: boolean; endsAt: Date } {
  const endsNow = sub.status === 'past_due' || !sub.currentPeriodEnd || sub.currentPeriodEnd <= now;
  return { endsNow, endsAt: endsNow ? now : sub.currentPeriodEnd! };
}

/** The flash message after a cancellation (CGV art. 6.2: the date it takes effect, and the mail). */
export function cancellationMessage(sub: Subscription, endsAt: Date, now: Date, alreadyAsked: boolean): string {
  const w = words(sub.kind);
  const date = formatDate(endsAt);
  if (alreadyAsked) return `${w.Your} était déjà ${sub.kind === 'plan' ? 'résilié' : 'arrêté'} : il prend fin le ${date}.`;
  const head = sub.kind === 'plan' ? 'Résiliation confirmée' : 'Arrêt confirmé';
  const end = endsAt.getTime() <= now.getTime() ? `a pris fin aujourd’hui, ${date}, et plus rien ne vous sera prélevé` : `prend fin le ${date}`;
  return `${head} : ${w.your} ${end}. Un e-mail de confirmation vous a été envoyé.`;
}

export function resumedMessage(sub: Subscription): string {
  const w = words(sub.kind);
  const next = sub.currentPeriodEnd ? ` : prochain paiement le ${formatDate(sub.currentPeriodEnd)}` : '';
  return `${w.Your} continue${next}. Un e-mail de confirmation vous a été envoyé.`;
}

export function planChangedMessage(sub: Subscription, planId: string, effectiveAt: Date): string {
  const plan = findPlan(planId);
  if (!plan || plan.id === sub.planId) return `Changement de formule annulé : vous gardez la formule ${findPlan(sub.planId ?? '')?.label ?? ''}.`;
  return `C’est noté : à partir du ${formatDate(effectiveAt)}, votre formule sera « ${plan.label} » (${priceOf(plan.priceCents, plan.interval)}). Un e-mail de confirmation vous a été envoyé.`;
}

export function amountChangedMessage(sub: Subscription, amountCents: number, effectiveAt: Date): string {
  if (amountCents === sub.amountCents) return `Changement de montant annulé : votre don mensuel reste de ${formatEuros(sub.amountCents)}.`;
  return `C’est noté : à partir du ${formatDate(effectiveAt)}, votre don mensuel sera de ${formatEuros(amountCents)}. Un e-mail de confirmation vous a été envoyé.`;
}

/**
 * The flash after the return from the provider's method page: the method now saved, or why
 * nothing changed (the reader gave up there, or the provider did not answer).
 */
export function methodChangedMessage(back: { ok: true; methodLabel: string | null } | { ok: false; message: string }): {
  kind: 'success' | 'info';
  message: string;
} {
  if (!back.ok) return { kind: 'info', message: back.message };
  if (!back.methodLabel) return { kind: 'info', message: 'Votre moyen de paiement n’a pas été modifié.' };
  return {
    kind: 'success',
    message: `Votre nouveau moyen de paiement est enregistré : ${back.methodLabel}. Il servira dès le prochain paiement ; nous vous l’avons confirmé par e-mail.`,
  };
}
