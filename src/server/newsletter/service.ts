/**
 * Newsletter subscriptions, by double opt-in: an address is subscribed only once it confirms
 * from the mail sent to it. Repeating a request is harmless, and no answer says whether an
 * address is already subscribed. Every newsletter mail carries an unsubscribe link.
 */
import type { Kysely } from 'kysely';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { emailSubject, limit } from '../rate-limit/rate-limit';
import { sign, verify } from '../core/keys';
import { hashSecret, isWellFormedSecret } from '../auth/tokens';
import { normaliseEmail } from '../auth/repository';
import { consumeSingleUseToken, issueSingleUseToken } from '../auth/service';
import { type Database, newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { CONFIRMATION_MAIL, WELCOME_MAIL } from './job-types';
import { newsletterConfirmMail, newsletterWelcomeMail } from './mails';
import { NEWSLETTER_LIMITS } from './rate-limits';

/** The public credential the site's own pages send (SPEC §7); not a secret. */
export { NEWSLETTER_CLIENT_ID } from '../../lib/newsletter-client';

/**
 * The unsubscribe token of a subscriber: `u1.<id>.<MAC of the id>` under the `unsubscribe`
 * subkey. Nothing is stored: it is checked by recomputation, so it never changes and every mail
 * sent to the subscriber, old or new, carries a working link — whatever happens to the other
 * keys, and across a rotation of its own (older versions of the key still verify).
 *
 * Links sent before these tokens existed carry a 43-character secret whose SHA-256 is in
 * `unsubscribe_hash`; they are still found that way. That column is never written again.
 */
export function unsubscribeTokenFor(subscriberId: string): string {
  return `u1.${subscriberId}.${sign('unsubscribe', subscriberId)}`;
}

/** The subscriber id an unsubscribe token names, if its MAC is right. */
function subscriberOfToken(token: string): string | null {
  const match = /^u1\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id, mac] = match as unknown as [string, string, string];
  return verify('unsubscribe', id, mac) ? id : null;
}

export async function subscribe(deps: ServerDeps, input: { email: string; client: string }): Promise<Result<object>> {
  const limited = await limit(deps, [[NEWSLETTER_LIMITS.byClient, input.client], [NEWSLETTER_LIMITS.byEmail, emailSubject(input.email)]], 'Trop de demandes.');
  if (limited) return limited;
  // Whatever the address's state, the answer is the same and comes now; the job does the work.
  await schedule(deps, deps.db, CONFIRMATION_MAIL, { email: normaliseEmail(input.email) });
  deps.jobs.wake();
  return { ok: true };
}

/**
 * The job behind a sign-up: record the address as pending (unless it is confirmed already,
 * which gets nothing), issue its confirmation link (7 days) and mail it.
 */
export async function sendConfirmationNow(deps: ServerDeps, input: { email: string }): Promise<void> {
  const { email } = input;
  const now = deps.clock.now();
  const mail = await writeTransaction(deps.db, async (trx) => {
    await trx
      .insertInto('newsletter_subscribers')
      .values({ id: newId(), email, status: 'pending', unsubscribe_hash: null, created_at: toTimestamp(now), confirmed_at: null, unsubscribed_at: null })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    const row = await trx.selectFrom('newsletter_subscribers').select(['id', 'status']).where('email', '=', email).executeTakeFirstOrThrow();
    // Already confirmed: nothing to do, and nothing to tell.
    if (row.status === 'confirmed') return null;
    await trx.updateTable('newsletter_subscribers').set({ status: 'pending', unsubscribed_at: null }).where('id', '=', row.id).execute();
    const confirm = await issueSingleUseToken(trx, 'newsletter_confirm', now, { email });
    return newsletterConfirmMail({ siteUrl: deps.siteUrl, token: confirm, unsubscribeToken: unsubscribeTokenFor(row.id) });
  });
  if (mail) await deps.mailer.send({ to: email, ...mail });
}

/** The job after a confirmation: the welcome mail, with the subscriber's unsubscribe link. */
export async function sendWelcomeNow(deps: ServerDeps, input: { subscriberId: string }): Promise<void> {
  const row = await deps.db.selectFrom('newsletter_subscribers').select(['email', 'status']).where('id', '=', input.subscriberId).executeTakeFirst();
  if (row?.status !== 'confirmed') return;
  await deps.mailer.send({ to: row.email, ...newsletterWelcomeMail({ siteUrl: deps.siteUrl, unsubscribeToken: unsubscribeTokenFor(input.subscriberId) }) });
}

const INVALID = 'Ce lien n’est plus valable. Inscrivez-vous à nouveau depuis le bas de n’importe quelle page.';

/** Confirms from the mailed link; the welcome mail carries the unsubscribe link. */
export async function confirm(deps: ServerDeps, input: { token: string }): Promise<Result<object>> {
  if (!isWellFormedSecret(input.token)) return fail(400, INVALID);
  const now = deps.clock.now();
  const result = await writeTransaction(deps.db, async (trx) => {
    const token = await consumeSingleUseToken(trx, input.token, 'newsletter_confirm', now);
    if (!token?.email) return null;
    const row = await trx.selectFrom('newsletter_subscribers').select('id').where('email', '=', token.email).executeTakeFirst();
    if (!row) return null;
    await trx
      .updateTable('newsletter_subscribers')
      .set({ status: 'confirmed', confirmed_at: toTimestamp(now), unsubscribed_at: null })
      .where('id', '=', row.id)
      .execute();
    await schedule(deps, trx, WELCOME_MAIL, { subscriberId: row.id });
    return row.id;
  });
  if (!result) return fail(400, INVALID);
  deps.jobs.wake();
  return { ok: true };
}

