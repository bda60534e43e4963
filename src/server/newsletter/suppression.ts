/**
 * The suppression list: addresses that no newsletter mails again, whatever they are subscribed
 * to. A hard bounce (the relay refused the address, at once or later by webhook) and a complaint
 * (the reader marked a mail as spam) suppress at once; soft bounces (mailbox full, greylisting)
 * suppress after `SOFT_BOUNCE_LIMIT` in a row. Staff can lift a suppression (the address is
 * mailed again; a new bounce suppresses it again). Rows are kept: lifting only dates the lift.
 *
 * Transactional mails (sign-in links, receipts) are not stopped: a reader must still be able to
 * sign in; only newsletters honour the list.
 */
import type { Kysely } from 'kysely';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { type Database, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { normaliseEmail } from '../auth/public';
import type { RelayEvent } from './relay-webhooks';
import type { SuppressionReason } from './tables';

/** Soft bounces in a row after which an address is suppressed. */
export const SOFT_BOUNCE_LIMIT = 3;

/** Suppresses an address for every newsletter (again, if it was lifted), in the caller's transaction. */
export async function suppress(
  db: Kysely<Database>,
  input: { email: string; reason: SuppressionReason; source: string; detail: string; now: Date },
): Promise<void> {
  const now = toTimestamp(input.now);
  const email = input.email.toLowerCase();
  const detail = input.detail.slice(0, 100);
  await db
    .insertInto('newsletter_suppressions')
    .values({ email, reason: input.reason, source: input.source, detail, created_at: now, lifted_at: null, lifted_by: null })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({ reason: input.reason, source: input.source, detail, created_at: now, lifted_at: null, lifted_by: null })
        .where('newsletter_suppressions.lifted_at', 'is not', null),
    )
    .execute();
}

/** One more soft bounce for the address; suppressed at the limit. In the caller's transaction. */
export async function countSoftBounce(db: Kysely<Database>, input: { email: string; source: string; detail: string; now: Date }): Promise<void> {
  const email = input.email.toLowerCase();
  const row = await db
    .updateTable('newsletter_subscribers')
    .set((eb) => ({ soft_bounces: eb('soft_bounces', '+', 1) }))
    .where('email', '=', email)
    .returning('soft_bounces')
    .executeTakeFirst();
  if (row && row.soft_bounces >= SOFT_BOUNCE_LIMIT)
    await suppress(db, {
      email,
      reason: 'soft_bounce',
      source: input.source,
      detail: `${SOFT_BOUNCE_LIMIT} rebonds temporaires (${input.detail})`,
      now: input.now,
    });
}

/**
 * Applies a relay's bounce, complaint or unsubscribe event, once per event id (recorded in the
 * same transaction as its effect). The delivery it is about (by Message-ID) records the outcome,
 * so that the issue's counts show it. `unknown`: the address is not one we mail.
 */
export async function applyRelayEvent(deps: Pick<ServerDeps, 'db' | 'clock'>, event: RelayEvent): Promise<'applied' | 'duplicate' | 'unknown'> {
  const now = deps.clock.now();
  return writeTransaction(deps.db, async (trx) => {
    const first = await trx
      .insertInto('newsletter_relay_events')
      .values({ provider: event.provider, event_id: event.eventId, received_at: toTimestamp(now) })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!first) return 'duplicate';
    const email = event.email.toLowerCase();
    const subscriber = await trx.selectFrom('newsletter_subscribers').select('id').where('email', '=', email).executeTakeFirst();
    if (!subscriber) return 'unknown';
    const source = `webhook:${event.provider}`;
    const delivery = event.messageId
      ? await trx
          .selectFrom('newsletter_deliveries')
          .select(['id', 'issue_id'])
          .where('message_id', '=', event.messageId.replace(/^<|>$/g, ''))
          .where('subscriber_id', '=', subscriber.id)
          .executeTakeFirst()
      : undefined;
    const at = toTimestamp(now);
    switch (event.kind) {
      case 'hard_bounce':
        await suppress(trx, { email, reason: 'hard_bounce', source, detail: event.detail, now });
        if (delivery)
          await trx
            .updateTable('newsletter_deliveries')
            .set({ status: 'bounced', error: event.detail.slice(0, 40), updated_at: at })
            .where('id', '=', delivery.id)
            .execute();
        break;
      case 'soft_bounce':
        await countSoftBounce(trx, { email, source, detail: event.detail, now });
        break;
      case 'complaint':
        await suppress(trx, { email, reason: 'complaint', source, detail: event.detail || 'signalé comme indésirable', now });
        if (delivery) await trx.updateTable('newsletter_deliveries').set({ status: 'complained', updated_at: at }).where('id', '=', delivery.id).execute();
        break;
      case 'unsubscribe': {
        // From the relay's own unsubscribe link, or a mail to the List-Unsubscribe mailto address:
        // the newsletter of the message when it is known, else all.
        const issue = delivery
          ? await trx.selectFrom('newsletter_issues').select('newsletter').where('id', '=', delivery.issue_id).executeTakeFirst()
          : undefined;
        let query = trx
          .updateTable('newsletter_subscriptions')
          .set({ status: 'unsubscribed', unsubscribed_at: at })
          .where('subscriber_id', '=', subscriber.id)
          .where('status', '!=', 'unsubscribed');
        if (issue) query = query.where('newsletter', '=', issue.newsletter);
        await query.execute();
        const left = await trx
          .selectFrom('newsletter_subscriptions')
          .select('newsletter')
          .where('subscriber_id', '=', subscriber.id)
          .where('status', '=', 'confirmed')
          .executeTakeFirst();
        if (!left)
          await trx.updateTable('newsletter_subscribers').set({ status: 'unsubscribed', unsubscribed_at: at }).where('id', '=', subscriber.id).execute();
        break;
      }
    }
    return 'applied';
  });
}

