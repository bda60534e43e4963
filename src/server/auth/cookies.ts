/**
 * The session cookie, and its non-secret hint. The session cookie is HttpOnly, SameSite=Lax,
 * Secure when the site is served over HTTPS; "Se souvenir de moi" makes it persistent
 * (30 days), otherwise it lasts as long as the browser session. The hint cookie carries no
 * secret: it only tells the page's scripts that asking /api/auth/me is worthwhile, so that
 * anonymous readers make no API request at all.
 */
import type { AstroCookies } from 'astro';
import type { NewSession } from './service';

export const SESSION_COOKIE = 'cc_session';
export const HINT_COOKIE = 'cc_member';

export function setSessionCookies(cookies: AstroCookies, session: NewSession, siteUrl: URL): void {
  const common = {
    path: '/',
    sameSite: 'lax' as const,
    secure: siteUrl.protocol === 'https:',
    ...(session.persistent ? { expires: session.expiresAt } : {}),
  };
  cookies.set(SESSION_COOKIE, session.token, { ...common, httpOnly: true });
  cookies.set(HINT_COOKIE, '1', { ...common, httpOnly: false });
}

export function clearSessionCookies(cookies: AstroCookies): void {
  cookies.delete(SESSION_COOKIE, { path: '/' });
  cookies.delete(HINT_COOKIE, { path: '/' });
}