/** Unsubscribes the address behind an unsubscribe token. Idempotent. */
export async function unsubscribe(deps: Pick<ServerDeps, 'db' | 'clock'>, input: { token: string }): Promise<Result<object>> {
  const refused = fail(400, 'Lien de désinscription invalide.');
  const now = deps.clock.now();
  const id = subscriberOfToken(input.token);
  let row: { id: string } | undefined;
  if (id) row = await deps.db.selectFrom('newsletter_subscribers').select('id').where('id', '=', id).executeTakeFirst();
  // A link from a mail sent before the u1 tokens: found by its stored hash.
  else if (isWellFormedSecret(input.token)) row = await deps.db.selectFrom('newsletter_subscribers').select('id').where('unsubscribe_hash', '=', hashSecret(input.token)).executeTakeFirst();
  if (!row) return refused;
  await deps.db.updateTable('newsletter_subscribers').set({ status: 'unsubscribed', unsubscribed_at: toTimestamp(now) }).where('id', '=', row.id).execute();
  return { ok: true };
}

// ——— For the account domain: the profile's box, a change of address, export and erasure ———

/** Is this address subscribed (confirmed)? */
export async function isSubscribed(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db.selectFrom('newsletter_subscribers').select('status').where('email', '=', normaliseEmail(email)).executeTakeFirst();
  return row?.status === 'confirmed';
}

/**
 * The profile's box is the subscription itself. A signed-in user's address is proven, so
 * ticking it subscribes at once (no double opt-in); unticking unsubscribes. In the caller's
 * transaction.
 */
export async function setSubscription(db: Kysely<Database>, input: { email: string; subscribed: boolean; now: Date }): Promise<void> {
  const email = normaliseEmail(input.email);
  const now = toTimestamp(input.now);
  if (!input.subscribed) {
    await db.updateTable('newsletter_subscribers').set({ status: 'unsubscribed', unsubscribed_at: now }).where('email', '=', email).where('status', '!=', 'unsubscribed').execute();
    return;
  }
  await db
    .insertInto('newsletter_subscribers')
    .values({ id: newId(), email, status: 'confirmed', unsubscribe_hash: null, created_at: now, confirmed_at: now, unsubscribed_at: null })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const subscriber = await db.selectFrom('newsletter_subscribers').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  await db
    .updateTable('newsletter_subscribers')
    .set({ status: 'confirmed', confirmed_at: now, unsubscribed_at: null })
    .where('id', '=', subscriber.id)
    .where('status', '!=', 'confirmed')
    .execute();
}

/** The subscription follows its owner to a new address, unless that address has its own. */
export async function followAddress(db: Kysely<Database>, input: { oldEmail: string; newEmail: string }): Promise<void> {
  const newEmail = normaliseEmail(input.newEmail);
  if (await db.selectFrom('newsletter_subscribers').select('id').where('email', '=', newEmail).executeTakeFirst()) return;
  await db.updateTable('newsletter_subscribers').set({ email: newEmail }).where('email', '=', normaliseEmail(input.oldEmail)).execute();
}

/** What the newsletter holds about an address, for the export of a user's data. */
export function exportSubscription(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('newsletter_subscribers')
    .select(['status', 'created_at', 'confirmed_at', 'unsubscribed_at'])
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst()
    .then((row) => row ?? null);
}

/**
 * On deletion of an account, its subscription ends. The row stays, unsubscribed, so that the
 * address is not mailed again by mistake (an unsubscription must be remembered).
 */
export async function endSubscription(db: Kysely<Database>, input: { email: string; now: Date }): Promise<void> {
  await db.updateTable('newsletter_subscribers').set({ status: 'unsubscribed', unsubscribed_at: toTimestamp(input.now) }).where('email', '=', normaliseEmail(input.email)).execute();
}

// ——— For the newsroom (editorial/newsroom.ts): the list it sends the newsletter to ———

export interface ConfirmedSubscriber {
  email: string;
  confirmedAt: Date;
}

/**
 * Every confirmed subscriber, oldest confirmation first: the addresses the newsletter may be
 * sent to. Pending and unsubscribed addresses are never in it.
 */
export async function confirmedSubscribers(db: Kysely<Database>): Promise<ConfirmedSubscriber[]> {
  const rows = await db
    .selectFrom('newsletter_subscribers')
    .select(['email', 'confirmed_at', 'created_at'])
    .where('status', '=', 'confirmed')
    .orderBy('confirmed_at')
    .orderBy('email')
    .execute();
  // A confirmed row always has its date; the creation date stands in should one lack it.
  return rows.map((r) => ({ email: r.email, confirmedAt: new Date(r.confirmed_at ?? r.created_at) }));
}
