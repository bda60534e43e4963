/**
 * What other domains may use of subscriptions' records: the subscription as they see it, its
 * events, and the lookups and insert that checkout, the back-office and the demo compose. Who
 * supports is in `queries.ts`. Its repository is subscriptions' own (`.dependency-cruiser.cjs`,
 * rule `no-foreign-repository`).
 *
 * Gifts (src/server/gifts) start, extend and end gift subscriptions (`kind` gift) and move a paid
 * plan's period end through the lookups, the conditional update and the period's scheduling
 * below; subscriptions knows nothing of gifts.
 */
export {
  findSubscription,
  insertSubscription,
  insertSubscriptionEvent,
  liveGiftSubscription,
  livePaidPlan,
  setGiftPeriod,
  toSubscription,
  updateSubscriptionIf,
  type Subscription,
  type SubscriptionEvent,
} from './repository';
export { schedulePeriod } from './service';
