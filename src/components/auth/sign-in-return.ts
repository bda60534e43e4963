/**
 * The way back after a sign-in link. The link mailed from /login carries only its token, so
 * the page that asked for it (`/login?redirect=…`, e.g. the payment step with its basket)
 * leaves the way back in a short-lived cookie scoped to /welcome, the page the link opens; the
 * click that signs in there goes back to it. Opened in another browser, the link signs in and
 * goes to « Mon compte », as before.
 */
import type { AstroCookies } from 'astro';
import { TOKEN_LINKS } from '../../server/http/token-links';
import { safeRedirectPath } from '../../server/http/redirects';

const COOKIE = 'cc_link_return';
const { path, maxAgeSeconds } = TOKEN_LINKS.signIn;

export function rememberReturn(cookies: AstroCookies, back: string, siteUrl: URL): void {
  cookies.set(COOKIE, safeRedirectPath(back, '/mon-compte'), {
    path,
    httpOnly: true,
    sameSite: 'lax',
    secure: siteUrl.protocol === 'https:',
    maxAge: maxAgeSeconds,
  });
}

/** The way back, if one was left, cleared as it is read (a same-site path only). */
export function takeReturn(cookies: AstroCookies): string | undefined {
  const value = cookies.get(COOKIE)?.value;
  if (value === undefined) return undefined;
  cookies.delete(COOKIE, { path });
  return safeRedirectPath(value, '/mon-compte');
}