/**
 * What a hard bounce's record says when the domain itself takes no mail, rather than one mailbox:
 * the enhanced status codes « bad destination system » (5.1.2), « null MX » (5.1.10, RFC 7505),
 * « unable to route » (5.4.4) and Microsoft's « domain does not exist » (5.4.310), or the words a
 * relay's description puts for it. Matched on `detail`, which keeps codes and short reasons only.
 */
const DEAD_DOMAIN_MARKS = [
  '5.1.2',
  '5.1.10',
  '5.4.4',
  '5.4.310',
  'domain not found',
  'domain name not found',
  'domain does not exist',
  'host not found',
  'nxdomain',
  'null mx',
];
const DEAD_DOMAIN = /(?<![\d.])5\.(?:1\.2|1\.10|4\.4|4\.310)(?![\d])|domain (?:name )?not found|domain does not exist|host not found|nxdomain|null mx/iu;

/**
 * Whether mail to this address is known not to arrive, by the suppression list: `address`, it
 * hard-bounced; `domain`, another address of its domain hard-bounced in a way that says the
 * domain takes no mail at all; null otherwise. A suppression lifted by staff says nothing.
 * Complaints and soft bounces say nothing either: the mailbox exists. For the sign-up guard
 * (evidence of abuse, `auth/sign-up-guard.ts`), never to refuse anything by itself.
 */
export async function knownBounce(db: Kysely<Database>, email: string): Promise<'address' | 'domain' | null> {
  const address = normaliseEmail(email);
  const live = db.selectFrom('newsletter_suppressions').where('reason', '=', 'hard_bounce').where('lifted_at', 'is', null);
  if (await live.select('email').where('email', '=', address).executeTakeFirst()) return 'address';
  const domain = address.slice(address.lastIndexOf('@') + 1);
  // A domain with LIKE's wildcards or escape in it is no domain that takes mail: not looked up.
  if (!address.includes('@') || !domain || /[%_\\]/u.test(domain)) return null;
  const rows = await live
    .select('detail')
    .where('email', 'like', `%@${domain}`)
    .where((eb) => eb.or(DEAD_DOMAIN_MARKS.map((mark) => eb(eb.fn<string>('lower', ['detail']), 'like', `%${mark}%`))))
    .limit(20)
    .execute();
  return rows.some((row) => DEAD_DOMAIN.test(row.detail)) ? 'domain' : null;
}

export interface Suppression {
  email: string;
  reason: SuppressionReason;
  source: string;
  detail: string;
  since: Date;
}

/** The addresses suppressed now, the most recent first, `limit` at most; `search` narrows by address. */
export async function listSuppressions(
  db: Kysely<Database>,
  options: { search?: string; limit?: number } = {},
): Promise<{ total: number; rows: Suppression[] }> {
  let query = db.selectFrom('newsletter_suppressions').where('lifted_at', 'is', null);
  if (options.search) query = query.where('email', 'like', `%${options.search.toLowerCase().replace(/[%_\\]/g, '')}%`);
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query
    .select(['email', 'reason', 'source', 'detail', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('email')
    .limit(options.limit ?? 100)
    .execute();
  return { total, rows: rows.map((r) => ({ email: r.email, reason: r.reason, source: r.source, detail: r.detail, since: new Date(r.created_at) })) };
}

/** Staff lift a suppression: the address is mailed again (its soft bounces forgotten). */
export async function liftSuppression(deps: Pick<ServerDeps, 'db' | 'clock'>, input: { email: string; staffEmail: string }): Promise<Result<object>> {
  const email = input.email.trim().toLowerCase();
  const now = toTimestamp(deps.clock.now());
  const lifted = await writeTransaction(deps.db, async (trx) => {
    const row = await trx
      .updateTable('newsletter_suppressions')
      .set({ lifted_at: now, lifted_by: input.staffEmail })
      .where('email', '=', email)
      .where('lifted_at', 'is', null)
      .returning('email')
      .executeTakeFirst();
    if (row) await trx.updateTable('newsletter_subscribers').set({ soft_bounces: 0 }).where('email', '=', email).execute();
    return row !== undefined;
  });
  return lifted ? { ok: true } : fail(404, 'Cette adresse n’est pas dans la liste d’exclusion.');
}

export const SUPPRESSION_REASONS: Record<SuppressionReason, string> = {
  hard_bounce: 'Adresse refusée (rebond définitif)',
  soft_bounce: 'Rebonds temporaires répétés',
  complaint: 'Signalée comme indésirable',
  manual: 'Exclue par l’équipe',
};
