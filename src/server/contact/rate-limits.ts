/** The contact form's rate-limit rule (the mechanism is `rate-limit/`). */
import { MINUTE, type RateLimitRule } from '../rate-limit/rate-limit';

export const CONTACT_LIMITS = {
  /** Messages from one client. */
  byClient: { name: 'contact:client', limit: 5, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;
