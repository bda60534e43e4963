/**
 * Subscriptions to the site's newsletters (src/config/newsletters.yaml), by double opt-in: a
 * choice is confirmed only from the mail sent to the address. Repeating a request is harmless,
 * and no answer says whether an address is already subscribed.
 *
 * One `newsletter_subscribers` row per address (never deleted: an unsubscription is remembered),
 * one `newsletter_subscriptions` row per address and newsletter. The address's own `status` is a
 * summary that this module alone keeps: `confirmed` while one of its subscriptions is.
 *
 * Every newsletter mail links to the preferences page through a signed token that never expires
 * and survives key rotations (`unsubscribeTokenFor`).
 */
import type { Kysely } from 'kysely';
import { DEFAULT_NEWSLETTER, NEWSLETTERS, findNewsletter } from '../../config/newsletters';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { emailSubject, limit } from '../rate-limit/rate-limit';
import { sign, verify } from '../core/keys';
import { hashSecret, isWellFormedSecret } from '../auth/tokens';
import { normaliseEmail } from '../auth/public';
import { consumeSingleUseToken, issueSingleUseToken } from '../auth/service';
import { type Database, newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { isSupporterAddress } from './audience';
import { CONFIRMATION_MAIL, WELCOME_MAIL } from './job-types';
import { newsletterConfirmMail, newsletterWelcomeMail } from './mails';
import { NEWSLETTER_LIMITS } from './rate-limits';
import type { NewsletterStatus } from './tables';

/** The public credential the site's own pages send (SPEC §7); not a secret. */
export { NEWSLETTER_CLIENT_ID } from '../../lib/newsletter-client';

/**
 * The token of a subscriber's links (preferences, unsubscribe): `u1.<id>.<MAC of the id>` under
 * the `unsubscribe` subkey. Nothing is stored: it is checked by recomputation, so it never changes
 * and every mail sent to the subscriber, old or new, carries a working link — whatever happens to
 * the other keys, and across a rotation of its own (older versions of the key still verify).
 *
 * Links sent before these tokens existed carry a 43-character secret whose SHA-256 is in
 * `unsubscribe_hash`; they are still found that way. That column is never written again.
 */
export function unsubscribeTokenFor(subscriberId: string): string {
  return `u1.${subscriberId}.${sign('unsubscribe', subscriberId)}`;
}

/** The subscriber id a token names, if its MAC is right. */
function subscriberOfToken(token: string): string | null {
  const match = /^u1\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id, mac] = match as unknown as [string, string, string];
  return verify('unsubscribe', id, mac) ? id : null;
}

/** The subscriber behind a token (signed, or an old stored one), or undefined. */
async function subscriberByToken(db: Kysely<Database>, token: string): Promise<{ id: string; email: string } | undefined> {
  const id = subscriberOfToken(token);
  if (id) return db.selectFrom('newsletter_subscribers').select(['id', 'email']).where('id', '=', id).executeTakeFirst();
  if (isWellFormedSecret(token))
    return db.selectFrom('newsletter_subscribers').select(['id', 'email']).where('unsubscribe_hash', '=', hashSecret(token)).executeTakeFirst();
  return undefined;
}

/**
 * The newsletters a choice names, checked against the configuration: unknown ids and, unless
 * `supporter`, supporters-only ones are refused. An empty choice is the default newsletter.
 */
function chosen(ids: readonly string[] | undefined, supporter: boolean): Result<{ list: string[] }> {
  const list = ids && ids.length > 0 ? [...new Set(ids)] : [DEFAULT_NEWSLETTER];
  for (const id of list) {
    const newsletter = findNewsletter(id);
    if (!newsletter) return fail(400, 'Cette lettre d’information n’existe pas.');
    if (newsletter.audience === 'supporters' && !supporter) return fail(400, `« ${newsletter.name} » est réservée à nos soutiens.`);
  }
  return { ok: true, list };
}

/** Keeps the address's summary status: confirmed while one subscription is; else unsubscribed once it was, else pending. */
async function refreshSummary(trx: Kysely<Database>, subscriberId: string, now: string): Promise<void> {
  const rows = await trx.selectFrom('newsletter_subscriptions').select('status').where('subscriber_id', '=', subscriberId).execute();
  const status: NewsletterStatus = rows.some((r) => r.status === 'confirmed')
    ? 'confirmed'
    : rows.some((r) => r.status === 'unsubscribed')
      ? 'unsubscribed'
      : 'pending';
  const current = await trx.selectFrom('newsletter_subscribers').select(['status', 'confirmed_at']).where('id', '=', subscriberId).executeTakeFirstOrThrow();
  if (current.status === status) return;
  await trx
    .updateTable('newsletter_subscribers')
    .set({
      status,
      ...(status === 'confirmed' ? { confirmed_at: current.confirmed_at ?? now, unsubscribed_at: null } : {}),
      ...(status === 'unsubscribed' ? { unsubscribed_at: now } : {}),
    })
    .where('id', '=', subscriberId)
    .execute();
}

