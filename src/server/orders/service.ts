/**
 * Orders: what a payment pays for. Every purpose (subscription, donation, and later gift and
 * shares) goes through the same path — an order priced on the server, a checkout at the
 * provider, and the provider's events moving the order along its state machine (state.ts). What
 * a paid order grants is not decided here: each purpose gives a `Fulfilment`, and the composition
 * (src/server/checkout) passes them in. A new purpose plugs in there without changing this file.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type Database, type DocumentKind, type OrderPurpose, type OrderStatus, toTimestamp, type OrdersTable } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import type { PaymentEvent } from '../payments/provider';
import { ProviderError } from '../payments/provider';
import { EventAhead } from '../payments/webhooks';
import {
  customerRef,
  findOrder,
  findOrderByPaymentRef,
  insertOrderEvent,
  insertOrderNote,
  type Order,
  orderRefundKey,
  REFUND_REQUESTED,
  saveCustomerRef,
  setCheckoutRef,
  toOrder,
} from './repository';
import { canMove } from './state';
import type { Updateable } from 'kysely';

export type OrderDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs' | 'payments'>;

export interface PaidContext {
  methodLabel: string;
  subscriptionRef?: string;
  periodEnd?: Date;
  now: Date;
  /** The invoice or receipt issued with this payment (billing wraps every fulfilment), for the purpose's mail to link to. */
  document?: { id: string; kind: DocumentKind; label: string };
}

/** What a paid (or failed, or refunded) order does for its purpose. Runs inside the event's transaction. */
export interface Fulfilment {
  paid(trx: Kysely<Database>, order: Order, context: PaidContext): Promise<void>;
  processing?(trx: Kysely<Database>, order: Order, context: { methodLabel: string; now: Date }): Promise<void>;
  failed?(trx: Kysely<Database>, order: Order, context: { reason: string; now: Date }): Promise<void>;
  refunded?(trx: Kysely<Database>, order: Order, context: { now: Date }): Promise<void>;
}
export type Fulfilments = Partial<Record<OrderPurpose, Fulfilment>>;

/**
 * Moves an order if its state machine allows it, in one conditional update (so that two events
 * racing on PostgreSQL cannot both move it), and records the move. Answers the order after the
 * move, or undefined when the move is not allowed (a replayed or outdated event): nothing changed.
 */
export async function transitionOrder(
  trx: Kysely<Database>,
  order: string | Order,
  to: OrderStatus,
  change: { cause: string; providerEventId: string | null; now: Date; set?: Updateable<OrdersTable> },
): Promise<Order | undefined> {
  // A caller that has just read the order passes it: the conditional update re-checks its status.
  const current = typeof order === 'string' ? await findOrder(trx, order) : order;
  const orderId = typeof order === 'string' ? order : order.id;
  if (!current || !canMove(current.status, to)) return undefined;
  const moved = await trx
    .updateTable('orders')
    .set({ ...change.set, status: to, updated_at: toTimestamp(change.now) })
    .where('id', '=', orderId)
    .where('status', '=', current.status)
    .executeTakeFirst();
  if (moved.numUpdatedRows === 0n) return undefined;
  await insertOrderEvent(trx, { orderId, from: current.status, to, cause: change.cause, providerEventId: change.providerEventId }, change.now);
  const row = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  return toOrder(row);
}

/**
 * Applies a payment event to its order. Returns false for events about something else
 * (subscriptions, payment methods), which the caller hands to their domain.
 */
