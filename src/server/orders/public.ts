/**
 * What other domains may use of orders: the order as they see it, its events, the lookups and
 * writes that checkout, subscriptions, billing and the withdrawal function compose, the refund's
 * key, and the one refund path of a paid order (`refunds.ts`: the back-office, the withdrawal
 * function; a purpose's hold, a gift's, is passed in by checkout). Its repository is orders' own
 * (`.dependency-cruiser.cjs`, rule `no-foreign-repository`).
 */
export {
  customerRef,
  findOrder,
  findUserOrder,
  insertOrder,
  insertOrderNote,
  listSubscriptionOrders,
  orderEvents,
  orderRefundKey,
  REFUND_REQUESTED,
  toOrder,
  type BillingAddress,
  type Order,
  type OrderEvent,
} from './repository';
export { type RefundHold, type RefundHolds, refundState, type RefundState, requestOrderRefund } from './refunds';
