/**
 * Known devices: a browser that signed in to an account with its password gets a mark (the
 * cookie `cc_device`), so that its next password sign-ins to that account are counted apart
 * from strangers' attempts (`AUTH_LIMITS.loginByKnownDevice` instead of the client, pair and
 * account limits). A stranger who hammers an address can then slow others' attempts on it, and
 * refuse his own, but never shut its owner out of a browser the owner already used.
 *
 * A mark is `d1.<device id>.<issued at>.<mac>`: a random id (128 bits), the time it was issued
 * (seconds, base 36) and an HMAC under the `known-device` key over both, the account's id and its
 * current password hash. It holds nothing about the account; it is worth something for that
 * account only, for a year, and until its password changes (a reset or a change makes every mark
 * of the account worthless). The cookie keeps the marks of the last few accounts signed in on
 * that browser. It grants nothing else: no session, no access.
 */
import { randomBytes } from 'node:crypto';
import { sign, verify } from '../core/keys';

export const DEVICE_COOKIE = 'cc_device';
/** How long a mark is honoured, and the cookie kept. */
export const DEVICE_TTL_MS = 365 * 24 * 3600_000;
/** Marks kept in one cookie (accounts signed in on one browser). */
const MAX_MARKS = 3;
const MARK = /^d1\.([A-Za-z0-9_-]{22})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

const message = (deviceId: string, issued: string, userId: string, passwordHash: string) => `known-device:${deviceId}.${issued}.${userId}.${passwordHash}`;

/** The marks a cookie holds, at most `MAX_MARKS`, malformed ones dropped. */
function marksIn(cookie: string | undefined): string[] {
  if (!cookie) return [];
  return cookie
    .split('~')
    .filter((mark) => MARK.test(mark))
    .slice(0, MAX_MARKS);
}

/**
 * The device id of the cookie's mark for this account, if one is still good: signed for this
 * account and this password hash, and less than a year old. Null otherwise.
 */
export function knownDeviceOf(cookie: string | undefined, account: { userId: string; passwordHash: string }, now: Date): string | null {
  for (const mark of marksIn(cookie)) {
    const [, deviceId = '', issued = '', mac = ''] = MARK.exec(mark) ?? [];
    const issuedAt = Number.parseInt(issued, 36) * 1000;
    if (!(issuedAt <= now.getTime() + 60_000 && now.getTime() - issuedAt < DEVICE_TTL_MS)) continue;
    if (verify('known-device', message(deviceId, issued, account.userId, account.passwordHash), mac)) return deviceId;
  }
  return null;
}

/**
 * The cookie's new value after a password sign-in: a fresh mark for this account first (keeping
 * its device id if the browser had one for it), then the marks of other accounts the browser
 * holds, up to `MAX_MARKS`.
 */
export function markDevice(cookie: string | undefined, account: { userId: string; passwordHash: string }, now: Date): { value: string; expiresAt: Date } {
  const deviceId = knownDeviceOf(cookie, account, now) ?? randomBytes(16).toString('base64url');
  const issued = Math.floor(now.getTime() / 1000).toString(36);
  const mark = `d1.${deviceId}.${issued}.${sign('known-device', message(deviceId, issued, account.userId, account.passwordHash))}`;
  const others = marksIn(cookie).filter((m) => !m.startsWith(`d1.${deviceId}.`));
  return { value: [mark, ...others].slice(0, MAX_MARKS).join('~'), expiresAt: new Date(now.getTime() + DEVICE_TTL_MS) };
}
