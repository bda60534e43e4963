/** The auth domain's rate-limit rules (the mechanism is `rate-limit/`). */
import { MINUTE, type RateLimitRule } from '../rate-limit/rate-limit';

export const AUTH_LIMITS = {
  /**
   * Password attempts from one client on one account: what throttles a stranger who hammers an
   * address, without touching its owner elsewhere.
   */
  loginByClientAndEmail: { name: 'login:pair', limit: 10, windowMs: 15 * MINUTE },
  /** Password attempts from one client, whatever the account: against spraying many accounts. */
  loginByClient: { name: 'login:client', limit: 30, windowMs: 15 * MINUTE },
  /**
   * Password attempts on one account from browsers it does not know, that got past the two
   * limits above (many clients at once). Past it, attempts are slowed
   * (`ACCOUNT_UNDER_ATTACK_DELAY_MS`), never refused: the owner still gets in.
   */
  loginByEmail: { name: 'login:email', limit: 100, windowMs: 15 * MINUTE },
  /**
   * Password attempts from one of the account's known devices (a browser that signed in with the
   * password before, `known-devices.ts`): their own count, instead of the three above.
   */
  loginByKnownDevice: { name: 'login:device', limit: 10, windowMs: 15 * MINUTE },
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

/** How long an attempt waits, once an account is past `loginByEmail`, before its password is checked. */
export const ACCOUNT_UNDER_ATTACK_DELAY_MS = 2_000;
