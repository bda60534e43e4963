/**
 * What other domains may read of subscriptions, as queries they compose into their own (the
 * newsletter's segments): never through the repository.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';

/**
 * The accounts that support the newspaper by a running subscription (a gift included) or a
 * running monthly donation: `active`, or `past_due` while the payment is retried. A subquery
 * selecting `user_id`.
 */
export function supportingUserIds(db: Kysely<Database>) {
  return db
    .selectFrom('subscriptions')
    .select('subscriptions.user_id')
    .where('subscriptions.user_id', 'is not', null)
    .where('subscriptions.status', 'in', ['active', 'past_due'])
    .where((eb) =>
      eb.or([
        eb('subscriptions.kind', 'in', ['plan', 'gift']),
        eb.and([eb('subscriptions.kind', '=', 'donation'), eb('subscriptions.interval', '=', 'month')]),
      ]),
    );
}
