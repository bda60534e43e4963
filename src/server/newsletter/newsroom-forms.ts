/**
 * The newsroom's issue forms (src/pages/redaction/lettres/), read and acted on.
 *
 * The compose form works without script: every one of its buttons (search, « Ajouter »,
 * « Monter », « Descendre », « Retirer », « Enregistrer le brouillon ») submits the whole form,
 * its name `action` saying which was pressed (`add:<url>`, `up:<n>`…). All but the last only
 * answer the form again, changed, with everything typed kept: nothing is stored until the
 * editor saves. The chosen stories travel in one hidden field, their addresses separated by
 * spaces (a field repeated under one name would keep its first value only: http/forms.ts).
 *
 * Also here: the words of the counts per issue (« 1 204 envoyés · 3 refusés… »), for the list
 * and the issue's page alike.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { z } from 'zod';
import { findNewsletter } from '../../config/newsletters';
import { TIME_ZONE } from '../../lib/dates';
import type { ServerDeps } from '../core/deps';
import type { FormFailure } from '../http/forms';
import { countRecipients, SEGMENTS } from './audience';
import { createIssue, type Issue, issueInput, type IssueInput, type IssueStats, parisTime, STORIES_MAX, updateIssue } from './issues';
import { searchStories, storiesByUrl } from './stories';
import type { Segment } from './tables';

/**
 * A story's address as the catalogue gives it: a path, and for a brève the anchor of its card
 * in the brèves' list (`/breves#breve-…`). `issueInput` alone refuses the anchor.
 */
