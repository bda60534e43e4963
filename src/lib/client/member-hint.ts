/**
 * The member hint: a non-secret cookie set beside the session cookie (src/server/auth/cookies.ts),
 * which says someone may be signed in. Read by the session store and by the user menu's client
 * directive (src/directives/member.ts), which hydrates the menu at once only when it is there.
 */
export const HINT_COOKIE = 'cc_member';

export function hasSessionHint(cookie: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookie.split(';').some((part) => part.trim() === `${HINT_COOKIE}=1`);
}
