/**
 * Sending a mail as a job: for notices that carry no secret (password changed, address
 * changed, account deleted). Mails that carry a link with a token are prepared by their own
 * domain's job, which creates the token when it runs, so that no live secret sits in `jobs`.
 */
import { z } from 'zod';
import { handle, jobType } from '../jobs/schedule';
import type { Mailer } from './transport';

export const SEND_MAIL = jobType({
  kind: 'mail.send',
  schema: z.object({
    to: z.email(),
    mail: z.object({
      template: z.string().min(1),
      subject: z.string().min(1),
      text: z.string(),
      html: z.string(),
      headers: z.record(z.string(), z.string()).optional(),
      replyTo: z.string().optional(),
    }),
  }),
  timeoutMs: 60_000,
  maxAttempts: 8,
});

export const mailJobs = (mailer: Mailer) => [
  handle(SEND_MAIL, async ({ payload }) => {
    await mailer.send({ to: payload.to, ...payload.mail });
  }),
];
