/**
 * The back-office of the people who run the site (role `admin`): find a reader's orders and
 * subscriptions by e-mail with their histories, refund a paid order, end a subscription on the
 * reader's behalf, read the revenue by month and by campaign source, relaunch failed jobs.
 *
 * Every function takes the acting user's id and checks, here again, that it is an administrator
 * (the pages already answer 404 to anyone else): a page that forgot its guard still could not
 * act. Changes go through the domain that owns the table — the provider's refund and a note in
 * the order's history (orders), the staff cancellation (subscriptions), the relaunch (jobs) — and
 * every one of them names who asked and why.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { fr } from 'date-fns/locale';
import { formatEuros } from '../../config/catalog';
import { findUser } from '../auth/service';
import type { User } from '../auth/public';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type FailedJob, listFailedJobs, retryFailedJob } from '../jobs/queue';
import { type Order, type OrderEvent, REFUND_REQUESTED, type RefundState, refundState, requestOrderRefund } from '../orders/public';
import { parseOrderReference } from '../orders/references';
import type { Subscription, SubscriptionEvent } from '../subscriptions/public';
import { REFUND_HOLDS } from '../checkout/service';
import { cancelNowForReader, subscriptionLabel } from '../subscriptions/service';
import { isLive } from '../subscriptions/state';
import {
  orderById,
  orderByReference,
  orderHistories,
  ordersByEmail,
  type Person,
  settledByHour,
  settledBySource,
  type Sum,
  subscriptionHistories,
  subscriptionsByEmail,
} from './repository';

export type AdminDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs' | 'payments'>;
export type { Person };

export const NOT_ADMIN = 'Cette action est réservée à l’administration.';
export { REFUND_REQUESTED };
/** Results shown for one search. */
export const SEARCH_LIMIT = 50;
const TIME_ZONE = 'Europe/Paris';

/** The acting user if it is an administrator (read again from the database, not from the page). */
export async function adminOf(deps: Pick<ServerDeps, 'db'>, adminUserId: string): Promise<User | undefined> {
  const user = await findUser(deps.db, adminUserId);
  return user?.role === 'admin' ? user : undefined;
}

/** Who did it, as the histories say it: the administrator's address. */
const signature = (admin: User) => admin.email;

/** A reason on one line, as it will read in the history. */
function cleanReason(reason: string): Result<{ reason: string }> {
  const text = reason.replace(/\s+/g, ' ').trim();
  if (text.length < 3) return fail(422, 'Indiquez le motif (3 caractères au moins) : il figure dans l’historique.');
  if (text.length > 500) return fail(422, 'Le motif est trop long (500 caractères au plus).');
  return { ok: true, reason: text };
}

/** The search text: an address or its beginning, case ignored. */
function cleanQuery(query: string): Result<{ query: string }> {
  const text = query.trim().toLowerCase();
  if (text.length < 2) return fail(422, 'Tapez au moins les deux premiers caractères de l’adresse e-mail.');
  if (text.length > 254 || /\s/.test(text)) return fail(422, 'Adresse e-mail invalide : tapez l’adresse, ou son début, sans espace.');
  return { ok: true, query: text };
}

// ---------------------------------------------------------------------------------------------
// Orders

/** Whether the back-office can refund an order now, and if not, why (the same rule as the reader's withdrawal). */
export type { RefundState };

export interface AdminOrder {
  order: Order;
  person: Person;
  /** Oldest line first. */
  events: OrderEvent[];
  refund: RefundState;
}

/** Orders of the people whose address is, or starts with, `query`; newest first, with their histories. */
export async function searchOrders(
  deps: AdminDeps,
  adminUserId: string,
  query: string,
): Promise<Result<{ orders: AdminOrder[]; truncated: boolean; query: string }>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  // A reference read to the back-office on the phone (or pasted from a mail) finds its order.
  const reference = parseOrderReference(query);
  const byReference = reference ? await orderByReference(deps.db, reference) : undefined;
  const q = byReference ? ({ ok: true, query: reference! } as const) : cleanQuery(query);
  if (!q.ok) return q;
  const found = byReference ? [byReference] : await ordersByEmail(deps.db, q.query, SEARCH_LIMIT + 1);
  const shown = found.slice(0, SEARCH_LIMIT);
  const histories = await orderHistories(
    deps.db,
    shown.map((f) => f.order.id),
  );
  const orders = shown.map(({ order, person }) => {
    const events = histories.get(order.id) ?? [];
    return { order, person, events, refund: refundState(deps, order, events) };
  });
  return { ok: true, orders, truncated: found.length > SEARCH_LIMIT, query: q.query };
}

/** One order as the search shows it (the refund's confirmation step); undefined when unknown. */
export async function orderForAdmin(deps: AdminDeps, adminUserId: string, orderId: string): Promise<AdminOrder | undefined> {
  if (!(await adminOf(deps, adminUserId))) return undefined;
  const found = await orderById(deps.db, orderId);
  if (!found) return undefined;
  const events = (await orderHistories(deps.db, [orderId])).get(orderId) ?? [];
  return { ...found, events, refund: refundState(deps, found.order, events) };
}

