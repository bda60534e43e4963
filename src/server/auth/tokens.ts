/**
 * Secrets for sessions and single-use tokens (magic link, password reset, e-mail change,
 * newsletter confirmation, confirmation of a new account's address).
 *
 * A secret is 32 random bytes (256 bits) written in base64url: 43 characters, safe in a URL
 * and in a cookie. Only its SHA-256 (`hashSecret`) is stored, so a copy of the database does
 * not let anyone sign in. A fast hash is right here: the secret is random, not a password, and
 * cannot be guessed by brute force.
 */
import { createHash, randomBytes } from 'node:crypto';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const SECRET_BYTES = 32;

/** Lifetime of each kind of single-use token, in milliseconds. */
export const TOKEN_TTL = Object.freeze({
  magic_link: 15 * MINUTE,
  password_reset: 60 * MINUTE,
  email_change: 24 * HOUR,
  newsletter_confirm: 7 * DAY,
  /** Confirms the address of an account created at an account step (`confirmSignUp`). */
  signup_confirm: 7 * DAY,
});
export type TokenPurpose = keyof typeof TOKEN_TTL;

/** Lifetime of a session, in milliseconds: "Se souvenir de moi" gives the persistent one. */
export const SESSION_TTL = Object.freeze({
  persistent: 30 * DAY,
  browser: 12 * HOUR,
});
export type SessionKind = keyof typeof SESSION_TTL;

/** A fresh 256-bit secret, base64url without padding (43 characters). */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** What the database stores for a secret: its SHA-256, in lowercase hex (64 characters). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Could this be a secret from `newSecret`? Exactly 43 base64url characters in canonical form
 * (the last one carries 4 data bits and 2 zero bits). Check before any database lookup.
 */
export function isWellFormedSecret(s: unknown): s is string {
  return typeof s === 'string' && /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/.test(s);
}

/** When a token of this purpose, created at `now`, stops being valid. */
export function tokenExpiresAt(purpose: TokenPurpose, now: Date): Date {
  return new Date(now.getTime() + TOKEN_TTL[purpose]);
}

/** When a session of this kind, created at `now`, stops being valid. */
export function sessionExpiresAt(kind: SessionKind, now: Date): Date {
  return new Date(now.getTime() + SESSION_TTL[kind]);
}
