/** The auth domain's rate-limit rules (the mechanism is `rate-limit/`). */
import { MINUTE, type RateLimitRule } from '../rate-limit/rate-limit';

export const AUTH_LIMITS = {
  /** Password attempts on one account. */
  loginByEmail: { name: 'login:email', limit: 10, windowMs: 15 * MINUTE },
  /** Password attempts from one client, whatever the account. */
  loginByClient: { name: 'login:client', limit: 30, windowMs: 15 * MINUTE },
  /** Account mails sent to one address, one bucket per purpose: a stranger who spends the
   * sign-in links of an address does not block its password reset, nor the reverse. */
  signInLinkByEmail: { name: 'mail:email:magic_link', limit: 5, windowMs: 60 * MINUTE },
  resetByEmail: { name: 'mail:email:password_reset', limit: 5, windowMs: 60 * MINUTE },
  emailChangeByEmail: { name: 'mail:email:email_change', limit: 5, windowMs: 60 * MINUTE },
  /** Account mail requests from one client. */
  mailByClient: { name: 'mail:client', limit: 20, windowMs: 60 * MINUTE },
  /** Checks of the current password by a signed-in user (change, e-mail change, deletion). */
  passwordCheckByAccount: { name: 'password-check:account', limit: 10, windowMs: 15 * MINUTE },
  /** Token redemptions from one client (guessing is hopeless at 256 bits; this keeps it so). */
  tokenByClient: { name: 'token:client', limit: 30, windowMs: 15 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;