/**
 * Refunds a paid order in full. The provider is asked first, under the key `refund:{order}`, so
 * that a double click, a retried request or two administrators at once make one refund; then the
 * request is noted in the order's history (once), with who asked and why. The order becomes
 * `refunded` when the provider's `refund.succeeded` event arrives (orders/service.ts), not here:
 * a refund asked is not a refund made.
 */
export async function refundOrder(deps: AdminDeps, orderId: string, adminUserId: string, reason: string): Promise<Result<{ message: string }>> {
  const admin = await adminOf(deps, adminUserId);
  if (!admin) return fail(403, NOT_ADMIN);
  const why = cleanReason(reason);
  if (!why.ok) return why;
  const found = await orderForAdmin(deps, adminUserId, orderId);
  if (!found) return fail(404, 'Cette commande n’existe pas.');
  const { order, events } = found;
  // One path with the reader's withdrawal (orders/refunds.ts): key `refund:{order}`, a gift's code held first.
  const asked = await requestOrderRefund(deps, order, events, {
    cause: `${REFUND_REQUESTED} par ${signature(admin)} : ${why.reason}`,
    holds: REFUND_HOLDS,
    logEvent: 'admin.refund_refused',
  });
  if (!asked.ok) return asked;
  // Asked already (a double click): the same answer, and nothing asked twice.
  if (asked.already) return { ok: true, message: `${REFUND_REQUESTED} : en attente de la confirmation du prestataire.` };
  log.info('admin.refund_requested', { orderId: order.id, adminId: admin.id });
  deps.jobs.wake();
  return {
    ok: true,
    message: `${REFUND_REQUESTED} : ${formatEuros(order.amountCents)}. La commande passera à « Remboursée » dès que le prestataire le confirme.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export interface AdminSubscription {
  subscription: Subscription;
  label: string;
  person: Person;
  /** Oldest line first. */
  events: SubscriptionEvent[];
  /** Still running (or awaiting its first payment): it can be ended now. */
  cancelable: boolean;
}

/** Subscriptions of the people whose address is, or starts with, `query`; newest first, with their histories. */
export async function searchSubscriptions(
  deps: AdminDeps,
  adminUserId: string,
  query: string,
): Promise<Result<{ subscriptions: AdminSubscription[]; truncated: boolean; query: string }>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  const q = cleanQuery(query);
  if (!q.ok) return q;
  const found = await subscriptionsByEmail(deps.db, q.query, SEARCH_LIMIT + 1);
  const shown = found.slice(0, SEARCH_LIMIT);
  const histories = await subscriptionHistories(
    deps.db,
    shown.map((f) => f.subscription.id),
  );
  const subscriptions = shown.map(({ subscription, person }) => ({
    subscription,
    label: subscriptionLabel(subscription),
    person,
    events: histories.get(subscription.id) ?? [],
    cancelable: isLive(subscription.status) || subscription.status === 'incomplete',
  }));
  return { ok: true, subscriptions, truncated: found.length > SEARCH_LIMIT, query: q.query };
}

/**
 * Ends a subscription at once on the reader's behalf (a withdrawal, a request by mail): the
 * subscriptions domain stops it at the provider, records it with the administrator and the
 * reason, and tells the reader by mail.
 */
export async function cancelSubscriptionForReader(
  deps: AdminDeps,
  subscriptionId: string,
  adminUserId: string,
  reason: string,
): Promise<Result<{ message: string }>> {
  const admin = await adminOf(deps, adminUserId);
  if (!admin) return fail(403, NOT_ADMIN);
  const why = cleanReason(reason);
  if (!why.ok) return why;
  const result = await cancelNowForReader(deps, subscriptionId, `Résilié par l’administration (${signature(admin)}) : ${why.reason}`);
  if (!result.ok) return result;
  log.info('admin.subscription_canceled', { subscriptionId, adminId: admin.id });
  return { ok: true, message: 'Abonnement résilié. La personne en est informée par e-mail.' };
}

// ---------------------------------------------------------------------------------------------
// Revenue

export interface Amounts {
  count: number;
  cents: number;
}

export interface RevenueLine {
  /** `2026-11` for a month, the source (or '' for none) for a source. */
  key: string;
  label: string;
  /** Orders paid and not refunded. */
  paid: Amounts;
  /** Orders paid, then refunded: shown apart, not counted in `paid`. */
  refunded: Amounts;
}

export interface RevenueReport {
  /** Paris months of payment, newest first. */
  months: RevenueLine[];
  /** Campaign sources, largest amount first; '' is « sans source ». */
  sources: RevenueLine[];
  total: RevenueLine;
}

export const NO_SOURCE_LABEL = 'Sans source (accès direct)';

/** `2026-11` → « novembre 2026 ». */
export function monthLabel(key: string): string {
  return formatInTimeZone(new Date(`${key}-15T12:00:00Z`), 'UTC', 'MMMM yyyy', { locale: fr });
}

/** The Paris month (`2026-12`) of an instant. */
export const parisMonth = (date: Date): string => formatInTimeZone(date, TIME_ZONE, 'yyyy-MM');

function accumulate(lines: Map<string, RevenueLine>, key: string, label: string, sum: Sum): void {
  const line = lines.get(key) ?? { key, label, paid: { count: 0, cents: 0 }, refunded: { count: 0, cents: 0 } };
  const into = sum.status === 'paid' ? line.paid : line.refunded;
  into.count += sum.count;
  into.cents += sum.cents;
  lines.set(key, line);
}

/**
 * Money received, VAT included, by Paris month of payment and by campaign source. A refunded
 * order stays in the month it was paid, in its own column. Summed in SQL by UTC hour and
 * source (repository.ts), folded into Paris months here.
 */
export async function revenueReport(deps: AdminDeps, adminUserId: string): Promise<Result<{ report: RevenueReport }>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  const [hours, bySource] = await Promise.all([settledByHour(deps.db), settledBySource(deps.db)]);
  const months = new Map<string, RevenueLine>();
  const total = new Map<string, RevenueLine>();
  for (const sum of hours) {
    const month = parisMonth(new Date(`${sum.hour}:00:00.000Z`));
    accumulate(months, month, monthLabel(month), sum);
    accumulate(total, 'total', 'Total', sum);
  }
  const sources = new Map<string, RevenueLine>();
  for (const sum of bySource) accumulate(sources, sum.source ?? '', sum.source ?? NO_SOURCE_LABEL, sum);
  const empty: RevenueLine = { key: 'total', label: 'Total', paid: { count: 0, cents: 0 }, refunded: { count: 0, cents: 0 } };
  return {
    ok: true,
    report: {
      months: [...months.values()].sort((a, b) => b.key.localeCompare(a.key)),
      sources: [...sources.values()].sort((a, b) => b.paid.cents - a.paid.cents || a.label.localeCompare(b.label, 'fr')),
      total: total.get('total') ?? empty,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Failed jobs

export type { FailedJob };

/** What each kind of job does, for the list (an unknown kind shows as it is). */
export const JOB_KIND_LABELS: Record<string, string> = {
  'mail.send': 'Envoi d’un e-mail',
  'auth.sign-in-link': 'E-mail de lien de connexion',
  'auth.mail-link': 'E-mail de lien (connexion ou mot de passe)',
  'auth.email-change-link': 'E-mail de confirmation d’adresse',
  'newsletter.confirmation-mail': 'Lettre d’information : e-mail de confirmation',
  'newsletter.welcome-mail': 'Lettre d’information : e-mail de bienvenue',
  'contact.forward': 'Transmission d’un message de contact',
  'rate-limit.purge': 'Effacement quotidien des compteurs de tentatives périmés',
  'podcasts.purge-fetches': 'Effacement quotidien des empreintes de réseaux des flux de podcasts',
  'orders.reconcile': 'Vérification d’une commande en attente',
  'subscriptions.renew': 'Renouvellement d’un abonnement',
  'subscriptions.retry': 'Nouvel essai de prélèvement',
  'subscriptions.renewal-notice': 'Avis avant échéance (reconduction annuelle, prélèvement SEPA)',
  'payments.simulated-webhook': 'Notification du prestataire (simulé)',
  'subscriptions.end-at-provider': 'Fin d’un abonnement chez le prestataire',
  'billing.render-pdf': 'PDF d’une facture, d’un avoir ou d’un reçu',
  'billing.sweep': 'Documents manquants des commandes payées',
  'billing.yearly-statements': 'Récapitulatifs annuels des dons',
  'gifts.buyer-mail': 'Cadeau : e-mail à l’acheteur',
  'gifts.deliver': 'Cadeau : e-mail au destinataire',
  'gifts.ending': 'Cadeau : avis de fin d’abonnement offert',
  'gifts.end': 'Cadeau : fin d’un abonnement offert',
  'gifts.postpone-at-provider': 'Cadeau : report du renouvellement chez le prestataire',
};

export async function failedJobs(deps: AdminDeps, adminUserId: string): Promise<Result<{ jobs: FailedJob[] }>> {
  if (!(await adminOf(deps, adminUserId))) return fail(403, NOT_ADMIN);
  return { ok: true, jobs: await listFailedJobs(deps.db) };
}

/** « Relancer »: the failed job is due again now, for one more attempt. */
export async function retryJob(deps: AdminDeps, jobId: string, adminUserId: string): Promise<Result<{ message: string }>> {
  const admin = await adminOf(deps, adminUserId);
  if (!admin) return fail(403, NOT_ADMIN);
  const moved = await retryFailedJob(deps.db, jobId, deps.clock.now());
  if (!moved) return fail(409, 'Cette tâche n’est plus en échec : elle a déjà été relancée, ou n’existe plus.');
  log.info('admin.job_retried', { jobId, adminId: admin.id });
  deps.jobs.wake();
  return { ok: true, message: 'Tâche relancée : elle va être exécutée dans un instant.' };
}
