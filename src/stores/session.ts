/**
 * The session user (SPEC §4): null when logged out, set after login or `me`, reset at logout.
 * `me` is asked only when no user is known or a refresh is forced, and only when the hint
 * cookie says someone may be signed in: an anonymous reader's page makes no API request.
 * Its errors are ignored (SPEC §7).
 */
import { atom } from 'nanostores';
import { hasSessionHint } from '../lib/client/session-hint';

export interface SessionUser {
  id: string;
  email: string;
  given_name: string;
  family_name: string;
  role: string;
  newsletter: boolean;
}

export const $user = atom<SessionUser | null>(null);

/** The non-secret cookie set beside the session cookie, and how to read it. */
export { HINT_COOKIE, hasSessionHint } from '../lib/client/session-hint';

type Fetch = typeof fetch;

export function setUser(user: SessionUser | null): void {
  $user.set(user);
}

/** Asks the server who is signed in, when worthwhile. */
export async function fetchMe({
  force = false,
  fetcher = fetch as Fetch,
  cookie,
}: { force?: boolean; fetcher?: Fetch; cookie?: string } = {}): Promise<SessionUser | null> {
  if (!force && $user.get()) return $user.get();
  if (!hasSessionHint(cookie)) return $user.get();
  try {
    const response = await fetcher('/api/auth/me', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (response.ok) setUser((await response.json()) as SessionUser);
    else if (response.status === 401) setUser(null);
  } catch {
    // Ignored (SPEC §7): the page works without knowing.
  }
  return $user.get();
}

export async function logout({ fetcher = fetch as Fetch } = {}): Promise<void> {
  try {
    await fetcher('/api/auth/logout', { method: 'POST', credentials: 'same-origin' });
  } finally {
    setUser(null);
  }
}

/**
 * Brings the user in line with the cookies: no hint cookie means nobody is signed in (a
 * sign-out, an account deletion, an expired session); a hint with no known user asks `me`.
 */
export async function syncSession({
  force = false,
  fetcher = fetch as Fetch,
  cookie,
}: { force?: boolean; fetcher?: Fetch; cookie?: string } = {}): Promise<SessionUser | null> {
  if (!hasSessionHint(cookie)) {
    if ($user.get()) setUser(null);
    return null;
  }
  return fetchMe({ force, fetcher, ...(cookie === undefined ? {} : { cookie }) });
}

type Listen = (type: string, listener: (event: Event) => void) => void;
let watching = false;

/**
 * Keeps the user true for the whole visit, whatever swapped the page in. Forms now sign in and
 * out through the ClientRouter (a POST, a 303, the answer swapped in: no reload), so after every
 * swap the hint cookie is read again, and after a form submission `me` is asked again (the
 * user may have changed, e.g. a sign-in as someone else). A page restored from the
 * back/forward cache is checked too. Registered once, on the document and the window.
 */
export function watchSession({
  onDocument = (type, listener) => document.addEventListener(type, listener),
  onWindow = (type, listener) => window.addEventListener(type, listener),
  onSignedOut,
}: { onDocument?: Listen; onWindow?: Listen; onSignedOut?: () => void } = {}): void {
  if (watching) return;
  watching = true;
  let submitted = false;
  onDocument('astro:before-preparation', (event) => {
    submitted = Boolean((event as Event & { formData?: FormData }).formData);
  });
  onDocument('astro:after-swap', () => {
    const force = submitted;
    submitted = false;
    const before = $user.get();
    void syncSession({ force }).then((after) => {
      if (force && before && !after) onSignedOut?.();
    });
  });
  onWindow('pageshow', (event) => {
    if ((event as PageTransitionEvent).persisted) void syncSession({ force: true });
  });
}

/** For tests: forget that the listeners are registered. */
export function resetSessionWatch(): void {
  watching = false;
}
