/**
 * Newsletter subscriptions, by double opt-in: an address is subscribed only once it confirms
 * from the mail sent to it. Repeating a request is harmless, and no answer says whether an
 * address is already subscribed. Every newsletter mail carries an unsubscribe link.
 */
import type { AuthDeps, AuthResult } from '../auth/service';
import { RATE_LIMITS, emailSubject, hit } from '../auth/rate-limit';
import { hashSecret, isWellFormedSecret, newSecret, tokenExpiresAt } from '../auth/tokens';
import { normaliseEmail } from '../auth/repository';
import { newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { log } from '../log';
import { newsletterConfirmMail, newsletterWelcomeMail } from '../mail/templates';

/** The public credential the site's own pages send (SPEC §7); not a secret. */
export { NEWSLETTER_CLIENT_ID } from '../../lib/newsletter-client';

const tooMany = (seconds: number): AuthResult<never> => ({
  ok: false, status: 429, message: `Trop de demandes. Réessayez dans ${Math.max(1, Math.ceil(seconds / 60))} minutes.`, retryAfterSeconds: seconds,
});

export async function subscribe(deps: AuthDeps, input: { email: string; client: string }): Promise<AuthResult<object>> {
  const now = deps.clock.now();
  for (const [rule, subject] of [[RATE_LIMITS.mailByClient, input.client], [RATE_LIMITS.mailByEmail, emailSubject(input.email)]] as const) {
    const result = await hit(deps.db, rule, subject, now);
    if (!result.allowed) return tooMany(result.retryAfterSeconds);
  }
  const email = normaliseEmail(input.email);
  const tokens = await writeTransaction(deps.db, async (trx) => {
    const existing = await trx.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirst();
    // Already confirmed: nothing to do, and nothing to tell.
    if (existing?.status === 'confirmed') return null;
    const unsubscribe = newSecret();
    if (existing) {
      await trx.updateTable('newsletter_subscribers').set({ status: 'pending', unsubscribe_hash: hashSecret(unsubscribe), unsubscribed_at: null }).where('id', '=', existing.id).execute();
    } else {
      await trx.insertInto('newsletter_subscribers').values({ id: newId(), email, status: 'pending', unsubscribe_hash: hashSecret(unsubscribe), created_at: toTimestamp(now), confirmed_at: null, unsubscribed_at: null }).execute();
    }
    const confirm = newSecret();
    await trx.insertInto('tokens').values({ id_hash: hashSecret(confirm), purpose: 'newsletter_confirm', user_id: null, email, payload: null, created_at: toTimestamp(now), expires_at: toTimestamp(tokenExpiresAt('newsletter_confirm', now)) }).execute();
    return { confirm, unsubscribe };
  });
  if (tokens) {
    setImmediate(() => {
      deps.mailer
        .send({ to: email, ...newsletterConfirmMail({ siteUrl: deps.siteUrl, token: tokens.confirm, unsubscribeToken: tokens.unsubscribe }) })
        .catch((error: unknown) => log.error('mail not submitted', { template: 'newsletter-confirm', error }));
    });
  }
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
    const unsubscribe = newSecret();
    await trx
      .updateTable('newsletter_subscribers')
      .set({ status: 'confirmed', confirmed_at: toTimestamp(now), unsubscribed_at: null, unsubscribe_hash: hashSecret(unsubscribe) })
      .where('email', '=', token.email)
      .execute();
    await trx.updateTable('users').set({ newsletter: 1, updated_at: toTimestamp(now) }).where('email', '=', token.email).execute();
    return { email: token.email, unsubscribe };
  });
  if (!result) return { ok: false, status: 400, message: INVALID };
  setImmediate(() => {
    deps.mailer
      .send({ to: result.email, ...newsletterWelcomeMail({ siteUrl: deps.siteUrl, unsubscribeToken: result.unsubscribe }) })
      .catch((error: unknown) => log.error('mail not submitted', { template: 'newsletter-welcome', error }));
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
