/**
 * The session cookie, and its non-secret hint. The session cookie is HttpOnly, SameSite=Lax,
 * Secure when the site is served over HTTPS; "Se souvenir de moi" makes it persistent
 * (30 days), otherwise it lasts as long as the browser session. The hint cookie carries no
 * secret: it only tells the page's scripts that asking /api/auth/me is worthwhile, so that
 * anonymous readers make no API request at all.
 *
 * The known-device cookie (`cc_device`, known-devices.ts) is set at each password sign-in and
 * outlives sign-out: HttpOnly, SameSite=Lax, one year. It grants nothing but a count of its own
 * for that browser's sign-in attempts.
 */
import type { AstroCookies } from 'astro';
import type { NewSession } from './service';
import { DEVICE_COOKIE } from './known-devices';

export const SESSION_COOKIE = 'cc_session';
export const HINT_COOKIE = 'cc_session_hint';
/** The hint's name before « member » meant a sociétaire only: still cleared at sign-out (src/lib/client/session-hint.ts). */
export const LEGACY_HINT_COOKIE = 'cc_member';

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
  if (cookies.has(LEGACY_HINT_COOKIE)) cookies.delete(LEGACY_HINT_COOKIE, { path: '/' });
}

/** The browser's known-device cookie, as sent (never logged). */
export const knownDeviceCookie = (cookies: AstroCookies): string | undefined => cookies.get(DEVICE_COOKIE)?.value;

/** Sets the known-device cookie a password sign-in returned. Sign-out leaves it. */
export function setKnownDeviceCookie(cookies: AstroCookies, device: { value: string; expiresAt: Date }, siteUrl: URL): void {
  cookies.set(DEVICE_COOKIE, device.value, { path: '/', sameSite: 'lax', secure: siteUrl.protocol === 'https:', httpOnly: true, expires: device.expiresAt });
}
