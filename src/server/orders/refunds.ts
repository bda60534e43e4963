/**
 * The one path by which a paid order, of any purpose, is refunded in full on request: by the
 * back-office (admin/service.ts `refundOrder`) and by the reader's own withdrawal
 * (contract-withdrawals/service.ts).
 *
 * The provider is asked first, under the key `refund:{order}` — the same key every refund of an
 * order uses (the shares' unwanted payments too) — so that a double click, a retried request, an
 * administrator and the reader at the same moment make one refund. Then the request is noted in
 * the order's history (once). The order becomes `refunded` when the provider's `refund.succeeded`
 * event arrives (orders/service.ts), not here: a refund asked is not a refund made; the
 * subscriptions' fulfilment then ends a subscription whose running period was refunded.
 *
 * What a purpose must do before its money leaves (a gift's code stops working) is a `RefundHold`
 * passed in by the caller, composed by checkout (`REFUND_HOLDS` in checkout/service.ts, routed
 * like the fulfilments by `ORDER_PURPOSE_ROUTES`): orders knows no purpose's domain.
 */
import type { Kysely } from 'kysely';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import type { Database, OrderPurpose } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { ProviderError } from '../payments/provider';
import { insertOrderNote, type Order, type OrderEvent, orderRefundKey, REFUND_REQUESTED } from './repository';
import { ORDER_STATUS_LABELS } from './state';

export type RefundDeps = Pick<ServerDeps, 'db' | 'clock' | 'jobs' | 'payments'>;

/**
 * What an order's purpose does before the provider is asked for its money back. `hold`: a
 * refusal stops the refund with its answer (nothing is asked); `release`: the provider then
 * refused, so what `hold` did at `heldAt` is undone.
 */
export interface RefundHold {
  hold(db: Kysely<Database>, order: Order, at: Date): Promise<Result>;
  release(db: Kysely<Database>, order: Order, heldAt: Date, now: Date): Promise<void>;
}
/** The hold of each purpose that has one (checkout/service.ts `REFUND_HOLDS`). */
export type RefundHolds = Partial<Record<OrderPurpose, RefundHold>>;

/** Whether an order can be refunded now, and if not, why. */
export type RefundState = { can: true } | { can: false; requested: boolean; why: string };

export function refundState(deps: Pick<ServerDeps, 'payments'>, order: Order, events: readonly OrderEvent[]): RefundState {
  if (order.status === 'refunded') return { can: false, requested: false, why: 'Commande remboursée.' };
  if (order.status !== 'paid')
    return {
      can: false,
      requested: false,
      why: `Seule une commande payée peut être remboursée (celle-ci : ${ORDER_STATUS_LABELS[order.status].toLowerCase()}).`,
    };
  if (events.some((e) => e.cause.startsWith(REFUND_REQUESTED))) {
    return { can: false, requested: true, why: 'Remboursement demandé : la commande passera à « Remboursée » dès que le prestataire le confirme.' };
  }
  if (!order.paymentRef)
    return { can: false, requested: false, why: 'Aucun paiement n’est enregistré chez le prestataire pour cette commande : remboursement impossible ici.' };
  if (order.provider !== deps.payments.name)
    return { can: false, requested: false, why: `Commande payée chez un autre prestataire (${order.provider}) : remboursez-la depuis celui-ci.` };
  return { can: true };
}

/**
 * Asks the provider for the full refund of `order` and notes it in the order's history with
 * `cause` (which starts with REFUND_REQUESTED). `already`: it had been asked before (nothing
 * asked twice). `holds`: the purposes' holds (checkout's `REFUND_HOLDS`), or none when the
 * caller already took its order's in its own transaction (a withdrawal stops a gift's code with
 * its record): what it stopped then stays stopped even if the provider refuses for now.
 */
export async function requestOrderRefund(
  deps: RefundDeps,
  order: Order,
  events: readonly OrderEvent[],
  options: { cause: string; holds: RefundHolds; logEvent?: string },
): Promise<Result<{ already: boolean }>> {
  const state = refundState(deps, order, events);
  if (!state.can) {
    if (state.requested) return { ok: true, already: true };
    return fail(409, state.why);
  }
  const heldAt = deps.clock.now();
  const hold = options.holds[order.purpose];
  if (hold) {
    const held = await hold.hold(deps.db, order, heldAt);
    if (!held.ok) return held;
  }
  try {
    await deps.payments.refund({ paymentRef: order.paymentRef!, amountCents: order.amountCents, idempotencyKey: orderRefundKey(order.id) });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log.warn(options.logEvent ?? 'orders.refund_refused', { orderId: order.id, error: error.message });
    if (hold) await hold.release(deps.db, order, heldAt, deps.clock.now());
    return fail(503, 'Le prestataire de paiement n’a pas accepté le remboursement : rien n’a été remboursé. Réessayez dans un instant.', 30);
  }
  // Noted in whatever status the order has now: a quick provider may already have confirmed.
  await writeTransaction(deps.db, (trx) => insertOrderNote(trx, { orderId: order.id, cause: options.cause, oncePer: REFUND_REQUESTED }, deps.clock.now()));
  deps.jobs.wake();
  return { ok: true, already: false };
}