export async function applyOrderEvent(trx: Kysely<Database>, event: PaymentEvent, fulfilments: Fulfilments, now: Date): Promise<boolean> {
  switch (event.type) {
    case 'payment.succeeded': {
      const target = await findOrder(trx, event.orderId);
      if (
        target &&
        ((event.amountCents !== undefined && event.amountCents !== target.amountCents) ||
          (event.currency !== undefined && event.currency.toUpperCase() !== 'EUR'))
      ) {
        // Collected for another amount than the order's: not this order's payment. Left for a person to look at.
        log.warn('payments.amount_mismatch', { eventId: event.id, orderId: target.id, expected: target.amountCents, collected: event.amountCents ?? null });
        return true;
      }
      if (!target) return (warnIfUnknown(target, event), true);
      const order = await transitionOrder(trx, target, 'paid', {
        cause: `Paiement reçu (${event.methodLabel || 'moyen de paiement du prestataire'})`,
        providerEventId: event.id,
        now,
        set: { payment_ref: event.paymentRef, paid_at: toTimestamp(now), failure_reason: null },
      });
      if (order)
        await fulfilments[order.purpose]?.paid(trx, order, {
          methodLabel: event.methodLabel,
          ...(event.subscriptionRef ? { subscriptionRef: event.subscriptionRef } : {}),
          ...(event.periodEnd ? { periodEnd: event.periodEnd } : {}),
          now,
        });
      return true;
    }
    case 'payment.processing': {
      const order = await findOrder(trx, event.orderId);
      if (!order) return (warnIfUnknown(order, event), true);
      // Only a pending order waits on its bank; a late "processing" after the outcome changes nothing.
      const marked = await trx
        .updateTable('orders')
        .set({ submitted_at: toTimestamp(now), updated_at: toTimestamp(now) })
        .where('id', '=', order.id)
        .where('status', '=', 'pending')
        .where('submitted_at', 'is', null)
        .executeTakeFirst();
      if (marked.numUpdatedRows > 0n) {
        await insertOrderEvent(
          trx,
          { orderId: order.id, from: 'pending', to: 'pending', cause: `Prélèvement transmis à la banque (${event.methodLabel})`, providerEventId: event.id },
          now,
        );
        await fulfilments[order.purpose]?.processing?.(trx, order, { methodLabel: event.methodLabel, now });
      }
      return true;
    }
    case 'payment.failed': {
      const order = await transitionOrder(trx, event.orderId, 'failed', {
        cause: `Paiement refusé : ${event.reason}`,
        providerEventId: event.id,
        now,
        set: { failure_reason: event.reason },
      });
      if (order) await fulfilments[order.purpose]?.failed?.(trx, order, { reason: event.reason, now });
      return true;
    }
    case 'refund.succeeded': {
      const paid = await findOrderByPaymentRef(trx, event.paymentRef);
      if (!paid) {
        // The payment is unknown, but the order it names is ours and still waits for it: its
        // payment's notification is late. Refused (nothing recorded), the refund comes again after it.
        const named = event.orderId ? await findOrder(trx, event.orderId) : undefined;
        if (named && canMove(named.status, 'paid')) throw new EventAhead(`refund of order ${named.id}, still ${named.status}`);
        log.warn('payments.refund_for_unknown_payment', { eventId: event.id });
        return true;
      }
      const order = await transitionOrder(trx, paid.id, 'refunded', { cause: 'Remboursement effectué', providerEventId: event.id, now });
      if (order) await fulfilments[order.purpose]?.refunded?.(trx, order, { now });
      return true;
    }
    default:
      return false;
  }
}

function warnIfUnknown(order: Order | undefined, event: PaymentEvent): void {
  if (!order) log.warn('payments.event_for_unknown_order', { eventId: event.id, type: event.type });
}

// ---------------------------------------------------------------------------------------------
// Checkout at the provider

/** The provider's customer of a user, created on first need. */
export async function ensureCustomer(deps: OrderDeps, user: { id: string; email: string; name: string }): Promise<string> {
  const known = await customerRef(deps.db, user.id, deps.payments.name);
  if (known) return known;
  const ref = await deps.payments.ensureCustomer(user, `customer:${user.id}`);
  await saveCustomerRef(deps.db, user.id, deps.payments.name, ref, deps.clock.now());
  return (await customerRef(deps.db, user.id, deps.payments.name)) ?? ref;
}

/**
 * Opens (or reopens: the same key gives the same session) the provider's payment page of a
 * pending order. Called after the order's transaction has committed: a crash between the two
 * leaves a pending order without checkout, which the reconciliation job cancels.
 */
