/**
 * The contact form: each message is stored, then mailed to the newsroom (reply-to the
 * sender). Rate-limited per client; a filled honeypot field is accepted silently and dropped.
 */
import { z } from 'zod';
import type { AuthDeps, AuthResult } from '../auth/service';
import { RATE_LIMITS, hit, retryLater } from '../rate-limit/rate-limit';
import { config } from '../core/config';
import { newId, toTimestamp } from '../db/database';
import { afterAnswer } from '../core/after-answer';
import { log } from '../core/log';
import { contactNewsroomMail } from '../mail/templates';

import { CONTACT_SUBJECTS } from '../../config/contact';

export const contactInput = z.object({
  name: z.string().trim().min(2, 'Indiquez votre nom.').max(120, 'Nom trop long.'),
  email: z.string().trim().max(254).pipe(z.email('Adresse e-mail invalide.')),
  subject: z.enum(Object.keys(CONTACT_SUBJECTS) as [keyof typeof CONTACT_SUBJECTS], { error: 'Choisissez un sujet.' }),
  message: z.string().trim().min(10, 'Votre message est trop court (10 caractères au moins).').max(5000, 'Votre message est trop long (5 000 caractères au plus).'),
  /** Honeypot: hidden from people, filled by robots. */
  website: z.string().max(500).default(''),
});

export async function sendContactMessage(deps: AuthDeps, input: z.infer<typeof contactInput> & { client: string }): Promise<AuthResult<object>> {
  const now = deps.clock.now();
  const limited = await hit(deps.db, RATE_LIMITS.contactByClient, input.client, now);
  if (!limited.allowed) {
    return { ok: false, status: 429, message: retryLater('Vous avez envoyé plusieurs messages à la suite.', limited.retryAfterSeconds), retryAfterSeconds: limited.retryAfterSeconds };
  }
  if (input.website) {
    log.warn('contact honeypot filled');
    return { ok: true };
  }
  await deps.db.insertInto('contact_messages').values({
    id: newId(), name: input.name, email: input.email.toLowerCase(), subject: input.subject, message: input.message,
    created_at: toTimestamp(now), client_hash: input.client,
  }).execute();
  const mail = contactNewsroomMail({ name: input.name, email: input.email, subject: CONTACT_SUBJECTS[input.subject], message: input.message, siteUrl: deps.siteUrl });
  afterAnswer('contact-newsroom', async () => {
    await deps.mailer.send({ to: config().mail.newsroom, ...mail });
  });
  return { ok: true };
}
