/**
 * The newsroom's two lists, for editors (and administrators; the pages check it with
 * `requireEditor`): the newsletters' confirmed subscribers as a CSV (with the newsletters each
 * receives), and the messages received through the contact form, newest first, page by page.
 *
 * Both are personal data: the CSV is never cached, the pages are rendered on demand for a
 * signed-in editor only, and nothing here is logged.
 */
import { formatInTimeZone } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { CONTACT_SUBJECTS, type ContactFormSubject } from '../../config/contact';
import { NEWSLETTERS } from '../../config/newsletters';
import { TIME_ZONE } from '../../lib/dates';
import { type ReceivedMessage, receivedMessages } from '../contact/service';
import type { Database } from '../db/database';
import { csvDocument, csvText } from '../http/csv';
import { confirmedSubscribers } from '../newsletter/service';

export const SUBSCRIBERS_HEADER = ['Adresse e-mail', 'Inscription confirmée le', 'Lettres reçues'];

/** The newsletters an address receives, by name, in the configuration's order (an id no longer configured as itself). */
const newsletterNames = (ids: readonly string[]) =>
  [...NEWSLETTERS.filter((n) => ids.includes(n.id)).map((n) => n.name), ...ids.filter((id) => !NEWSLETTERS.some((n) => n.id === id))].join(', ');

/** A date and time as a spreadsheet reads it, in Paris time: « 2026-11-26 11:05 ». */
const spreadsheetTime = (date: Date) => formatInTimeZone(date, TIME_ZONE, 'yyyy-MM-dd HH:mm');

/** The confirmed subscribers as a CSV (BOM, `;`, CRLF), oldest first, with their newsletters' names, and the file's name. */
export async function subscribersCsv(db: Kysely<Database>, now: Date): Promise<{ csv: string; filename: string; count: number }> {
  const subscribers = await confirmedSubscribers(db);
  const rows = subscribers.map((s) => [csvText(s.email), csvText(spreadsheetTime(s.confirmedAt)), csvText(newsletterNames(s.newsletters))]);
  return {
    csv: csvDocument(SUBSCRIBERS_HEADER, rows),
    filename: `contrechamp-abonnes-lettre-${formatInTimeZone(now, TIME_ZONE, 'yyyy-MM-dd')}.csv`,
    count: subscribers.length,
  };
}

/** Messages shown per page. */
export const MESSAGES_PER_PAGE = 20;

export interface MessagesQuery {
  page: number;
  /** One subject only, or every one. */
  subject: ContactFormSubject | undefined;
}

/**
 * The query string of the messages page, read strictly: `page` a whole number from 1, `sujet` a
 * subject of the form. Anything else is not a page of the list (the page answers 404).
 */
export function readMessagesQuery(params: URLSearchParams): MessagesQuery | null {
  for (const name of params.keys()) if (name !== 'page' && name !== 'sujet') return null;
  const rawPage = params.get('page');
  if (rawPage !== null && !/^[1-9]\d{0,5}$/.test(rawPage)) return null;
  const rawSubject = params.get('sujet');
  if (rawSubject !== null && !Object.hasOwn(CONTACT_SUBJECTS, rawSubject)) return null;
  return { page: rawPage === null ? 1 : Number(rawPage), subject: (rawSubject ?? undefined) as ContactFormSubject | undefined };
}

/** The address of a page of the list (page 1 has no `page`). */
export function messagesUrl(query: MessagesQuery): string {
  const params = new URLSearchParams();
  if (query.subject) params.set('sujet', query.subject);
  if (query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return `/redaction/messages${search ? `?${search}` : ''}`;
}

export interface MessagesPage {
  messages: (ReceivedMessage & { subjectLabel: string })[];
  page: number;
  pages: number;
  total: number;
}

/**
 * One page of the messages, newest first; null when the page is past the last one (page 1 of
 * an empty list exists: it says there is nothing).
 */
export async function messagesPage(db: Kysely<Database>, query: MessagesQuery): Promise<MessagesPage | null> {
  const { total, messages } = await receivedMessages(db, { subject: query.subject, offset: (query.page - 1) * MESSAGES_PER_PAGE, limit: MESSAGES_PER_PAGE });
  const pages = Math.max(1, Math.ceil(total / MESSAGES_PER_PAGE));
  if (query.page > pages) return null;
  return {
    messages: messages.map((m) => ({ ...m, subjectLabel: CONTACT_SUBJECTS[m.subject as ContactFormSubject] ?? m.subject })),
    page: query.page,
    pages,
    total,
  };
}
