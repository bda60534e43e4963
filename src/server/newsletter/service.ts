/**
 * Newsletter subscriptions, by double opt-in: an address is subscribed only once it confirms
 * from the mail sent to it. Repeating a request is harmless, and no answer says whether an
 * address is already subscribed. Every newsletter mail carries an unsubscribe link.
 */
import type { AuthDeps, AuthResult } from '../auth/service';
import { createHmac } from 'node:crypto';
import { RATE_LIMITS, emailSubject, hit, rateLimitSecret, retryLater } from '../rate-limit/rate-limit';
import { hashSecret, isWellFormedSecret, newSecret, tokenExpiresAt } from '../auth/tokens';
import { normaliseEmail } from '../auth/repository';
import { newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { afterAnswer } from '../core/after-answer';
import { newsletterConfirmMail, newsletterWelcomeMail } from '../mail/templates';

/** The public credential the site's own pages send (SPEC §7); not a secret. */
export { NEWSLETTER_CLIENT_ID } from '../../lib/newsletter-client';

const tooMany = (seconds: number): AuthResult<never> => ({
  ok: false, status: 429, message: retryLater('Trop de demandes.', seconds), retryAfterSeconds: seconds,
});

/**
 * The unsubscribe token of a subscriber: derived from its id with the server's key, so that it
 * never changes and every mail sent to it, old or new, carries a working link. Only its hash
 * is stored, to find the subscriber back.
 */
export function unsubscribeTokenFor(subscriberId: string): string {
  return createHmac('sha256', rateLimitSecret()).update(`unsubscribe:${subscriberId}`).digest('base64url');
}

export async function subscribe(deps: AuthDeps, input: { email: string; client: string }): Promise<AuthResult<object>> {
  const now = deps.clock.now();
  for (const [rule, subject] of [[RATE_LIMITS.mailByClient, input.client], [RATE_LIMITS.newsletterByEmail, emailSubject(input.email)]] as const) {
    const result = await hit(deps.db, rule, subject, now);
    if (!result.allowed) return tooMany(result.retryAfterSeconds);
  }
  const email = normaliseEmail(input.email);
  // Whatever the address's state, the answer is the same and comes now; the work follows.
  afterAnswer('newsletter-confirm', async () => {
      const mail = await writeTransaction(deps.db, async (trx) => {
        await trx
          .insertInto('newsletter_subscribers')
          .values({ id: newId(), email, status: 'pending', unsubscribe_hash: null, created_at: toTimestamp(now), confirmed_at: null, unsubscribed_at: null })
          .onConflict((oc) => oc.column('email').doNothing())
          .execute();
        const row = await trx.selectFrom('newsletter_subscribers').select(['id', 'status']).where('email', '=', email).executeTakeFirstOrThrow();
        // Already confirmed: nothing to do, and nothing to tell.
        if (row.status === 'confirmed') return null;
        const unsubscribe = unsubscribeTokenFor(row.id);
        await trx.updateTable('newsletter_subscribers').set({ status: 'pending', unsubscribe_hash: hashSecret(unsubscribe), unsubscribed_at: null }).where('id', '=', row.id).execute();
        const confirm = newSecret();
        await trx.insertInto('tokens').values({ id_hash: hashSecret(confirm), purpose: 'newsletter_confirm', user_id: null, email, payload: null, created_at: toTimestamp(now), expires_at: toTimestamp(tokenExpiresAt('newsletter_confirm', now)) }).execute();
        return newsletterConfirmMail({ siteUrl: deps.siteUrl, token: confirm, unsubscribeToken: unsubscribe });
      });
      if (mail) await deps.mailer.send({ to: email, ...mail });
  });
  return { ok: true };
}

const INVALID = 'Ce lien n’est plus valable. Inscrivez-vous à nouveau depuis le bas de n’importe quelle page.';

/** Confirms from the mailed link; the welcome mail carries the unsubscribe link. */
export async function confirm(deps: AuthDeps, input: { token: string }): Promise<AuthResult<object>> {
  if (!isWellFormedSecret(input.token)) return { ok: false, status: 400, message: INVALID };
  const now = deps.clock.now();
  const result = await writeTransaction(deps.db, async (trx) => {
    const token = await trx
      .updateTable('tokens')
      .set({ used_at: toTimestamp(now) })
      .where('id_hash', '=', hashSecret(input.token))
      .where('purpose', '=', 'newsletter_confirm')
      .where('used_at', 'is', null)
      .where('expires_at', '>', toTimestamp(now))
      .returning('email')
      .executeTakeFirst();
    if (!token?.email) return null;
    const row = await trx.selectFrom('newsletter_subscribers').select('id').where('email', '=', token.email).executeTakeFirst();
    if (!row) return null;
    const unsubscribe = unsubscribeTokenFor(row.id);
    await trx
      .updateTable('newsletter_subscribers')
      .set({ status: 'confirmed', confirmed_at: toTimestamp(now), unsubscribed_at: null, unsubscribe_hash: hashSecret(unsubscribe) })
      .where('id', '=', row.id)
      .execute();
    await trx.updateTable('users').set({ newsletter: 1, updated_at: toTimestamp(now) }).where('email', '=', token.email).execute();
    return { email: token.email, unsubscribe };
  });
  if (!result) return { ok: false, status: 400, message: INVALID };
  afterAnswer('newsletter-welcome', async () => {
    await deps.mailer.send({ to: result.email, ...newsletterWelcomeMail({ siteUrl: deps.siteUrl, unsubscribeToken: result.unsubscribe }) });
  });
  return { ok: true };
}

/** Unsubscribes the address behind an unsubscribe token. Idempotent. */
export async function unsubscribe(deps: Pick<AuthDeps, 'db' | 'clock'>, input: { token: string }): Promise<AuthResult<object>> {
  if (!isWellFormedSecret(input.token)) return { ok: false, status: 400, message: 'Lien de désinscription invalide.' };
  const now = deps.clock.now();
  const row = await deps.db.selectFrom('newsletter_subscribers').select(['id', 'email']).where('unsubscribe_hash', '=', hashSecret(input.token)).executeTakeFirst();
  if (!row) return { ok: false, status: 400, message: 'Lien de désinscription invalide.' };
  await writeTransaction(deps.db, async (trx) => {
    await trx.updateTable('newsletter_subscribers').set({ status: 'unsubscribed', unsubscribed_at: toTimestamp(now) }).where('id', '=', row.id).execute();
    await trx.updateTable('users').set({ newsletter: 0, updated_at: toTimestamp(now) }).where('email', '=', row.email).execute();
  });
  return { ok: true };
}
