/**
 * The order's state machine. An order starts `pending` and ends paid, failed, canceled or
 * refunded; each move is recorded in `order_events` with its time and cause.
 *
 * Money received is the truth: a payment that succeeds after the order was marked failed (a
 * late SEPA answer, a success delivered before the failure of an earlier attempt) or canceled
 * (abandoned, then paid after all) still makes it paid. Nothing leaves `refunded`.
 */
import type { OrderStatus } from '../db/database';

const ALLOWED: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['paid', 'failed', 'canceled'],
  // failed → failed: a retry of a refused renewal refused again (each refusal is recorded).
  failed: ['paid', 'canceled', 'failed'],
  canceled: ['paid'],
  paid: ['refunded'],
  refunded: [],
};

export const canMove = (from: OrderStatus, to: OrderStatus): boolean => ALLOWED[from].includes(to);

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'En attente',
  paid: 'Payée',
  failed: 'Échouée',
  canceled: 'Annulée',
  refunded: 'Remboursée',
};
