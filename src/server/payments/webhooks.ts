/**
 * Receiving a provider's notifications. The provider checks the signature on the raw body and
 * turns the payload into events; each event is then applied in its own transaction, which first
 * records the event's id (`provider_events`, primary key provider + id). A replay finds the id
 * taken and changes nothing; a failure rolls back the record with the effects, so the provider's
 * retry applies it again. On PostgreSQL two deliveries of one event at once wait on the same key:
 * the second sees the first's commit and stops.
 *
 * An event about something the site does not know yet (a refund, a renewal or an end delivered
 * before the checkout that makes its payment or subscription known: providers do not order their
 * deliveries) is never taken as done: its handler throws `EventAhead` before any effect, the
 * transaction rolls back with the event's id, and the delivery is answered 409, which the
 * provider retries later (Stripe for three days, with backoff) until the object is there.
 */
import { type Kysely, Transaction } from 'kysely';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type Database, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import type { PaymentEvent, PaymentProvider } from './provider';

/** Applies one verified event inside the transaction that records it. */
export type ApplyEvent = (trx: Kysely<Database>, event: PaymentEvent) => Promise<void>;

/**
 * Thrown by a handler, before any effect, when its event is about an object of ours that is not
 * ready for it yet (an order still waiting for the payment being refunded, a subscription still
 * waiting for the checkout that names it at the provider). `reason` is for the log.
 */
export class EventAhead extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`event ahead of its object: ${reason}`);
    this.reason = reason;
    this.name = 'EventAhead';
  }
}

/** What the provider reads in its dashboard about a delivery refused for now. */
export const EVENT_AHEAD_MESSAGE =
  'Notification en avance sur ce qu’elle concerne (paiement ou abonnement pas encore connu du site) : elle n’est pas enregistrée, renvoyez-la plus tard.';

/** Records the event id; false when it was already there (a replay). */
export async function recordProviderEvent(trx: Kysely<Database>, provider: PaymentProvider['name'], event: PaymentEvent, now: Date): Promise<boolean> {
  const inserted = await trx
    .insertInto('provider_events')
    .values({ provider, event_id: event.id, type: event.type === 'ignored' ? `ignored:${event.providerType}` : event.type, received_at: toTimestamp(now) })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function receiveWebhook(
  deps: Pick<ServerDeps, 'db' | 'clock' | 'jobs'>,
  provider: PaymentProvider,
  rawBody: Uint8Array,
  headers: Headers,
  apply: ApplyEvent,
): Promise<Result<{ applied: number; replayed: number }>> {
  const parsed = provider.parseWebhook(rawBody, headers);
  if (!parsed.ok) return parsed;
  let applied = 0;
  let replayed = 0;
  let ahead = 0;
  for (const event of parsed.events) {
    try {
      await writeTransaction(deps.db, async (trx) => {
        if (!(await recordProviderEvent(trx, provider.name, event, deps.clock.now()))) {
          replayed++;
          return;
        }
        if (event.type !== 'ignored') await apply(trx, event);
        applied++;
      });
    } catch (error) {
      // Inside a caller's transaction the event's record is not undone here: the caller decides.
      if (!(error instanceof EventAhead) || deps.db instanceof Transaction) throw error;
      // Rolled back, its id with it: the provider's next delivery applies it.
      log.warn('payments.event_ahead', { provider: provider.name, eventId: event.id, type: event.type, reason: error.reason });
      ahead++;
    }
  }
  // The effects scheduled mails and renewals: start them now rather than at the next poll.
  if (applied > 0) deps.jobs.wake();
  if (ahead > 0) return fail(409, EVENT_AHEAD_MESSAGE);
  return { ok: true, applied, replayed };
}
