/**
 * The one path by which a paid order is refunded in full on request: by the back-office
 * (admin/service.ts `refundOrder`) and by the reader's own withdrawal (contract-withdrawals).
 *
 * The provider is asked first, under the key `refund:{order}` — the same key every refund of an
 * order uses (the shares' unwanted payments too) — so that a double click, a retried request, an
 * administrator and the reader at the same moment make one refund. Then the request is noted in
 * the order's history (once). The order becomes `refunded` when the provider's `refund.succeeded`
 * event arrives (orders/service.ts), not here: a refund asked is not a refund made; the
 * subscriptions' fulfilment then ends a subscription whose running period was refunded.
 *
 * It lives beside the gifts because a gift's code must stop working before the money leaves.
 */
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { writeTransaction } from '../db/transaction';
import { formatDate } from '../../lib/dates';
import { insertOrderNote, type Order, type OrderEvent, orderRefundKey, REFUND_REQUESTED } from '../orders/public';
import { ORDER_STATUS_LABELS } from '../orders/state';
import { ProviderError } from '../payments/provider';
import { holdGiftForRefund, releaseGiftHold } from './repository';

export type RefundDeps = Pick<ServerDeps, 'db' | 'clock' | 'jobs' | 'payments'>;

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
 * asked twice). `holdGift: false` when the caller already stopped the gift's code in its own
 * transaction (a withdrawal): the code then stays stopped even if the provider refuses for now.
 */
export async function requestOrderRefund(
  deps: RefundDeps,
  order: Order,
  events: readonly OrderEvent[],
  options: { cause: string; holdGift?: boolean; logEvent?: string },
): Promise<Result<{ already: boolean }>> {
  const state = refundState(deps, order, events);
  if (!state.can) {
    if (state.requested) return { ok: true, already: true };
    return fail(409, state.why);
  }
  const heldAt = deps.clock.now();
  const holding = order.purpose === 'gift' && options.holdGift !== false;
  if (holding) {
    const hold = await holdGiftForRefund(deps.db, order.id, heldAt);
    if (hold.state === 'activated')
      return fail(
        409,
        `Ce cadeau a été activé le ${formatDate(hold.at)} : le délai de rétractation ne s’applique plus (CGV, art. 8), et l’abonnement offert court. Rien n’a été remboursé.`,
      );
  }
  try {
    await deps.payments.refund({ paymentRef: order.paymentRef!, amountCents: order.amountCents, idempotencyKey: orderRefundKey(order.id) });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log.warn(options.logEvent ?? 'orders.refund_refused', { orderId: order.id, error: error.message });
    if (holding) await releaseGiftHold(deps.db, order.id, heldAt, deps.clock.now());
    return fail(503, 'Le prestataire de paiement n’a pas accepté le remboursement : rien n’a été remboursé. Réessayez dans un instant.', 30);
  }
  // Noted in whatever status the order has now: a quick provider may already have confirmed.
  await writeTransaction(deps.db, (trx) => insertOrderNote(trx, { orderId: order.id, cause: options.cause, oncePer: REFUND_REQUESTED }, deps.clock.now()));
  deps.jobs.wake();
  return { ok: true, already: false };
}
