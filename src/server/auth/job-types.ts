/** The auth domain's kinds of deferred work (handlers in jobs.ts). */
import { z } from 'zod';
import { jobType } from '../jobs/schedule';

/** Mail a sign-in or reset link to an address, if it has an account. */
export const MAIL_LINK = jobType({
  kind: 'auth.mail-link',
  schema: z.object({ purpose: z.enum(['magic_link', 'password_reset']), email: z.string().min(1).max(254) }),
  timeoutMs: 60_000,
  maxAttempts: 5,
});

/** Mail the confirmation of a new address, and tell the old one. */
export const EMAIL_CHANGE_LINK = jobType({
  kind: 'auth.email-change-link',
  schema: z.object({ userId: z.string().min(1), newEmail: z.email() }),
  timeoutMs: 60_000,
  maxAttempts: 5,
});

/**
 * Mail the confirmation of a new account's address. `origin` is the rate-limit key of the
 * network it was created from (a keyed hash, no address): the confirmation lightens that
 * network's count (sign-up-guard.ts).
 */
export const SIGN_UP_CONFIRM = jobType({
  kind: 'auth.sign-up-confirm',
  schema: z.object({ userId: z.string().min(1), origin: z.string().min(1).max(128) }),
  timeoutMs: 60_000,
  maxAttempts: 5,
});