export const STORY_URL = /^\/[a-z0-9/_-]{1,300}(#[a-z0-9_-]{1,200})?$/;

/** Results shown for a search; before any, the newest stories, fewer. */
export const SEARCH_RESULTS = 8;
export const NEWEST_RESULTS = 5;

/**
 * The compose form's byte limit: an introduction of INTRO_MAX characters, percent-encoded by a
 * browser without script (up to nine bytes for a typographic apostrophe), must fit.
 */
export const COMPOSE_MAX_BYTES = 256 * 1024;

/** The input of a save: `issueInput`, with the brèves' addresses. */
export const composeInput = issueInput.extend({
  stories: z.array(z.string().regex(STORY_URL, 'Article inconnu.')).max(STORIES_MAX, `Un numéro compte au plus ${STORIES_MAX} articles.`),
});

/** French names of the compose form's fields, for the messages that name one. */
export const COMPOSE_LABELS: Record<string, string> = {
  subject: 'Objet',
  preheader: 'Texte d’aperçu',
  intro: 'Introduction',
  stories: 'Articles',
  segment: 'Destinataires',
  newsletter: 'Lettre d’information',
};

/** The compose form as posted: loose on purpose (a draft in progress may be empty or too long; the save says so). */
export const composeFields = z.object({
  form: z.literal('compose'),
  action: z.string().max(400),
  newsletter: z.string().max(40),
  subject: z.string().max(20_000).default(''),
  preheader: z.string().max(20_000).default(''),
  intro: z.string().max(100_000).default(''),
  stories: z.string().max(8_000).default(''),
  segment: z.string().max(40).default('all'),
  support_block: z.string().max(10).optional(),
  q: z.string().max(200).default(''),
});
export type ComposeFields = z.output<typeof composeFields>;

/** What the compose form shows: the values as typed, and the stories chosen, in order. */
export interface ComposeState {
  newsletter: string;
  subject: string;
  preheader: string;
  intro: string;
  stories: string[];
  supportBlock: boolean;
  segment: string;
  /** The search typed in the stories' search field. */
  q: string;
}

/** A new issue of `newsletter`: everyone, the support block on (a reader-funded newspaper asks). */
export function emptyState(newsletter: string): ComposeState {
  return { newsletter, subject: '', preheader: '', intro: '', stories: [], supportBlock: true, segment: 'all', q: '' };
}

export function stateOfIssue(issue: Issue): ComposeState {
  return {
    newsletter: issue.newsletter,
    subject: issue.subject,
    preheader: issue.preheader,
    intro: issue.intro,
    stories: [...issue.stories],
    supportBlock: issue.supportBlock,
    segment: issue.segment,
    q: '',
  };
}

/** The state the form carries. Browsers send CRLF in a textarea: kept as LF, as typed. */
export function composeState(fields: ComposeFields): ComposeState {
  return {
    newsletter: fields.newsletter,
    subject: fields.subject,
    preheader: fields.preheader,
    intro: fields.intro.replace(/\r\n?/g, '\n'),
    stories: fields.stories.split(/\s+/).filter(Boolean),
    supportBlock: fields.support_block === 'on',
    segment: fields.segment,
    q: fields.q.trim(),
  };
}

/** The hidden field's value for these stories. */
export const storiesField = (stories: readonly string[]): string => stories.join(' ');

export type ComposeAction = { kind: 'save' } | { kind: 'search' } | { kind: 'add'; url: string } | { kind: 'up' | 'down' | 'remove'; index: number };

/** The button pressed, or null for a value no button of the form has. */
export function readAction(value: string): ComposeAction | null {
  if (value === 'save' || value === 'search') return { kind: value };
  const add = /^add:(.+)$/s.exec(value);
  if (add) return STORY_URL.test(add[1]!) ? { kind: 'add', url: add[1]! } : null;
  const move = /^(up|down|remove):(\d{1,2})$/.exec(value);
  if (move) return { kind: move[1] as 'up' | 'down' | 'remove', index: Number(move[2]) };
  return null;
}

type StoryChange = { ok: true; stories: string[] } | ({ ok: false } & FormFailure);

const storyFailure = (status: number, message: string): StoryChange => ({ ok: false, status, message, field: 'stories' });

/**
 * The stories after an add, a move or a removal (a new array). Moving the first one up, or the
 * last one down, changes nothing; adding one already there neither. `exists` says whether the
 * site still publishes an address (the catalogue, by default).
 */
export function changeStories(
  stories: readonly string[],
  action: Exclude<ComposeAction, { kind: 'save' | 'search' }>,
  exists: (url: string) => boolean = (url) => storiesByUrl([url])[0] !== undefined,
): StoryChange {
  const next = [...stories];
  if (action.kind === 'add') {
    if (next.includes(action.url)) return { ok: true, stories: next };
    if (!exists(action.url)) return storyFailure(400, 'Cet article n’existe pas (ou plus) sur le site.');
    if (next.length >= STORIES_MAX) return storyFailure(400, `Un numéro compte au plus ${STORIES_MAX} articles : retirez-en un avant d’en ajouter un autre.`);
    next.push(action.url);
    return { ok: true, stories: next };
  }
  const i = action.index;
  if (i >= next.length) return storyFailure(400, 'Cet article n’est plus dans le numéro : la liste a changé entre-temps.');
  if (action.kind === 'remove') next.splice(i, 1);
  else {
    const j = action.kind === 'up' ? i - 1 : i + 1;
    if (j >= 0 && j < next.length) [next[i], next[j]] = [next[j]!, next[i]!];
  }
  return { ok: true, stories: next };
}

/** The state as a draft to save, or the first thing wrong with it (naming its field). */
export function draftOf(state: ComposeState): { ok: true; issue: IssueInput } | ({ ok: false } & FormFailure) {
  const parsed = composeInput.safeParse({
    newsletter: state.newsletter,
    subject: state.subject,
    preheader: state.preheader,
    intro: state.intro,
    stories: state.stories,
    supportBlock: state.supportBlock,
    segment: state.segment,
  });
  if (parsed.success) return { ok: true, issue: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  return { ok: false, status: 400, message: issue.message, field };
}

export type ComposeOutcome = { kind: 'saved'; id: string; created: boolean } | { kind: 'form'; state: ComposeState; failure?: FormFailure };

/**
 * One press of a compose form's button: the form again (changed, or with what is wrong), or
 * the draft saved. `issueId` null creates the issue; its newsletter then comes from the form,
 * else from the issue (it never changes).
 */
export async function composeStep(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { fields: ComposeFields; userId: string; issue: Issue | null },
): Promise<ComposeOutcome> {
  const state = composeState(input.fields);
  if (input.issue) state.newsletter = input.issue.newsletter;
  const action = readAction(input.fields.action);
  if (!action) return { kind: 'form', state, failure: { status: 400, message: 'Bouton inconnu : rechargez la page.' } };
  if (!findNewsletter(state.newsletter))
    return { kind: 'form', state, failure: { status: 400, message: 'Choisissez une lettre d’information.', field: 'newsletter' } };
  if (action.kind === 'search') return { kind: 'form', state };
  if (action.kind !== 'save') {
    const changed = changeStories(state.stories, action);
    if (!changed.ok) return { kind: 'form', state, failure: changed };
    return { kind: 'form', state: { ...state, stories: changed.stories } };
  }
  const draft = draftOf(state);
  if (!draft.ok) return { kind: 'form', state, failure: draft };
  if (!input.issue) {
    const created = await createIssue(deps, { userId: input.userId, issue: draft.issue });
    return created.ok ? { kind: 'saved', id: created.id, created: true } : { kind: 'form', state, failure: { ...created, field: 'stories' } };
  }
  const updated = await updateIssue(deps, { id: input.issue.id, issue: draft.issue });
  if (updated.ok) return { kind: 'saved', id: input.issue.id, created: false };
  return { kind: 'form', state, failure: { ...updated, ...(updated.status === 400 ? { field: 'stories' } : {}) } };
}

/** What the compose form shows around the state: the chosen stories as cards, the search's results, the audience of each segment now. */
export async function composeView(deps: Pick<ServerDeps, 'db' | 'clock'>, state: ComposeState) {
  const found = storiesByUrl(state.stories);
  const chosen = state.stories.map((url, i) => ({ url, card: found[i] }));
  const results = searchStories(state.q, state.q ? SEARCH_RESULTS : NEWEST_RESULTS);
  const now = deps.clock.now();
  const audience = Object.fromEntries(
    await Promise.all(SEGMENTS.map(async (segment) => [segment, await countRecipients(deps.db, { newsletter: state.newsletter, segment, now })] as const)),
  ) as Record<Segment, number>;
  return { chosen, results, audience };
}
export type ComposeView = Awaited<ReturnType<typeof composeView>>;

// ——— The other forms of an issue's page ———

export const ISSUE_LABELS: Record<string, string> = { to: 'Adresse du test', date: 'Date', time: 'Heure' };

export const issueForms = z.discriminatedUnion('form', [
  z.object({ form: z.literal('test'), to: z.string().max(254) }),
  z.object({ form: z.literal('schedule'), date: z.string().max(20), time: z.string().max(10) }),
  z.object({ form: z.literal('now-ask') }),
  z.object({ form: z.literal('now') }),
  z.object({ form: z.literal('cancel') }),
  z.object({ form: z.literal('delete-ask') }),
  z.object({ form: z.literal('delete') }),
]);

/** Every form of an issue's page: the compose form and the others. */
export const issuePageForms = z.discriminatedUnion('form', [composeFields, ...issueForms.options]);

/** A time as the schedule form's date and time inputs hold it, in Paris time. */
export function parisInputs(at: Date): { date: string; time: string } {
  return { date: formatInTimeZone(at, TIME_ZONE, 'yyyy-MM-dd'), time: formatInTimeZone(at, TIME_ZONE, 'HH:mm') };
}

/** The schedule form's date and time, read in Paris time; a French refusal naming the field otherwise. */
export function readSchedule(date: string, time: string): { ok: true; at: Date } | ({ ok: false } & FormFailure) {
  if (!date.trim()) return { ok: false, status: 400, message: 'Choisissez le jour de l’envoi.', field: 'date' };
  if (!time.trim()) return { ok: false, status: 400, message: 'Choisissez l’heure de l’envoi.', field: 'time' };
  const at = parisTime(date.trim(), time.trim());
  return at ? { ok: true, at } : { ok: false, status: 400, message: 'Cette date ou cette heure n’existe pas : choisissez-en une autre.', field: 'date' };
}

// ——— Words ———

/** « 1 envoyé », « 2 envoyés », « 0 plainte »: French puts 0 and 1 in the singular. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('fr-FR')} ${Math.abs(n) >= 2 ? plural : singular}`;
}

/** The counts of a send, once it is over or under way: « 1 204 envoyés · 3 refusés · 1 rebond · 0 plainte · 2 désinscriptions ». */
export function statsLine(stats: IssueStats): string {
  return [
    count(stats.sent, 'envoyé'),
    count(stats.refused, 'refusé'),
    count(stats.bounced, 'rebond'),
    count(stats.complained, 'plainte'),
    count(stats.unsubscribed, 'désinscription'),
  ].join(' · ');
}

/** Where a send is: « 340 envoyés sur 1 204 · 864 en attente » (and the failures and skips, when any). */
export function progressLine(stats: IssueStats): string {
  const parts = [`${count(stats.sent, 'envoyé')} sur ${stats.recipients.toLocaleString('fr-FR')}`, `${stats.queued.toLocaleString('fr-FR')} en attente`];
  if (stats.refused > 0) parts.push(count(stats.refused, 'refusé'));
  if (stats.failed > 0) parts.push(count(stats.failed, 'échec'));
  if (stats.skipped > 0) parts.push(`${count(stats.skipped, 'non envoyé')} (désinscription ou exclusion entre-temps)`);
  return parts.join(' · ');
}

/** « 1 destinataire », « 1 204 destinataires ». */
export const recipientsLabel = (n: number): string => count(n, 'destinataire');

/** Where a suppression came from, as the newsroom reads it. */
export function suppressionSource(source: string): string {
  if (source === 'relay') return 'Refus du serveur d’envoi';
  if (source === 'staff') return 'L’équipe';
  const webhook = /^webhook:(.+)$/.exec(source);
  if (webhook)
    return webhook[1] === 'generic' ? 'Signalement du relais d’envoi' : `Signalement de ${webhook[1]!.charAt(0).toUpperCase()}${webhook[1]!.slice(1)}`;
  return source;
}

/** The badge's class for an issue's status, from the staff area's palette (StaffLayout.astro). */
export const STATUS_BADGES: Record<Issue['status'], string> = {
  draft: 'badge',
  scheduled: 'badge badge-queued',
  sending: 'badge badge-running',
  sent: 'badge badge-succeeded',
  cancelled: 'badge badge-canceled',
};