/** The address's row, created when new. */
async function ensureSubscriber(trx: Kysely<Database>, email: string, now: string): Promise<string> {
  await trx
    .insertInto('newsletter_subscribers')
    .values({ id: newId(), email, status: 'pending', unsubscribe_hash: null, created_at: now, confirmed_at: null, unsubscribed_at: null })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  return (await trx.selectFrom('newsletter_subscribers').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

/** Sets one subscription's status (creating the row), in the caller's transaction; a confirmed one stays as it is when asked to confirm. */
async function setStatus(trx: Kysely<Database>, subscriberId: string, newsletter: string, status: NewsletterStatus, now: string): Promise<void> {
  await trx
    .insertInto('newsletter_subscriptions')
    .values({
      subscriber_id: subscriberId,
      newsletter,
      status,
      created_at: now,
      confirmed_at: status === 'confirmed' ? now : null,
      unsubscribed_at: status === 'unsubscribed' ? now : null,
    })
    .onConflict((oc) => oc.columns(['subscriber_id', 'newsletter']).doNothing())
    .execute();
  const set =
    status === 'confirmed'
      ? { status, confirmed_at: now, unsubscribed_at: null }
      : status === 'unsubscribed'
        ? { status, unsubscribed_at: now }
        : // A request anew: its 30 days before erasure start now.
          { status, unsubscribed_at: null, created_at: now };
  await trx
    .updateTable('newsletter_subscriptions')
    .set(set)
    .where('subscriber_id', '=', subscriberId)
    .where('newsletter', '=', newsletter)
    .where('status', '!=', status)
    .execute();
}

// ——— Sign-up (public forms) ———

/** A sign-up from a public form: the answer is the same whatever the address's state, and comes now; the job does the work. */
export async function subscribe(deps: ServerDeps, input: { email: string; client: string; newsletters?: readonly string[] }): Promise<Result<object>> {
  // The public forms offer only the newsletters open to all: supporters choose theirs signed in.
  const newsletters = chosen(input.newsletters, false);
  if (!newsletters.ok) return newsletters;
  const limited = await limit(
    deps,
    [
      [NEWSLETTER_LIMITS.byClient, input.client],
      [NEWSLETTER_LIMITS.byEmail, emailSubject(input.email)],
    ],
    'Trop de demandes.',
  );
  if (limited) return limited;
  await schedule(deps, deps.db, CONFIRMATION_MAIL, { email: normaliseEmail(input.email), newsletters: newsletters.list });
  deps.jobs.wake();
  return { ok: true };
}

/**
 * The job behind a sign-up: the chosen newsletters become pending (those already confirmed stay
 * so and get nothing), a confirmation link (7 days) is issued and mailed, naming them.
 */
export async function sendConfirmationNow(deps: ServerDeps, input: { email: string; newsletters?: string[] | undefined }): Promise<void> {
  const { email } = input;
  const now = toTimestamp(deps.clock.now());
  const ids = (input.newsletters?.length ? input.newsletters : [DEFAULT_NEWSLETTER]).filter((id) => findNewsletter(id)?.audience === 'everyone');
  const mail = await writeTransaction(deps.db, async (trx) => {
    const subscriberId = await ensureSubscriber(trx, email, now);
    const existing = new Map(
      (await trx.selectFrom('newsletter_subscriptions').select(['newsletter', 'status']).where('subscriber_id', '=', subscriberId).execute()).map((r) => [
        r.newsletter,
        r.status,
      ]),
    );
    const asked = ids.filter((id) => existing.get(id) !== 'confirmed');
    // Already confirmed for everything chosen: nothing to do, and nothing to tell.
    if (asked.length === 0) return null;
    for (const id of asked) await setStatus(trx, subscriberId, id, 'pending', now);
    await refreshSummary(trx, subscriberId, now);
    const confirmToken = await issueSingleUseToken(trx, 'newsletter_confirm', deps.clock.now(), { email });
    // The link confirms every choice still pending for the address (an earlier request's too):
    // the mail names them all, so that the click confirms only what it says.
    const pending = new Set([...asked, ...[...existing].filter(([, s]) => s === 'pending').map(([id]) => id)]);
    const names = NEWSLETTERS.filter((n) => pending.has(n.id)).map((n) => n.name);
    return newsletterConfirmMail({ siteUrl: deps.siteUrl, token: confirmToken, unsubscribeToken: unsubscribeTokenFor(subscriberId), newsletters: names });
  });
  if (mail) await deps.mailer.send({ to: email, ...mail });
}

/** The job after a confirmation: the welcome mail, naming what the address now receives. */
export async function sendWelcomeNow(deps: ServerDeps, input: { subscriberId: string }): Promise<void> {
  const row = await deps.db.selectFrom('newsletter_subscribers').select(['email', 'status']).where('id', '=', input.subscriberId).executeTakeFirst();
  if (row?.status !== 'confirmed') return;
  const confirmed = await deps.db
    .selectFrom('newsletter_subscriptions')
    .select('newsletter')
    .where('subscriber_id', '=', input.subscriberId)
    .where('status', '=', 'confirmed')
    .execute();
  const names = NEWSLETTERS.filter((n) => confirmed.some((c) => c.newsletter === n.id)).map((n) => n.name);
  await deps.mailer.send({
    to: row.email,
    ...newsletterWelcomeMail({ siteUrl: deps.siteUrl, unsubscribeToken: unsubscribeTokenFor(input.subscriberId), newsletters: names }),
  });
}

const INVALID = 'Ce lien n’est plus valable. Inscrivez-vous à nouveau depuis le bas de n’importe quelle page.';

/** Confirms, from the mailed link, every newsletter the address asked for; the welcome mail follows. */
export async function confirm(deps: ServerDeps, input: { token: string }): Promise<Result<object>> {
  if (!isWellFormedSecret(input.token)) return fail(400, INVALID);
  const now = deps.clock.now();
  const at = toTimestamp(now);
  const result = await writeTransaction(deps.db, async (trx) => {
    const token = await consumeSingleUseToken(trx, input.token, 'newsletter_confirm', now);
    if (!token?.email) return null;
    const row = await trx.selectFrom('newsletter_subscribers').select('id').where('email', '=', token.email).executeTakeFirst();
    if (!row) return null;
    await trx
      .updateTable('newsletter_subscriptions')
      .set({ status: 'confirmed', confirmed_at: at, unsubscribed_at: null })
      .where('subscriber_id', '=', row.id)
      .where('status', '=', 'pending')
      .execute();
    // A double opt-in proves the address: soft bounces counted before are forgotten.
    await trx.updateTable('newsletter_subscribers').set({ soft_bounces: 0 }).where('id', '=', row.id).execute();
    await refreshSummary(trx, row.id, at);
    await schedule(deps, trx, WELCOME_MAIL, { subscriberId: row.id });
    return row.id;
  });
  if (!result) return fail(400, INVALID);
  deps.jobs.wake();
  return { ok: true };
}

// ——— Links in every mail: unsubscribe (one click) and the preferences page ———

/**
 * Unsubscribes the address behind a token from one newsletter (the mail's own, for the RFC 8058
 * one-click button) or from all of them. Idempotent; an unknown newsletter id unsubscribes from
 * all (the token alone authorises leaving everything).
 */
export async function unsubscribe(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { token: string; newsletter?: string | undefined },
): Promise<Result<{ newsletters: string[] }>> {
  const row = await subscriberByToken(deps.db, input.token);
  if (!row) return fail(400, 'Lien de désinscription invalide.');
  const now = toTimestamp(deps.clock.now());
  const only = input.newsletter && findNewsletter(input.newsletter) ? input.newsletter : undefined;
  const left = await writeTransaction(deps.db, async (trx) => {
    let query = trx
      .updateTable('newsletter_subscriptions')
      .set({ status: 'unsubscribed', unsubscribed_at: now })
      .where('subscriber_id', '=', row.id)
      .where('status', '!=', 'unsubscribed');
    if (only) query = query.where('newsletter', '=', only);
    const changed = await query.returning('newsletter').execute();
    // An address from before the several newsletters, with no subscription row, is unsubscribed as a whole.
    await refreshSummary(trx, row.id, now);
    if (!only)
      await trx
        .updateTable('newsletter_subscribers')
        .set({ status: 'unsubscribed', unsubscribed_at: now })
        .where('id', '=', row.id)
        .where('status', '!=', 'unsubscribed')
        .execute();
    return changed.map((c) => c.newsletter);
  });
  return { ok: true, newsletters: left };
}

export interface Preferences {
  /** The address, partly hidden (the link may be forwarded): « j•••@exemple.fr ». */
  maskedEmail: string;
  /** Each newsletter the address may receive, with its state. */
  newsletters: { id: string; name: string; description: string; cadence: string; status: NewsletterStatus | 'none' }[];
  suppressed: boolean;
}

/** `jean@exemple.fr` → `j•••@exemple.fr`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** The preferences page's data, from the token of a mail's link; null when the token is not valid. */
export async function preferencesByToken(deps: Pick<ServerDeps, 'db' | 'clock'>, token: string): Promise<Preferences | null> {
  const row = await subscriberByToken(deps.db, token);
  if (!row) return null;
  return preferencesOf(deps, row);
}

async function preferencesOf(deps: Pick<ServerDeps, 'db' | 'clock'>, row: { id: string; email: string }): Promise<Preferences> {
  const statuses = new Map(
    (await deps.db.selectFrom('newsletter_subscriptions').select(['newsletter', 'status']).where('subscriber_id', '=', row.id).execute()).map((r) => [
      r.newsletter,
      r.status,
    ]),
  );
  const supporter = await isSupporterAddress(deps.db, row.email, deps.clock.now());
  const suppressed = await deps.db
    .selectFrom('newsletter_suppressions')
    .select('email')
    .where('email', '=', row.email)
    .where('lifted_at', 'is', null)
    .executeTakeFirst();
  return {
    maskedEmail: maskEmail(row.email),
    newsletters: NEWSLETTERS.filter((n) => n.audience === 'everyone' || supporter || statuses.get(n.id) === 'confirmed').map((n) => ({
      id: n.id,
      name: n.name,
      description: n.description,
      cadence: n.cadence,
      status: statuses.get(n.id) ?? 'none',
    })),
    suppressed: suppressed !== undefined,
  };
}

/**
 * The preferences page's form: the address receives exactly the newsletters ticked. The link was
 * mailed to the address, which proves it: a newsletter ticked is confirmed at once.
 */
export async function setPreferencesByToken(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { token: string; newsletters: readonly string[] },
): Promise<Result<{ preferences: Preferences }>> {
  const row = await subscriberByToken(deps.db, input.token);
  if (!row) return fail(400, 'Ce lien de gestion des lettres n’est pas valable.');
  const applied = await applyChoice(deps, row, input.newsletters);
  if (!applied.ok) return applied;
  return { ok: true, preferences: await preferencesOf(deps, row) };
}

async function applyChoice(deps: Pick<ServerDeps, 'db' | 'clock'>, row: { id: string; email: string }, wanted: readonly string[]): Promise<Result<object>> {
  const supporter = await isSupporterAddress(deps.db, row.email, deps.clock.now());
  const before = new Map(
    (await deps.db.selectFrom('newsletter_subscriptions').select(['newsletter', 'status']).where('subscriber_id', '=', row.id).execute()).map((r) => [
      r.newsletter,
      r.status,
    ]),
  );
  for (const id of wanted) {
    const newsletter = findNewsletter(id);
    if (!newsletter) return fail(400, 'Cette lettre d’information n’existe pas.');
    // A former supporter may keep what they chose (nothing is sent while they do not support); not take it anew.
    if (newsletter.audience === 'supporters' && !supporter && before.get(id) !== 'confirmed')
      return fail(400, `« ${newsletter.name} » est réservée à nos soutiens.`);
  }
  const now = toTimestamp(deps.clock.now());
  await writeTransaction(deps.db, async (trx) => {
    const current = new Map(
      (await trx.selectFrom('newsletter_subscriptions').select(['newsletter', 'status']).where('subscriber_id', '=', row.id).execute()).map((r) => [
        r.newsletter,
        r.status,
      ]),
    );
    for (const n of NEWSLETTERS) {
      if (wanted.includes(n.id)) await setStatus(trx, row.id, n.id, 'confirmed', now);
      else if (current.has(n.id)) await setStatus(trx, row.id, n.id, 'unsubscribed', now);
    }
    await refreshSummary(trx, row.id, now);
    if (wanted.length === 0)
      await trx
        .updateTable('newsletter_subscribers')
        .set({ status: 'unsubscribed', unsubscribed_at: now })
        .where('id', '=', row.id)
        .where('status', '!=', 'unsubscribed')
        .execute();
  });
  return { ok: true };
}

// ——— For the account domain: the account's switches, a change of address, export and erasure ———

/** Is this address subscribed (confirmed) to at least one newsletter? */
export async function isSubscribed(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db.selectFrom('newsletter_subscribers').select('status').where('email', '=', normaliseEmail(email)).executeTakeFirst();
  return row?.status === 'confirmed';
}

/** The account page's switches: one per newsletter the account may receive. */
export async function accountNewsletters(deps: Pick<ServerDeps, 'db' | 'clock'>, email: string): Promise<Preferences['newsletters']> {
  const address = normaliseEmail(email);
  const row = await deps.db.selectFrom('newsletter_subscribers').select(['id', 'email']).where('email', '=', address).executeTakeFirst();
  if (row) return (await preferencesOf(deps, row)).newsletters;
  const supporter = await isSupporterAddress(deps.db, address, deps.clock.now());
  return NEWSLETTERS.filter((n) => n.audience === 'everyone' || supporter).map((n) => ({
    id: n.id,
    name: n.name,
    description: n.description,
    cadence: n.cadence,
    status: 'none' as const,
  }));
}

/**
 * The account's switches: a signed-in user's address is proven, so each newsletter switched on
 * is confirmed at once (no double opt-in), each switched off is unsubscribed.
 */
export async function setAccountNewsletters(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { email: string; newsletters: readonly string[] },
): Promise<Result<object>> {
  const email = normaliseEmail(input.email);
  const id = await writeTransaction(deps.db, (trx) => ensureSubscriber(trx, email, toTimestamp(deps.clock.now())));
  return applyChoice(deps, { id, email }, input.newsletters);
}

/**
 * The profile's single box, kept for the account API (`newsletter: true|false`): on subscribes
 * the proven address to the default newsletter, off leaves every newsletter. In the caller's
 * transaction.
 */
export async function setSubscription(db: Kysely<Database>, input: { email: string; subscribed: boolean; now: Date }): Promise<void> {
  const email = normaliseEmail(input.email);
  const now = toTimestamp(input.now);
  const subscriberId = await ensureSubscriber(db, email, now);
  if (input.subscribed) await setStatus(db, subscriberId, DEFAULT_NEWSLETTER, 'confirmed', now);
  else
    await db
      .updateTable('newsletter_subscriptions')
      .set({ status: 'unsubscribed', unsubscribed_at: now })
      .where('subscriber_id', '=', subscriberId)
      .where('status', '!=', 'unsubscribed')
      .execute();
  await refreshSummary(db, subscriberId, now);
  if (!input.subscribed)
    await db
      .updateTable('newsletter_subscribers')
      .set({ status: 'unsubscribed', unsubscribed_at: now })
      .where('id', '=', subscriberId)
      .where('status', '!=', 'unsubscribed')
      .execute();
}

/** The subscription follows its owner to a new address, unless that address has its own. */
export async function followAddress(db: Kysely<Database>, input: { oldEmail: string; newEmail: string }): Promise<void> {
  const newEmail = normaliseEmail(input.newEmail);
  if (await db.selectFrom('newsletter_subscribers').select('id').where('email', '=', newEmail).executeTakeFirst()) return;
  await db.updateTable('newsletter_subscribers').set({ email: newEmail }).where('email', '=', normaliseEmail(input.oldEmail)).execute();
}

/** What the newsletter holds about an address, for the export of a user's data. */
export async function exportSubscription(db: Kysely<Database>, email: string) {
  const row = await db
    .selectFrom('newsletter_subscribers')
    .select(['id', 'status', 'created_at', 'confirmed_at', 'unsubscribed_at'])
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  if (!row) return null;
  const subscriptions = await db
    .selectFrom('newsletter_subscriptions')
    .select(['newsletter', 'status', 'created_at', 'confirmed_at', 'unsubscribed_at'])
    .where('subscriber_id', '=', row.id)
    .execute();
  const deliveries = await db
    .selectFrom('newsletter_deliveries')
    .innerJoin('newsletter_issues', 'newsletter_issues.id', 'newsletter_deliveries.issue_id')
    .select(['newsletter_issues.newsletter', 'newsletter_issues.number', 'newsletter_deliveries.status', 'newsletter_deliveries.sent_at'])
    .where('newsletter_deliveries.subscriber_id', '=', row.id)
    .execute();
  const { id: _id, ...address } = row;
  return { ...address, subscriptions, deliveries };
}

/**
 * On deletion of an account, its subscriptions end. The rows stay, unsubscribed, so that the
 * address is not mailed again by mistake (an unsubscription must be remembered); a send under way
 * skips it when its turn comes.
 */
export async function endSubscription(db: Kysely<Database>, input: { email: string; now: Date }): Promise<void> {
  const now = toTimestamp(input.now);
  const row = await db.selectFrom('newsletter_subscribers').select('id').where('email', '=', normaliseEmail(input.email)).executeTakeFirst();
  if (!row) return;
  await db
    .updateTable('newsletter_subscriptions')
    .set({ status: 'unsubscribed', unsubscribed_at: now })
    .where('subscriber_id', '=', row.id)
    .where('status', '!=', 'unsubscribed')
    .execute();
  await db.updateTable('newsletter_subscribers').set({ status: 'unsubscribed', unsubscribed_at: now }).where('id', '=', row.id).execute();
}

// ——— For the newsroom: the subscribers' CSV ———

export interface ConfirmedSubscriber {
  email: string;
  confirmedAt: Date;
  /** Ids of the newsletters it receives. */
  newsletters: string[];
}

/**
 * Every address confirmed for at least one newsletter, oldest confirmation first, with the
 * newsletters it receives. Pending and unsubscribed addresses are never in it.
 */
export async function confirmedSubscribers(db: Kysely<Database>): Promise<ConfirmedSubscriber[]> {
  const rows = await db
    .selectFrom('newsletter_subscribers')
    .innerJoin('newsletter_subscriptions', 'newsletter_subscriptions.subscriber_id', 'newsletter_subscribers.id')
    .select(['newsletter_subscribers.email', 'newsletter_subscribers.confirmed_at', 'newsletter_subscribers.created_at', 'newsletter_subscriptions.newsletter'])
    .where('newsletter_subscriptions.status', '=', 'confirmed')
    .orderBy('newsletter_subscribers.confirmed_at')
    .orderBy('newsletter_subscribers.email')
    .execute();
  const byEmail = new Map<string, ConfirmedSubscriber>();
  for (const r of rows) {
    const entry = byEmail.get(r.email) ?? { email: r.email, confirmedAt: new Date(r.confirmed_at ?? r.created_at), newsletters: [] };
    entry.newsletters.push(r.newsletter);
    byEmail.set(r.email, entry);
  }
  return [...byEmail.values()];
}

// ——— Retention: sign-ups never confirmed ———

/** Sign-ups not confirmed within this many days are erased (the privacy page says 30). */
export const UNCONFIRMED_RETENTION_DAYS = 30;

/**
 * Erases the choices still pending after the retention, and the addresses left with nothing
 * (never confirmed, never unsubscribed: nothing to remember). Idempotent; run daily by its job.
 */
export async function purgeUnconfirmed(db: Kysely<Database>, now: Date): Promise<number> {
  const before = toTimestamp(new Date(now.getTime() - UNCONFIRMED_RETENTION_DAYS * 24 * 3600_000));
  return writeTransaction(db, async (trx) => {
    const choices = await trx.deleteFrom('newsletter_subscriptions').where('status', '=', 'pending').where('created_at', '<', before).executeTakeFirst();
    const addresses = await trx
      .deleteFrom('newsletter_subscribers')
      .where('status', '=', 'pending')
      .where('created_at', '<', before)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('newsletter_subscriptions')
              .select('newsletter_subscriptions.subscriber_id')
              .whereRef('newsletter_subscriptions.subscriber_id', '=', 'newsletter_subscribers.id'),
          ),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('newsletter_deliveries')
              .select('newsletter_deliveries.id')
              .whereRef('newsletter_deliveries.subscriber_id', '=', 'newsletter_subscribers.id'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(choices.numDeletedRows) + Number(addresses.numDeletedRows);
  });
}

/** The state of each delivery is kept this long after its issue was sent (the privacy page says 13 months). */
export const DELIVERY_RETENTION_MONTHS = 13;

/**
 * Erases the delivery rows of issues sent more than 13 months ago: they served the bounces and
 * complaints that come after a send. The issue keeps its number of recipients.
 */
export async function purgeOldDeliveries(db: Kysely<Database>, now: Date): Promise<number> {
  const before = new Date(now);
  before.setUTCMonth(before.getUTCMonth() - DELIVERY_RETENTION_MONTHS);
  const result = await db
    .deleteFrom('newsletter_deliveries')
    .where('issue_id', 'in', db.selectFrom('newsletter_issues').select('id').where('status', '=', 'sent').where('sent_at', '<', toTimestamp(before)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
