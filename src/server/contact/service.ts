/**
 * The contact form: each message is stored, then mailed to the address of its subject
 * (src/config/contact.ts; the newsroom's is NEWSROOM_EMAIL), reply-to the sender.
 * Rate-limited per client; a filled honeypot field is accepted silently and dropped.
 */
import { z } from 'zod';
import type { ServerDeps } from '../core/deps';
import type { Result } from '../core/result';
import { limit } from '../rate-limit/rate-limit';
import { CONTACT_LIMITS } from './rate-limits';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { config } from '../core/config';
import { newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { log } from '../core/log';
import { contactNewsroomMail } from './mails';

import { CONTACT_ROUTES, CONTACT_SUBJECTS, type ContactFormSubject } from '../../config/contact';
import { CONTACTS } from '../../config/publisher';

export const contactInput = z.object({
  name: z.string().trim().min(2, 'Indiquez votre nom.').max(120, 'Nom trop long.'),
  email: z.string().trim().max(254).pipe(z.email('Adresse e-mail invalide.')),
  subject: z.enum(Object.keys(CONTACT_SUBJECTS) as [keyof typeof CONTACT_SUBJECTS], { error: 'Choisissez un sujet.' }),
  message: z
    .string()
    .trim()
    .min(10, 'Votre message est trop court (10 caractères au moins).')
    .max(5000, 'Votre message est trop long (5 000 caractères au plus).'),
  /** Honeypot: hidden from people, filled by robots. */
  website: z.string().max(500).default(''),
});

export async function sendContactMessage(deps: ServerDeps, input: z.infer<typeof contactInput> & { client: string }): Promise<Result<object>> {
  const now = deps.clock.now();
  const limited = await limit(deps, [[CONTACT_LIMITS.byClient, input.client]], 'Vous avez envoyé plusieurs messages à la suite.');
  if (limited) return limited;
  if (input.website) {
    log.warn('contact honeypot filled');
    return { ok: true };
  }
  // Stored and scheduled for the newsroom together: an accepted message is never lost, even if
  // the relay is down or the process stops right after the answer.
  await writeTransaction(deps.db, async (trx) => {
    const id = newId();
    await trx
      .insertInto('contact_messages')
      .values({
        id,
        name: input.name,
        email: input.email.toLowerCase(),
        subject: input.subject,
        message: input.message,
        created_at: toTimestamp(now),
        client_hash: input.client,
      })
      .execute();
    await schedule(deps, trx, FORWARD_TO_NEWSROOM, { messageId: id });
  });
  deps.jobs.wake();
  return { ok: true };
}

/** Where a message of this subject goes: the newsroom's configured address, or the subject's own. */
export function contactRecipient(subject: string): string {
  const route = CONTACT_ROUTES[subject as ContactFormSubject] ?? 'general';
  return route === 'redaction' ? config().mail.newsroom : CONTACTS[route].email;
}

/** Mail a stored message to the address of its subject, Reply-To its sender. */
export const FORWARD_TO_NEWSROOM = jobType({ kind: 'contact.forward', schema: z.object({ messageId: z.string().min(1) }), maxAttempts: 8 });

export const contactJobs = (deps: ServerDeps) => [
  handle(FORWARD_TO_NEWSROOM, async ({ payload }) => {
    const row = await deps.db.selectFrom('contact_messages').selectAll().where('id', '=', payload.messageId).executeTakeFirst();
    if (!row) return;
    const subject = CONTACT_SUBJECTS[row.subject as keyof typeof CONTACT_SUBJECTS] ?? row.subject;
    await deps.mailer.send({
      to: contactRecipient(row.subject),
      ...contactNewsroomMail({ name: row.name, email: row.email, subject, message: row.message, siteUrl: deps.siteUrl }),
    });
  }),
];

/**
 * On deletion of an account, the messages its address sent go too: the privacy page promises
 * that deleting an account erases everything the law does not make us keep.
 */
export async function eraseMessages(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom('contact_messages').where('email', '=', email.trim().toLowerCase()).execute();
}

/** The messages an address sent, for the export of a user's data. */
export function exportMessages(db: Kysely<Database>, email: string) {
  return db
    .selectFrom('contact_messages')
    .select(['created_at', 'subject', 'message'])
    .where('email', '=', email.trim().toLowerCase())
    .orderBy('created_at')
    .execute();
}

// ——— For the newsroom (editorial/newsroom.ts): the messages received ———

export interface ReceivedMessage {
  id: string;
  name: string;
  email: string;
  /** The subject's key (`CONTACT_SUBJECTS`). */
  subject: string;
  message: string;
  receivedAt: Date;
}

/** Messages received, newest first, optionally of one subject: one page of them, and how many there are. */
export async function receivedMessages(
  db: Kysely<Database>,
  query: { subject?: string | undefined; offset: number; limit: number },
): Promise<{ total: number; messages: ReceivedMessage[] }> {
  let base = db.selectFrom('contact_messages');
  if (query.subject) base = base.where('subject', '=', query.subject);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(['id', 'name', 'email', 'subject', 'message', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(query.offset)
      .limit(query.limit)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    messages: rows.map((r) => ({ id: r.id, name: r.name, email: r.email, subject: r.subject, message: r.message, receivedAt: new Date(r.created_at) })),
  };
}
