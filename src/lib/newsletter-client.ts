/** The public (non-secret) credential the site's pages send to the mailing-list API (SPEC §7). */
export const NEWSLETTER_CLIENT_ID = 'contrechamp-site';

export type NewsletterAnswer = { ok: true } | { ok: false; message: string };

export const NEWSLETTER_FAILED = 'L’inscription n’a pas abouti. Réessayez.';
export const NEWSLETTER_OFFLINE = 'L’inscription n’a pas abouti. Vérifiez votre connexion et réessayez.';

/**
 * Asks for a newsletter signup (double opt-in: the API mails a confirmation link naming the
 * newsletters chosen; without a choice, the default one). Never throws: a refusal comes back
 * with the API's French message, a network failure with ours.
 */
export async function subscribeToNewsletter(email: string, newsletters?: readonly string[], fetcher: typeof fetch = fetch): Promise<NewsletterAnswer> {
  try {
    const response = await fetcher('/api/mailinglist/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Client-Id': NEWSLETTER_CLIENT_ID },
      credentials: 'same-origin',
      body: JSON.stringify(newsletters ? { email, newsletters } : { email }),
    });
    if (response.ok) return { ok: true };
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    return { ok: false, message: typeof body?.message === 'string' && body.message ? body.message : NEWSLETTER_FAILED };
  } catch {
    return { ok: false, message: NEWSLETTER_OFFLINE };
  }
}
