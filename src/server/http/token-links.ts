/**
 * Links mailed with a token (sign-in link, password reset, change of e-mail, newsletter
 * confirmation and unsubscription). Opening the link changes nothing: a mail scanner that
 * follows it must not spend it. The GET stores the token in a short-lived cookie (HttpOnly,
 * SameSite=Lax, scoped to one clean address) and answers 303 to that address, so the token
 * leaves the address bar and the history without any script; the clean page shows the button
 * or the form, and its POST reads the token from the cookie, then clears it.
 */
import type { AstroCookies } from 'astro';
import { config } from '../core/config';
import type { Result } from '../core/result';
import { redirectWithFlash, takeFlash } from './flash';
import { emptyForm, failWith, isFormPost, readForm } from './forms';

export interface TokenLink {
  cookie: string;
  /** The clean address: the cookie is sent there only. */
  path: string;
  maxAgeSeconds: number;
}

export const TOKEN_LINKS = {
  signIn: { cookie: 'cc_link_signin', path: '/welcome', maxAgeSeconds: 15 * 60 },
  reset: { cookie: 'cc_link_reset', path: '/modifier-mon-mot-de-passe/nouveau', maxAgeSeconds: 60 * 60 },
  email: { cookie: 'cc_link_email', path: '/modifier-mon-email/confirmer', maxAgeSeconds: 60 * 60 },
  newsletterConfirm: { cookie: 'cc_link_newsletter', path: '/mailinglist/confirm', maxAgeSeconds: 60 * 60 },
  unsubscribe: { cookie: 'cc_link_unsubscribe', path: '/mailinglist/unsubscribe', maxAgeSeconds: 60 * 60 },
  signUpConfirm: { cookie: 'cc_link_signup', path: '/creer-mon-compte/confirmer', maxAgeSeconds: 60 * 60 },
} as const satisfies Record<string, TokenLink>;

/** Tokens are base64url strings of a few dozen characters (unsubscribe tokens also have dots); anything else is not kept. */
const PLAUSIBLE = /^[A-Za-z0-9_.-]{16,100}$/;

/** Keeps the token for the clean page and answers 303 there (never cached, no referrer). */
export function stashToken(cookies: AstroCookies, link: TokenLink, token: string | undefined | null): Response {
  if (token && PLAUSIBLE.test(token)) {
    cookies.set(link.cookie, token, {
      path: link.path,
      httpOnly: true,
      sameSite: 'lax',
      secure: config().siteUrl.protocol === 'https:',
      maxAge: link.maxAgeSeconds,
    });
  } else {
    // A malformed link: the clean page says it no longer works.
    clearToken(cookies, link);
  }
  return new Response(null, {
    status: 303,
    headers: { Location: link.path, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  });
}

/** The token kept for this clean page, if any. */
export function readToken(cookies: AstroCookies, link: TokenLink): string | undefined {
  const token = cookies.get(link.cookie)?.value;
  return token && PLAUSIBLE.test(token) ? token : undefined;
}

export function clearToken(cookies: AstroCookies, link: TokenLink): void {
  cookies.delete(link.cookie, { path: link.path });
}

/**
 * The whole handling of a mailed-link page that acts on one click (confirm a subscription or an
 * address, unsubscribe): on a POST, an empty origin-checked form, then `act` with the token kept
 * in the page's cookie. Success clears the token and answers 303 here with `done`'s message;
 * a refusal says why in French with its 4xx and spends the kept token, except a 429 (the link is
 * still good: try again later). Without a token, a POST answers 400 with `noToken` (or only the
 * page's own « lien plus valable » text). Any other request just reads the kept token.
 */
export async function actOnMailedLink<T extends object>(
  Astro: { request: Request; cookies: AstroCookies; response: { status?: number | undefined; headers: Headers } },
  link: TokenLink,
  act: (token: string) => Promise<Result<T>>,
  options: { done: (result: T) => string; noToken?: string },
): Promise<Response | { token: string | undefined; error: string; done: string | undefined }> {
  let token = readToken(Astro.cookies, link);
  let error = '';
  if (isFormPost(Astro.request)) {
    const form = await readForm(Astro.request, emptyForm);
    if (!form.ok) error = failWith(Astro.response, form).message;
    else if (!token) error = failWith(Astro.response, { status: 400, message: options.noToken ?? '' }).message;
    else {
      const result = await act(token);
      if (result.ok) {
        clearToken(Astro.cookies, link);
        return redirectWithFlash(Astro.cookies, link.path, { kind: 'success', message: options.done(result) });
      }
      error = failWith(Astro.response, result).message;
      if (result.status !== 429) {
        clearToken(Astro.cookies, link);
        token = undefined;
      }
    }
  }
  return { token, error, done: error ? undefined : takeFlash(Astro.cookies)?.message };
}