export async function openCheckout(deps: OrderDeps, order: Order, user: { id: string; email: string; name: string }): Promise<Result<{ url: string }>> {
  if (order.status !== 'pending' || !order.method) return fail(409, 'Cette commande n’attend plus de paiement.');
  try {
    const customer = await ensureCustomer(deps, user);
    const { checkoutRef, url } = await deps.payments.startCheckout({
      orderId: order.id,
      customerRef: customer,
      description: `${order.description} — Contrechamp`,
      amountCents: order.amountCents,
      recurring: order.interval && order.subscriptionId ? { interval: order.interval, subscriptionId: order.subscriptionId } : null,
      method: order.method,
      returnUrl: new URL(`/soutenir/confirmation/${order.id}`, deps.siteUrl).href,
      cancelUrl: new URL(`/soutenir/confirmation/${order.id}`, deps.siteUrl).href,
      idempotencyKey: `checkout:${order.id}`,
    });
    await setCheckoutRef(deps.db, order.id, checkoutRef, deps.clock.now());
    return { ok: true, url };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log.warn('payments.checkout_failed', { orderId: order.id, error: error.message });
    return fail(503, 'Le service de paiement ne répond pas : rien n’a été débité. Réessayez dans un instant.', 30);
  }
}

// ---------------------------------------------------------------------------------------------
// Orders left pending

/** A pending order's checkout is looked at this long after its creation, then every few hours. */
export const RECONCILE_AFTER_MS = 30 * 60_000;
const RECONCILE_AGAIN_MS = 6 * 3600_000;
/** An open checkout older than this is abandoned: the order is canceled. */
const ABANDONED_AFTER_MS = 24 * 3600_000;

export const RECONCILE_ORDER = jobType({ kind: 'orders.reconcile', schema: z.object({ orderId: z.string(), round: z.number().int().min(0).default(0) }) });

/**
 * Schedules the check of an order left pending, in the transaction that creates it (round 0),
 * then again after each check that found it still waiting. The round is in the job's key, so a
 * check run twice schedules the next one once.
 */
export function scheduleReconcile(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, orderId: string, after = RECONCILE_AFTER_MS, round = 0) {
  const runAt = new Date(deps.clock.now().getTime() + after);
  return schedule(deps, trx, RECONCILE_ORDER, { orderId, round }, { runAt, uniqueKey: `orders.reconcile:${orderId}:${round}` });
}

/**
 * Finishes or reports an order still pending after its checkout should have ended: a checkout
 * never opened (a crash before the provider call) or expired is canceled; a completed checkout
 * whose outcome has not arrived is logged and looked at again (a SEPA debit takes days); an open
 * checkout is canceled once abandoned.
 */
export async function reconcileOrder(deps: OrderDeps, orderId: string, round = 0): Promise<'settled' | 'canceled' | 'waiting'> {
  const order = await findOrder(deps.db, orderId);
  if (!order || order.status !== 'pending') return 'settled';
  const again = () => scheduleReconcile(deps, deps.db, order.id, RECONCILE_AGAIN_MS, round + 1);
  // A debit handed to the bank is answered within 14 business days: looked at until then, never canceled.
  if (order.submittedAt) {
    log.info('payments.debit_awaited', { orderId: order.id });
    await again();
    return 'waiting';
  }
  const now = deps.clock.now();
  const cancel = async (cause: string) => {
    await writeTransaction(deps.db, (trx) => transitionOrder(trx, order.id, 'canceled', { cause, providerEventId: null, now }));
    return 'canceled' as const;
  };
  if (!order.checkoutRef) return cancel('Paiement jamais ouvert (interrompu avant le prestataire)');
  const status = await deps.payments.checkoutStatus(order.checkoutRef);
  if (status === 'expired') return cancel('Session de paiement expirée');
  if (status === 'open' && now.getTime() - order.createdAt.getTime() > ABANDONED_AFTER_MS) return cancel('Paiement abandonné');
  // The provider took the payment but its notification has not come: it retries for days; reported meanwhile.
  if (status === 'complete') log.warn('payments.outcome_awaited', { orderId: order.id });
  await again();
  return 'waiting';
}

// ---------------------------------------------------------------------------------------------
// Personal data (RGPD): the account's export and deletion (src/server/account/parts.ts)

/** Why orders outlive the account that placed them: said in the export, and on /vie-privee. */
export const ORDERS_RETENTION_NOTE =
  'Vos commandes sont des pièces comptables : nous les conservons 10 ans (article L. 123-22 du Code de commerce), avec le nom et l’adresse de facturation qu’elles portent, comme la loi l’exige pour les factures. Si vous supprimez votre compte, elles en sont détachées mais conservées. Vos numéros de carte et vos coordonnées bancaires ne sont jamais conservés par Contrechamp : seul notre prestataire de paiement les détient.';

