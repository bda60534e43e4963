/**
 * The newsroom's issues: composed as drafts, previewed, tested, scheduled (Paris time) or sent
 * now, cancelled while they wait. Once its send starts, an issue is the record of what was sent:
 * nothing changes it (a database trigger holds that once `sent`).
 *
 * Per issue the newsroom sees counts only — queued, sent, refused, bounced, complained, and the
 * unsubscriptions from that newsletter after it — never who opened or clicked: nothing is tracked.
 */
import { fromZonedTime } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { NEWSLETTERS, findNewsletter } from '../../config/newsletters';
import { TIME_ZONE } from '../../lib/dates';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { type Database, fromFlag, newId, toFlag, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { siteLink } from '../mail/layout';
import { countRecipients, SEGMENTS } from './audience';
import { scheduleSendJob } from './delivery';
import { type IssueMailTemplate, personaliseIssueMail, renderIssueMail } from './issue-mail';
import { preferencesUrl, unsubscribeUrl } from './mails';
import { storiesByUrl, type StoryCard } from './stories';
import type { DeliveryStatus, IssueStatus, Segment } from './tables';

export const SUBJECT_MAX = 150;
export const PREHEADER_MAX = 200;
export const INTRO_MAX = 20_000;
export const STORIES_MAX = 12;

export const SEGMENT_LABELS: Record<Segment, string> = {
  all: 'Tous les inscrits à cette lettre',
  supporters: 'Les soutiens seulement (abonnés, donateurs mensuels, sociétaires)',
  non_supporters: 'Les non-soutiens seulement',
  shareholders: 'Les sociétaires seulement',
};

export const STATUS_LABELS: Record<IssueStatus, string> = {
  draft: 'Brouillon',
  scheduled: 'Programmé',
  sending: 'En cours d’envoi',
  sent: 'Envoyé',
  cancelled: 'Annulé',
};

/** What the compose form sends; every message is the reader's (the editor's) French. */
export const issueInput = z.object({
  newsletter: z.string().refine((id) => findNewsletter(id) !== undefined, 'Choisissez une lettre d’information.'),
  subject: z.string().trim().min(1, 'Donnez un objet au numéro.').max(SUBJECT_MAX, `L’objet ne doit pas dépasser ${SUBJECT_MAX} caractères.`),
  preheader: z.string().trim().max(PREHEADER_MAX, `Le texte d’aperçu ne doit pas dépasser ${PREHEADER_MAX} caractères.`),
  intro: z.string().max(INTRO_MAX, `L’introduction ne doit pas dépasser ${INTRO_MAX.toLocaleString('fr-FR')} caractères.`),
  // A site path, and an anchor for a brève (`/breves#breve-…`: brèves have no page of their own).
  stories: z
    .array(z.string().regex(/^\/[a-z0-9/_-]{0,300}(#[a-z0-9_-]{1,200})?$/, 'Article inconnu.'))
    .max(STORIES_MAX, `Un numéro compte au plus ${STORIES_MAX} articles.`),
  supportBlock: z.boolean(),
  segment: z.enum(SEGMENTS as [Segment, ...Segment[]], { message: 'Choisissez à qui envoyer ce numéro.' }),
});
export type IssueInput = z.output<typeof issueInput>;

export interface Issue {
  id: string;
  newsletter: string;
  number: number | null;
  status: IssueStatus;
  subject: string;
  preheader: string;
  intro: string;
  stories: string[];
  supportBlock: boolean;
  segment: Segment;
  scheduledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  queuedAt: Date | null;
  sentAt: Date | null;
  recipients: number | null;
  /** Editable: a draft, or a scheduled issue (its send renders it as it is then). */
  editable: boolean;
}

type IssueRow = Awaited<ReturnType<typeof issueRow>>;
function issueRow(db: Kysely<Database>, id: string) {
  return db.selectFrom('newsletter_issues').selectAll().where('id', '=', id).executeTakeFirst();
}

function toIssue(r: NonNullable<IssueRow>): Issue {
  return {
    id: r.id,
    newsletter: r.newsletter,
    number: r.number === null ? null : Number(r.number),
    status: r.status,
    subject: r.subject,
    preheader: r.preheader,
    intro: r.intro,
    stories: JSON.parse(r.stories) as string[],
    supportBlock: fromFlag(r.support_block),
    segment: r.segment,
    scheduledAt: r.scheduled_at ? new Date(r.scheduled_at) : null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    queuedAt: r.queued_at ? new Date(r.queued_at) : null,
    sentAt: r.sent_at ? new Date(r.sent_at) : null,
    recipients: r.recipients === null ? null : Number(r.recipients),
    editable: r.status === 'draft' || r.status === 'scheduled',
  };
}

export async function getIssue(db: Kysely<Database>, id: string): Promise<Issue | undefined> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
  const row = await issueRow(db, id);
  return row ? toIssue(row) : undefined;
}

/** Stories named that the corpus no longer has are refused: the editor sees which. */
function checkStories(urls: readonly string[]): Result<object> {
  const missing = storiesByUrl(urls).findIndex((s) => s === undefined);
  if (missing >= 0) return fail(400, `L’article ${urls[missing]} n’existe pas (ou plus) sur le site.`);
  if (new Set(urls).size !== urls.length) return fail(400, 'Un article figure deux fois dans le numéro.');
  return { ok: true };
}

export async function createIssue(deps: Pick<ServerDeps, 'db' | 'clock'>, input: { userId: string; issue: IssueInput }): Promise<Result<{ id: string }>> {
  const checked = checkStories(input.issue.stories);
  if (!checked.ok) return checked;
  const now = toTimestamp(deps.clock.now());
  const id = newId();
  const i = input.issue;
  await deps.db
    .insertInto('newsletter_issues')
    .values({
      id,
      newsletter: i.newsletter,
      number: null,
      status: 'draft',
      subject: i.subject,
      preheader: i.preheader,
      intro: i.intro,
      stories: JSON.stringify(i.stories),
      support_block: toFlag(i.supportBlock),
      segment: i.segment,
      scheduled_at: null,
      created_by: input.userId,
      created_at: now,
      updated_at: now,
      queued_at: null,
      sent_at: null,
      recipients: null,
      mail_html: null,
      mail_text: null,
      mail_stories: null,
    })
    .execute();
  return { ok: true, id };
}

const NOT_EDITABLE = 'Ce numéro est parti ou part en ce moment : il ne peut plus être modifié.';

/** Saves a draft or a scheduled issue (the newsletter does not change once created). */
export async function updateIssue(deps: Pick<ServerDeps, 'db' | 'clock'>, input: { id: string; issue: IssueInput }): Promise<Result<object>> {
  const checked = checkStories(input.issue.stories);
  if (!checked.ok) return checked;
  const i = input.issue;
  const updated = await deps.db
    .updateTable('newsletter_issues')
    .set({
      subject: i.subject,
      preheader: i.preheader,
      intro: i.intro,
      stories: JSON.stringify(i.stories),
      support_block: toFlag(i.supportBlock),
      segment: i.segment,
      updated_at: toTimestamp(deps.clock.now()),
    })
    .where('id', '=', input.id)
    .where('newsletter', '=', i.newsletter)
    .where('status', 'in', ['draft', 'scheduled'])
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return { ok: true };
  return (await getIssue(deps.db, input.id)) ? fail(409, NOT_EDITABLE) : fail(404, 'Ce numéro n’existe pas.');
}

/** Deletes a draft (never an issue that was scheduled and sent: the trigger refuses those). */
export async function deleteDraft(deps: Pick<ServerDeps, 'db'>, id: string): Promise<Result<object>> {
  const deleted = await deps.db.deleteFrom('newsletter_issues').where('id', '=', id).where('status', 'in', ['draft', 'cancelled']).executeTakeFirst();
  return Number(deleted.numDeletedRows) === 1 ? { ok: true } : fail(409, 'Seul un brouillon peut être supprimé.');
}

/** The mail as a recipient would get it now, with sample links, and how many it would go to now. */
export async function previewIssue(
  deps: Pick<ServerDeps, 'db' | 'clock' | 'siteUrl'>,
  id: string,
): Promise<{ mail: ReturnType<typeof personaliseIssueMail>; recipients: number; stories: StoryCard[] } | undefined> {
  const issue = await getIssue(deps.db, id);
  if (!issue) return undefined;
  const template = await templateOf(deps, issue);
  const sample = 'apercu';
  return {
    mail: personaliseIssueMail(template, {
      preferences: preferencesUrl(deps.siteUrl, sample),
      unsubscribe: unsubscribeUrl(deps.siteUrl, sample, issue.newsletter),
    }),
    recipients: issue.recipients ?? (await countRecipients(deps.db, { newsletter: issue.newsletter, segment: issue.segment, now: deps.clock.now() })),
    stories: storiesByUrl(issue.stories).filter((s) => s !== undefined),
  };
}

/** The issue's mail: as sent (the record) once sent, else as it would be sent now (number to come). */
async function templateOf(deps: Pick<ServerDeps, 'db' | 'clock' | 'siteUrl'>, issue: Issue): Promise<IssueMailTemplate> {
  if (!issue.editable && issue.status !== 'cancelled') {
    const row = await issueRow(deps.db, issue.id);
    if (row?.mail_html && row.mail_text) return { subject: row.subject, html: row.mail_html, text: row.mail_text };
  }
  const newsletter = findNewsletter(issue.newsletter)!;
  const last = await deps.db
    .selectFrom('newsletter_issues')
    .select((eb) => eb.fn.max<number>('number').as('n'))
    .where('newsletter', '=', issue.newsletter)
    .executeTakeFirst();
  const number = Number(last?.n ?? 0) + 1;
  return renderIssueMail({
    siteUrl: deps.siteUrl,
    newsletter,
    number,
    date: issue.scheduledAt ?? deps.clock.now(),
    subject: issue.subject,
    preheader: issue.preheader,
    intro: issue.intro,
    stories: storiesByUrl(issue.stories).filter((s) => s !== undefined),
    supportBlock: issue.supportBlock,
    webUrl: siteLink(deps.siteUrl, `/lettres/${newsletter.id}/${number}`),
  });
}

/** A test to one address (the editor's own by default), marked as such; nothing is recorded as sent. */
export async function sendTest(deps: ServerDeps, input: { id: string; to: string }): Promise<Result<object>> {
  const to = z.email().safeParse(input.to.trim());
  if (!to.success) return fail(400, 'L’adresse du test n’est pas une adresse e-mail valide.');
  const issue = await getIssue(deps.db, input.id);
  if (!issue) return fail(404, 'Ce numéro n’existe pas.');
  const template = await templateOf(deps, issue);
  const sample = 'test';
  const mail = personaliseIssueMail(template, {
    preferences: preferencesUrl(deps.siteUrl, sample),
    unsubscribe: unsubscribeUrl(deps.siteUrl, sample, issue.newsletter),
  });
  await deps.mailer.send({ to: to.data.toLowerCase(), ...mail, subject: `[TEST] ${mail.subject}`, template: 'newsletter-test' });
  return { ok: true };
}

/** Earliest a schedule may be: a minute of grace for the time the editor took to click. */
const GRACE_MS = 60_000;

/**
 * Reads « 2026-11-28 » and « 07:00 » in Paris time. Null when not a real date and time (a day
 * that does not exist, an hour skipped by the change to summer time is moved by date-fns-tz).
 */
export function parisTime(date: string, time: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const at = fromZonedTime(`${date}T${time}:00`, TIME_ZONE);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Schedules the issue at `at` (or now): its send job is queued for then; the issue can still be edited or cancelled until it starts. */
export async function scheduleIssue(deps: ServerDeps, input: { id: string; at: Date | 'now' }): Promise<Result<{ at: Date; recipients: number }>> {
  const now = deps.clock.now();
  const at = input.at === 'now' ? now : input.at;
  if (at.getTime() < now.getTime() - GRACE_MS) return fail(400, 'Cette date est passée : choisissez une date et une heure à venir.');
  if (at.getTime() > now.getTime() + 366 * 24 * 3600_000) return fail(400, 'Programmez un envoi dans l’année qui vient.');
  const issue = await getIssue(deps.db, input.id);
  if (!issue) return fail(404, 'Ce numéro n’existe pas.');
  if (!issue.editable) return fail(409, NOT_EDITABLE);
  if (issue.subject.trim() === '') return fail(400, 'Donnez un objet au numéro avant de le programmer.');
  if (issue.intro.trim() === '' && issue.stories.length === 0) return fail(400, 'Le numéro est vide : écrivez une introduction ou ajoutez des articles.');
  const checked = checkStories(issue.stories);
  if (!checked.ok) return checked;
  const recipients = await countRecipients(deps.db, { newsletter: issue.newsletter, segment: issue.segment, now });
  if (recipients === 0) return fail(400, 'Personne ne recevrait ce numéro : ce segment ne compte aucun inscrit à cette lettre.');
  const done = await writeTransaction(deps.db, async (trx) => {
    const row = await trx
      .updateTable('newsletter_issues')
      .set((eb) => ({ status: 'scheduled', scheduled_at: toTimestamp(at), schedule_version: eb('schedule_version', '+', 1), updated_at: toTimestamp(now) }))
      .where('id', '=', issue.id)
      .where('status', 'in', ['draft', 'scheduled'])
      .returning('schedule_version')
      .executeTakeFirst();
    if (!row) return false;
    await scheduleSendJob(deps, trx, { issueId: issue.id, version: row.schedule_version, runAt: at });
    return true;
  });
  if (!done) return fail(409, NOT_EDITABLE);
  deps.jobs.wake();
  return { ok: true, at, recipients };
}

/** Cancels a scheduled issue: it is a draft again (its waiting job finds it so and does nothing). */
export async function cancelIssue(deps: Pick<ServerDeps, 'db' | 'clock'>, id: string): Promise<Result<object>> {
  const updated = await deps.db
    .updateTable('newsletter_issues')
    .set({ status: 'draft', scheduled_at: null, updated_at: toTimestamp(deps.clock.now()) })
    .where('id', '=', id)
    .where('status', '=', 'scheduled')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return { ok: true };
  return (await getIssue(deps.db, id)) ? fail(409, 'Ce numéro n’est pas programmé (il est peut-être déjà parti).') : fail(404, 'Ce numéro n’existe pas.');
}

export interface IssueStats {
  recipients: number;
  queued: number;
  sent: number;
  refused: number;
  bounced: number;
  complained: number;
  failed: number;
  skipped: number;
  /** Unsubscriptions from the newsletter by its recipients after this issue and before the next one. */
  unsubscribed: number;
}

/** Counts only: nothing about any one reader. */
export async function issueStats(db: Kysely<Database>, id: string): Promise<IssueStats> {
  const rows = await db
    .selectFrom('newsletter_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('issue_id', '=', id)
    .groupBy('status')
    .execute();
  const by = (s: DeliveryStatus) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  const issue = await issueRow(db, id);
  let unsubscribed = 0;
  if (issue?.queued_at) {
    const next = await db
      .selectFrom('newsletter_issues')
      .select('queued_at')
      .where('newsletter', '=', issue.newsletter)
      .where('queued_at', '>', issue.queued_at)
      .orderBy('queued_at')
      .limit(1)
      .executeTakeFirst();
    let query = db
      .selectFrom('newsletter_deliveries')
      .innerJoin('newsletter_subscriptions', (j) =>
        j
          .onRef('newsletter_subscriptions.subscriber_id', '=', 'newsletter_deliveries.subscriber_id')
          .on('newsletter_subscriptions.newsletter', '=', issue.newsletter),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('newsletter_deliveries.issue_id', '=', id)
      .where('newsletter_subscriptions.status', '=', 'unsubscribed')
      .where('newsletter_subscriptions.unsubscribed_at', '>=', issue.queued_at);
    if (next?.queued_at) query = query.where('newsletter_subscriptions.unsubscribed_at', '<', next.queued_at);
    unsubscribed = Number((await query.executeTakeFirstOrThrow()).n);
  }
  const total = rows.reduce((sum, r) => sum + Number(r.n), 0);
  return {
    recipients: total,
    queued: by('queued') + by('sending'),
    sent: by('sent') + by('bounced') + by('complained'),
    refused: by('refused'),
    bounced: by('bounced'),
    complained: by('complained'),
    failed: by('failed'),
    skipped: by('skipped'),
    unsubscribed,
  };
}

export interface IssueSummary extends Issue {
  stats: IssueStats | null;
}

/** The issues of one newsletter (or all), newest first, with their counts once sending. */
export async function listIssues(db: Kysely<Database>, options: { newsletter?: string; limit?: number } = {}): Promise<IssueSummary[]> {
  let query = db
    .selectFrom('newsletter_issues')
    .selectAll()
    .orderBy('created_at', 'desc')
    .limit(options.limit ?? 100);
  if (options.newsletter) query = query.where('newsletter', '=', options.newsletter);
  const rows = await query.execute();
  return Promise.all(rows.map(async (r) => ({ ...toIssue(r), stats: r.queued_at ? await issueStats(db, r.id) : null })));
}

// ——— The archive: the web versions of sent issues ———

export interface ArchivedIssue {
  newsletter: string;
  number: number;
  subject: string;
  preheader: string;
  sentAt: Date;
  /** Sent to supporters only (a supporters' newsletter, or a supporters' or sociétaires' segment): shown to signed-in supporters only. */
  restricted: boolean;
  /** Sent to sociétaires only: shown to signed-in sociétaires only. */
  forShareholders: boolean;
}

const restrictedIssue = (newsletter: string, segment: Segment) =>
  findNewsletter(newsletter)?.audience === 'supporters' || segment === 'supporters' || segment === 'shareholders';

/** The archive of one newsletter: every issue whose send has started, newest first. */
export async function archiveOf(db: Kysely<Database>, newsletter: string): Promise<ArchivedIssue[]> {
  const rows = await db
    .selectFrom('newsletter_issues')
    .select(['newsletter', 'number', 'subject', 'preheader', 'queued_at', 'segment'])
    .where('newsletter', '=', newsletter)
    .where('status', 'in', ['sending', 'sent'])
    .orderBy('number', 'desc')
    .execute();
  return rows.map((r) => ({
    newsletter: r.newsletter,
    number: Number(r.number),
    subject: r.subject,
    preheader: r.preheader,
    sentAt: new Date(r.queued_at!),
    restricted: restrictedIssue(r.newsletter, r.segment),
    forShareholders: r.segment === 'shareholders',
  }));
}

export interface WebIssue extends ArchivedIssue {
  intro: string;
  stories: StoryCard[];
  supportBlock: boolean;
}

/** One issue's web version, as it was sent (its record), or undefined. */
export async function webIssue(db: Kysely<Database>, newsletter: string, number: number): Promise<WebIssue | undefined> {
  if (!Number.isInteger(number) || number < 1) return undefined;
  const r = await db
    .selectFrom('newsletter_issues')
    .selectAll()
    .where('newsletter', '=', newsletter)
    .where('number', '=', number)
    .where('status', 'in', ['sending', 'sent'])
    .executeTakeFirst();
  if (!r || !r.mail_stories) return undefined;
  const stories = (JSON.parse(r.mail_stories) as (Omit<StoryCard, 'published'> & { published: string })[]).map((s) => ({
    ...s,
    published: new Date(s.published),
  }));
  return {
    newsletter: r.newsletter,
    number: Number(r.number),
    subject: r.subject,
    preheader: r.preheader,
    sentAt: new Date(r.queued_at!),
    restricted: restrictedIssue(r.newsletter, r.segment),
    forShareholders: r.segment === 'shareholders',
    intro: r.intro,
    stories,
    supportBlock: fromFlag(r.support_block),
  };
}

/** The newsletters with the number of issues in their archive. */
export async function archiveIndex(
  db: Kysely<Database>,
): Promise<{ id: string; name: string; description: string; cadence: string; audience: string; issues: number; last: Date | null }[]> {
  const rows = await db
    .selectFrom('newsletter_issues')
    .select(['newsletter', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max<string>('queued_at').as('last')])
    .where('status', 'in', ['sending', 'sent'])
    .groupBy('newsletter')
    .execute();
  return NEWSLETTERS.map((n) => {
    const r = rows.find((x) => x.newsletter === n.id);
    return {
      id: n.id,
      name: n.name,
      description: n.description,
      cadence: n.cadence,
      audience: n.audience,
      issues: Number(r?.n ?? 0),
      last: r?.last ? new Date(r.last) : null,
    };
  });
}
