/**
 * What other domains may use of subscriptions' records: the subscription as they see it, its
 * events, and the lookups and insert that checkout, the back-office and the demo compose. Who
 * supports is in `queries.ts`. Its repository is subscriptions' own (`.dependency-cruiser.cjs`,
 * rule `no-foreign-repository`).
 */
export { findSubscription, insertSubscription, toSubscription, type Subscription, type SubscriptionEvent } from './repository';
