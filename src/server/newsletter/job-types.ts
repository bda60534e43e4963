/** The newsletter's kinds of deferred work (handlers in jobs.ts). */
import { z } from 'zod';
import { jobType } from '../jobs/schedule';

/** Record a sign-up and mail its confirmation link. */
export const CONFIRMATION_MAIL = jobType({
  kind: 'newsletter.confirmation-mail',
  // `newsletters` absent in jobs queued before there were several: the default one.
  schema: z.object({ email: z.string().min(1).max(254), newsletters: z.array(z.string().min(1).max(40)).max(20).optional() }),
  maxAttempts: 5,
});

/** Welcome a confirmed subscriber. */
export const WELCOME_MAIL = jobType({ kind: 'newsletter.welcome-mail', schema: z.object({ subscriberId: z.string().min(1) }), maxAttempts: 5 });

/** Start the send of an issue at its due time: fix its recipients and queue its batches. `version` names the schedule it was queued by. */
export const SEND_ISSUE = jobType({
  kind: 'newsletter.send-issue',
  schema: z.object({ issueId: z.string().min(1), version: z.number().int().min(1) }),
  maxAttempts: 8,
  timeoutMs: 10 * 60_000,
});

/** Deliver one batch of an issue's recipients (no address in the payload: the rows say who). */
export const DELIVER_BATCH = jobType({
  kind: 'newsletter.deliver-batch',
  schema: z.object({ issueId: z.string().min(1), batch: z.number().int().min(0) }),
  // A relay down for a day must not end a lane: with the queue's backoff (capped at an hour), about a day of tries.
  maxAttempts: 30,
  timeoutMs: 5 * 60_000,
});

/** Erase the sign-ups never confirmed (privacy page: 30 days) and the deliveries of issues sent 13 months ago; each run queues the next day's. */
export const PURGE_UNCONFIRMED = jobType({
  kind: 'newsletter.purge-unconfirmed',
  schema: z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  maxAttempts: 5,
});
