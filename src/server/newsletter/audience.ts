/**
 * Who an issue goes to: the confirmed subscribers of its newsletter, never beyond, narrowed by
 * the segment, less the suppressed addresses. One query, used to count the recipients in the
 * preview and to queue the deliveries (so the count shown is the count sent, at that moment).
 *
 * Supporters (glossary: « soutien ») are accounts with a running subscription (a gift included),
 * a running monthly donation, or shares; sociétaires are those who hold shares. An address is an
 * account's when it is the account's address: a subscriber with no account is a non-supporter.
 */
import { formatInTimeZone } from 'date-fns-tz';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { findNewsletter } from '../../config/newsletters';
import { TIME_ZONE } from '../../lib/dates';
import type { Database } from '../db/database';
import { shareholderUserIds } from '../shares/queries';
import { supportingUserIds } from '../subscriptions/queries';
import type { Segment } from './tables';

export const SEGMENTS: readonly Segment[] = ['all', 'supporters', 'non_supporters', 'shareholders'];

/** « Paris day » of a time, as the register's effective dates are written. */
const parisDay = (now: Date) => formatInTimeZone(now, TIME_ZONE, 'yyyy-MM-dd');

/** Is this address an account's that supports the newspaper now? */
export async function isSupporterAddress(db: Kysely<Database>, email: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.email', '=', email)
    .where((eb) => eb.or([eb('users.id', 'in', supportingUserIds(db)), eb('users.id', 'in', shareholderUserIds(db, parisDay(now)))]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Is this address an account's that holds shares now? */
export async function isShareholderAddress(db: Kysely<Database>, email: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.email', '=', email)
    .where('users.id', 'in', shareholderUserIds(db, parisDay(now)))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The subscribers an issue of `newsletter` for `segment` goes to now (a query selecting
 * `newsletter_subscribers.id`). A supporters-only newsletter goes to supporters only, whatever
 * the segment says.
 */
export function recipientsQuery(db: Kysely<Database>, input: { newsletter: string; segment: Segment; now: Date }) {
  const today = parisDay(input.now);
  const supporterOnly = findNewsletter(input.newsletter)?.audience === 'supporters';
  const supporting = (eb: ExpressionBuilder<Database, 'newsletter_subscribers'>) =>
    eb.exists(
      eb
        .selectFrom('users')
        .select('users.id')
        .whereRef('users.email', '=', 'newsletter_subscribers.email')
        .where((u) => u.or([u('users.id', 'in', supportingUserIds(db)), u('users.id', 'in', shareholderUserIds(db, today))])),
    );
  const holding = (eb: ExpressionBuilder<Database, 'newsletter_subscribers'>) =>
    eb.exists(
      eb
        .selectFrom('users')
        .select('users.id')
        .whereRef('users.email', '=', 'newsletter_subscribers.email')
        .where('users.id', 'in', shareholderUserIds(db, today)),
    );

  let query = db
    .selectFrom('newsletter_subscriptions')
    .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_subscriptions.subscriber_id')
    .select('newsletter_subscribers.id')
    .where('newsletter_subscriptions.newsletter', '=', input.newsletter)
    .where('newsletter_subscriptions.status', '=', 'confirmed')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('newsletter_suppressions')
            .select('newsletter_suppressions.email')
            .whereRef('newsletter_suppressions.email', '=', 'newsletter_subscribers.email')
            .where('newsletter_suppressions.lifted_at', 'is', null),
        ),
      ),
    );
  if (input.segment === 'supporters' || supporterOnly) query = query.where(supporting);
  if (input.segment === 'non_supporters') query = query.where((eb) => eb.not(supporting(eb)));
  if (input.segment === 'shareholders') query = query.where(holding);
  return query;
}

/** How many an issue would go to now. */
export async function countRecipients(db: Kysely<Database>, input: { newsletter: string; segment: Segment; now: Date }): Promise<number> {
  const row = await db
    .selectFrom(recipientsQuery(db, input).as('r'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Of these subscribers, those still to be mailed an issue of `newsletter` when their turn comes:
 * still subscribed (an unsubscription or an account deleted mid-send stops the delivery) and not
 * suppressed since. The segment was fixed when the send started.
 */
export async function stillSubscribed(db: Kysely<Database>, input: { newsletter: string; subscriberIds: readonly string[] }): Promise<Set<string>> {
  if (input.subscriberIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('newsletter_subscriptions')
    .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_subscriptions.subscriber_id')
    .select('newsletter_subscribers.id')
    .where('newsletter_subscriptions.newsletter', '=', input.newsletter)
    .where('newsletter_subscriptions.status', '=', 'confirmed')
    .where('newsletter_subscribers.id', 'in', input.subscriberIds)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('newsletter_suppressions')
            .select('newsletter_suppressions.email')
            .whereRef('newsletter_suppressions.email', '=', 'newsletter_subscribers.email')
            .where('newsletter_suppressions.lifted_at', 'is', null),
        ),
      ),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}
