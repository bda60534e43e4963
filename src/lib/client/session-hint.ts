/**
 * The session hint: a non-secret cookie set beside the session cookie (src/server/auth/cookies.ts),
 * which says someone may be signed in. Read by the session store and by the user menu's client
 * directive (src/directives/session.ts), which hydrates the menu at once only when it is there.
 *
 * It was called `cc_member` until « member » came to mean a sociétaire only (the register's
 * member): a browser signed in before the rename still carries that name, read here until its
 * session ends (30 days at most); sign-out clears both.
 */
export const HINT_COOKIE = 'cc_session_hint';
export const LEGACY_HINT_COOKIE = 'cc_member';

export function hasSessionHint(cookie: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookie.split(';').some((part) => {
    const item = part.trim();
    return item === `${HINT_COOKIE}=1` || item === `${LEGACY_HINT_COOKIE}=1`;
  });
}
