/** The newsletter's rate-limit rules (the mechanism is `rate-limit/`). */
import { MINUTE, type RateLimitRule } from '../rate-limit/rate-limit';

export const NEWSLETTER_LIMITS = {
  /** Confirmations sent to one address: a bucket of its own, so that sign-ups by a stranger
   * never block the owner's account recovery (auth's buckets are separate). */
  byEmail: { name: 'newsletter:email', limit: 5, windowMs: 60 * MINUTE },
  /** Sign-up requests from one client. */
  byClient: { name: 'newsletter:client', limit: 20, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;