/**
 * The user's orders with their history, and the providers where they are a customer. Internal
 * keys (the form's attempt key, the provider's checkout session and customer reference, the
 * provider's event ids) stay out: they mean nothing to the reader and open nothing.
 */
export async function exportUserOrders(db: Kysely<Database>, userId: string) {
  const rows = await db.selectFrom('orders').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  const ids = rows.map((r) => r.id);
  const events = ids.length
    ? await db
        .selectFrom('order_events')
        .select(['order_id', 'from_status', 'to_status', 'cause', 'at'])
        .where('order_id', 'in', ids)
        .orderBy('at')
        .orderBy('id')
        .execute()
    : [];
  const customers = await db.selectFrom('payment_customers').select(['provider', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute();
  return {
    note: ORDERS_RETENTION_NOTE,
    orders: rows.map((row) => {
      const order = toOrder(row);
      return {
        id: order.id,
        created_at: row.created_at,
        description: order.description,
        purpose: order.purpose,
        reason: order.reason,
        offer_id: order.offerId,
        interval: order.interval,
        quantity: order.quantity,
        amount_cents: order.amountCents,
        vat_rate_bp: order.vatRateBp,
        vat_cents: order.vatCents,
        currency: row.currency,
        status: order.status,
        method: order.method,
        provider: order.provider,
        payment_ref: order.paymentRef,
        subscription_id: order.subscriptionId,
        source: order.source,
        billing_name: order.billingName,
        billing_address: order.billingAddress,
        terms_accepted_at: row.terms_accepted_at,
        immediate_start_at: row.immediate_start_at,
        period_start: row.period_start,
        period_end: row.period_end,
        failure_reason: order.failureReason,
        submitted_at: row.submitted_at,
        paid_at: row.paid_at,
        history: events.filter((e) => e.order_id === row.id).map((e) => ({ from: e.from_status, to: e.to_status, cause: e.cause, at: e.at })),
      };
    }),
    payment_providers: customers.map((c) => ({ provider: c.provider, since: c.created_at })),
  };
}

/**
 * On deletion of an account: its orders stay as accounting records, detached from it
 * (`user_id` null), with the billing name and address an invoice must carry; the link to the
 * provider's customer goes (a later payment-method event then finds no one).
 */
export async function detachUserOrders(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('orders')
    .set({ user_id: null, updated_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .execute();
  await db.deleteFrom('payment_customers').where('user_id', '=', userId).execute();
}

/**
 * A payment that nothing wants any more (a renewal of a subscription already ended, shares
 * renounced while their SEPA debit was on its way) is given back, by this job: the provider is
 * not called inside the transaction that finds it. The key is a back-office refund's, so that
 * whichever comes first, one refund is made.
 */
export const REFUND_UNWANTED = jobType({
  kind: 'orders.refund-unwanted',
  schema: z.object({ orderId: z.string(), cause: z.string().max(300) }),
  maxAttempts: 20,
});

export function scheduleUnwantedRefund(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, orderId: string, cause: string) {
  return schedule(deps, trx, REFUND_UNWANTED, { orderId, cause }, { uniqueKey: `orders.refund-unwanted:${orderId}` });
}

async function refundUnwanted(deps: OrderDeps, orderId: string, cause: string): Promise<void> {
  const order = await findOrder(deps.db, orderId);
  if (!order || order.status !== 'paid' || !order.paymentRef) return;
  if (order.provider !== deps.payments.name) return log.warn('orders.refund_at_other_provider', { orderId, provider: order.provider });
  // A ProviderError throws: the job is tried again later.
  await deps.payments.refund({ paymentRef: order.paymentRef, amountCents: order.amountCents, idempotencyKey: orderRefundKey(order.id) });
  await writeTransaction(deps.db, (trx) =>
    insertOrderNote(trx, { orderId: order.id, cause: `${REFUND_REQUESTED} automatiquement : ${cause}`, oncePer: REFUND_REQUESTED }, deps.clock.now()),
  );
  deps.jobs.wake();
}

export const orderJobs = (deps: OrderDeps) => [
  handle(RECONCILE_ORDER, async ({ payload }) => {
    await reconcileOrder(deps, payload.orderId, payload.round);
  }),
  handle(REFUND_UNWANTED, ({ payload }) => refundUnwanted(deps, payload.orderId, payload.cause)),
];
