/** The newsletter's kinds of deferred work (handlers in jobs.ts). */
import { z } from 'zod';
import { jobType } from '../jobs/schedule';

/** Record a sign-up and mail its confirmation link. */
export const CONFIRMATION_MAIL = jobType({ kind: 'newsletter.confirmation-mail', schema: z.object({ email: z.string().min(1).max(254) }), maxAttempts: 5 });

/** Welcome a confirmed subscriber. */
export const WELCOME_MAIL = jobType({ kind: 'newsletter.welcome-mail', schema: z.object({ subscriberId: z.string().min(1) }), maxAttempts: 5 });
