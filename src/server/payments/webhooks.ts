/**
 * Receiving a provider's notifications. The provider checks the signature on the raw body and
 * turns the payload into events; each event is then applied in its own transaction, which first
 * records the event's id (`provider_events`, primary key provider + id). A replay finds the id
 * taken and changes nothing; a failure rolls back the record with the effects, so the provider's
 * retry applies it again. On PostgreSQL two deliveries of one event at once wait on the same key:
 * the second sees the first's commit and stops.
 */
import type { Kysely } from 'kysely';
import type { ServerDeps } from '../core/deps';
import type { Result } from '../core/result';
import { type Database, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import type { PaymentEvent, PaymentProvider } from './provider';

/** Applies one verified event inside the transaction that records it. */
export type ApplyEvent = (trx: Kysely<Database>, event: PaymentEvent) => Promise<void>;

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
  for (const event of parsed.events) {
    await writeTransaction(deps.db, async (trx) => {
      if (!(await recordProviderEvent(trx, provider.name, event, deps.clock.now()))) {
        replayed++;
        return;
      }
      if (event.type !== 'ignored') await apply(trx, event);
      applied++;
    });
  }
  // The effects scheduled mails and renewals: start them now rather than at the next poll.
  if (applied > 0) deps.jobs.wake();
  return { ok: true, applied, replayed };
}
