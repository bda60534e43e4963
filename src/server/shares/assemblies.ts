/**
 * General assemblies, the back-office's side: an assembly is created (kind, call, date, place
 * and link, agenda, vote window; the statutes' rules frozen in it), given resolutions and
 * documents, then convened: the notice goes out by a durable job, at least `noticeDays` before
 * the date, to every member of the register that day (the roll). At the close of the vote a job
 * counts the ballots, publishes the results and the minutes (PDF), and tells the members.
 *
 * The members' side (attendance, proxies, votes, receipts) is in ballots.ts; the count itself,
 * pure and exact, in tally.ts. Pages check that the actor is an administrator (admin/guard.ts);
 * these functions record who did what.
 */
import { createHash } from 'node:crypto';
import { addDays } from 'date-fns';
import { formatInTimeZone } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { statutes } from '../../config/statutes';
import { formatDate } from '../../lib/dates';
import { findUser } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type Database, newId, toFlag, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor } from '../mail/layout';
import { noticeMail, resultsMail } from './assembly-mails';
import {
  type Assembly,
  type AssemblyDocument,
  type AssemblyRules,
  ballotBox,
  ballotsDigest,
  findAssembly,
  findFirstCall,
  listDocuments,
  listResolutions,
  listRoll,
  type Resolution,
  type RollEntry,
} from './assembly-repository';
import { castChairProxies } from './ballots';
import { renderMinutesPdf } from './minutes-pdf';
import { currentHoldings } from './register';
import { type AssemblyResults, computeQuorum, type QuorumResult, type ResolutionResult, tallyResolution } from './tally';

export type AssemblyDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs'>;

const PARIS = 'Europe/Paris';
const parisDay = (date: Date) => formatInTimeZone(date, PARIS, 'yyyy-MM-dd');
const NOT_FOUND = 'Assemblée introuvable.';
/** The vote may run on until the day after the meeting, not longer. */
const VOTE_AFTER_MEETING_MS = 24 * 3600_000;
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** The statutes' rules for an assembly of this kind and call, as they are today. */
export function rulesFor(kind: 'ordinary' | 'extraordinary', call: 'first' | 'second'): AssemblyRules {
  const rules = statutes.assemblies[kind];
  return {
    statutesVersion: statutes.statutes.version,
    quorum: call === 'first' ? rules.quorumFirstCall : rules.quorumSecondCall,
    majority: rules.majority,
    colleges: statutes.colleges.map((c) => ({ id: c.id, label: c.label, weightPercent: c.weightPercent })),
    proxiesPerMember: statutes.assemblies.proxiesPerMember,
    noticeDays: statutes.assemblies.noticeDays,
  };
}

// ---------------------------------------------------------------------------------------------
// Creating

const date = (what: string) => z.date({ error: `Indiquez ${what}.` }).refine((d) => !Number.isNaN(d.getTime()), `Indiquez ${what}.`);

export const assemblyInput = z
  .object({
    kind: z.enum(['ordinary', 'extraordinary'], { error: 'Choisissez une assemblée ordinaire ou extraordinaire.' }),
    call: z.enum(['first', 'second'], { error: 'Choisissez la première ou la seconde convocation.' }),
    title: z.string().trim().min(1, 'Donnez un titre à l’assemblée.').max(200, 'Le titre : 200 caractères au plus.'),
    startsAt: date('la date et l’heure de l’assemblée'),
    place: z.string().trim().max(300, 'Le lieu : 300 caractères au plus.').default(''),
    onlineUrl: z
      .string()
      .trim()
      .max(500, 'Le lien : 500 caractères au plus.')
      .refine((v) => v === '' || /^https:\/\/[^\s]+$/.test(v), 'Le lien de participation en ligne doit commencer par https://.')
      .default(''),
    agenda: z
      .array(z.string().trim().min(1, 'Un point de l’ordre du jour est vide.').max(500, 'Un point de l’ordre du jour : 500 caractères au plus.'))
      .min(1, 'L’ordre du jour a au moins un point.')
      .max(50, 'L’ordre du jour : 50 points au plus.'),
    voteOpensAt: date('l’ouverture du vote en ligne'),
    voteClosesAt: date('la clôture du vote en ligne'),
  })
  .refine((a) => a.place !== '' || a.onlineUrl !== '', { message: 'Indiquez un lieu, un lien de participation en ligne, ou les deux.', path: ['place'] })
  .refine((a) => a.voteOpensAt < a.voteClosesAt, { message: 'Le vote doit ouvrir avant de clore.', path: ['voteClosesAt'] })
  .refine((a) => a.voteClosesAt.getTime() <= a.startsAt.getTime() + VOTE_AFTER_MEETING_MS, {
    message: 'Le vote clôt au plus tard le lendemain de l’assemblée.',
    path: ['voteClosesAt'],
  });
export type AssemblyInput = z.input<typeof assemblyInput>;

const firstIssue = (error: z.ZodError) => error.issues[0]?.message ?? 'Formulaire incomplet.';

/**
 * An assembly's input checked for a new draft (the statutes' checks, then dates still ahead), and
 * the row it becomes, with the statutes' rules of its kind and call as they are today.
 */
function draftRow(input: AssemblyInput, actorId: string, now: Date, firstCallId: string | null) {
  const parsed = assemblyInput.safeParse(input);
  if (!parsed.success) return fail(422, firstIssue(parsed.error));
  const a = parsed.data;
  if (a.startsAt <= now) return fail(422, 'La date de l’assemblée est passée.');
  if (a.voteOpensAt < now) return fail(422, 'L’ouverture du vote est passée.');
  return {
    ok: true as const,
    row: {
      id: newId(),
      kind: a.kind,
      call: a.call,
      title: a.title,
      starts_at: toTimestamp(a.startsAt),
      place: a.place,
      online_url: a.onlineUrl,
      agenda: JSON.stringify(a.agenda),
      vote_opens_at: toTimestamp(a.voteOpensAt),
      vote_closes_at: toTimestamp(a.voteClosesAt),
      rules: JSON.stringify(rulesFor(a.kind, a.call)),
      status: 'draft' as const,
      notice_at: null,
      notice_sent_at: null,
      roll_day: null,
      closed_at: null,
      results: null,
      first_call_id: firstCallId,
      created_by: actorId,
      created_at: toTimestamp(now),
      updated_at: toTimestamp(now),
    },
  };
}

/** A new assembly, in draft, with the statutes' rules of its kind and call as they are today. */
export async function createAssembly(deps: Pick<ServerDeps, 'db' | 'clock'>, actorId: string, input: AssemblyInput): Promise<Result<{ assemblyId: string }>> {
  const draft = draftRow(input, actorId, deps.clock.now(), null);
  if (!draft.ok) return draft;
  const id = draft.row.id;
  await deps.db.insertInto('assemblies').values(draft.row).execute();
  log.info('assemblies.created', { assemblyId: id, actorId });
  return { ok: true, assemblyId: id };
}

export type SecondCallInput = Omit<AssemblyInput, 'kind' | 'call' | 'title' | 'agenda'>;

/** Whether an assembly may be convened again on second call: met on first call, closed, quorum not reached. */
export const needsSecondCall = (assembly: Pick<Assembly, 'call' | 'status' | 'results'>): boolean =>
  assembly.call === 'first' && assembly.status === 'closed' && assembly.results !== null && !assembly.results.quorum.met;

export { findFirstCall };

/** The second call of `firstCallId`, if there is one. */
export async function findSecondCall(db: Kysely<Database>, firstCallId: string): Promise<{ id: string; title: string } | undefined> {
  return db.selectFrom('assemblies').select(['id', 'title']).where('first_call_id', '=', firstCallId).executeTakeFirst();
}

/**
 * The second call of an assembly that did not reach its quorum on first call: a new draft of the
 * same kind, on the same agenda, with the same resolutions and documents, under the statutes'
 * second-call rules (its own, lower quorum), linked to the first. Its notice then goes out as
 * any other's. Nothing carries over from the first meeting's attendance, proxies or ballots.
 * One second call per first call.
 */
export async function createSecondCall(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  actorId: string,
  firstCallId: string,
  input: SecondCallInput,
): Promise<Result<{ assemblyId: string }>> {
  const first = await findAssembly(deps.db, firstCallId);
  if (!first) return fail(404, NOT_FOUND);
  if (!needsSecondCall(first))
    return fail(409, 'Seule une assemblée close sur première convocation sans avoir atteint le quorum peut être convoquée de nouveau.');
  const now = deps.clock.now();
  const draft = draftRow({ ...input, kind: first.kind, call: 'second', title: secondCallTitle(first.title), agenda: first.agenda }, actorId, now, first.id);
  if (!draft.ok) return draft;
  const id = draft.row.id;
  const created = await writeTransaction(deps.db, async (trx) => {
    const inserted = await trx
      .insertInto('assemblies')
      .values(draft.row)
      .onConflict((oc) => oc.column('first_call_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    for (const r of await listResolutions(trx, first.id)) {
      await trx
        .insertInto('assembly_resolutions')
        .values({
          id: newId(),
          assembly_id: id,
          position: r.position,
          title: r.title,
          text: r.text,
          board_proposal: toFlag(r.boardProposal),
          created_at: toTimestamp(now),
        })
        .execute();
    }
    const documents = await trx.selectFrom('assembly_documents').selectAll().where('assembly_id', '=', first.id).orderBy('position').execute();
    for (const d of documents) {
      await trx
        .insertInto('assembly_documents')
        .values({ ...d, id: newId(), assembly_id: id, created_at: toTimestamp(now) })
        .execute();
    }
    return true;
  });
  if (!created) return fail(409, 'La seconde convocation de cette assemblée existe déjà.');
  log.info('assemblies.second_call_created', { assemblyId: id, firstCallId: first.id, actorId });
  return { ok: true, assemblyId: id };
}

const SECOND_CALL_SUFFIX = ' (seconde convocation)';
const secondCallTitle = (title: string) => `${title.slice(0, 200 - SECOND_CALL_SUFFIX.length)}${SECOND_CALL_SUFFIX}`;

/** Changes an assembly's details while it is a draft (kind and call stay: they fixed its rules). */
export async function updateAssembly(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  actorId: string,
  assemblyId: string,
  input: Omit<AssemblyInput, 'kind' | 'call'>,
): Promise<Result> {
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly) return fail(404, NOT_FOUND);
  const parsed = assemblyInput.safeParse({ ...input, kind: assembly.kind, call: assembly.call });
  if (!parsed.success) return fail(422, firstIssue(parsed.error));
  const a = parsed.data;
  const now = deps.clock.now();
  if (a.startsAt <= now) return fail(422, 'La date de l’assemblée est passée.');
  if (a.voteOpensAt < now) return fail(422, 'L’ouverture du vote est passée.');
  const updated = await deps.db
    .updateTable('assemblies')
    .set({
      title: a.title,
      starts_at: toTimestamp(a.startsAt),
      place: a.place,
      online_url: a.onlineUrl,
      agenda: JSON.stringify(a.agenda),
      vote_opens_at: toTimestamp(a.voteOpensAt),
      vote_closes_at: toTimestamp(a.voteClosesAt),
      updated_at: toTimestamp(now),
    })
    .where('id', '=', assemblyId)
    .where('status', '=', 'draft')
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return fail(409, 'La convocation est programmée ou partie : l’assemblée ne peut plus changer.');
  log.info('assemblies.updated', { assemblyId, actorId });
  return { ok: true };
}

const resolutionInput = z.object({
  title: z.string().trim().min(1, 'Donnez un titre à la résolution.').max(300, 'Le titre de la résolution : 300 caractères au plus.'),
  text: z.string().trim().min(1, 'Écrivez le texte de la résolution.').max(20_000, 'Le texte de la résolution : 20 000 caractères au plus.'),
  boardProposal: z.boolean().default(true),
});

/** Adds a resolution at the end, before the notice goes out. Its majority is the assembly kind's. */
export async function addResolution(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  actorId: string,
  assemblyId: string,
  input: z.input<typeof resolutionInput>,
): Promise<Result<{ resolutionId: string; position: number }>> {
  const parsed = resolutionInput.safeParse(input);
  if (!parsed.success) return fail(422, firstIssue(parsed.error));
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly) return fail(404, NOT_FOUND);
  const now = deps.clock.now();
  const id = newId();
  const result = await writeTransaction(deps.db, async (trx): Promise<Result<{ resolutionId: string; position: number }>> => {
    // A conditional write on the assembly's row, not a read: on PostgreSQL it holds the row until
    // the commit, so the notice (which moves the status on that row) either waits for this
    // resolution and sends it, or has gone and this one is refused. No resolution slips in after.
    const open = await trx
      .updateTable('assemblies')
      .set({ updated_at: toTimestamp(now) })
      .where('id', '=', assemblyId)
      .where('status', 'in', ['draft', 'notice_scheduled'])
      .executeTakeFirst();
    if (open.numUpdatedRows === 0n) return fail(409, 'La convocation est partie : les résolutions ne peuvent plus changer.');
    for (let attempt = 0; attempt < 5; attempt++) {
      const last = await trx
        .selectFrom('assembly_resolutions')
        .select((eb) => eb.fn.max('position').as('p'))
        .where('assembly_id', '=', assemblyId)
        .executeTakeFirst();
      const position = Number(last?.p ?? 0) + 1;
      const inserted = await trx
        .insertInto('assembly_resolutions')
        .values({
          id,
          assembly_id: assemblyId,
          position,
          title: parsed.data.title,
          text: parsed.data.text,
          board_proposal: toFlag(parsed.data.boardProposal),
          created_at: toTimestamp(now),
        })
        .onConflict((oc) => oc.columns(['assembly_id', 'position']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return { ok: true, resolutionId: id, position };
    }
    return fail(409, 'Une autre résolution vient d’être ajoutée : réessayez.');
  });
  if (result.ok) log.info('assemblies.resolution_added', { assemblyId, actorId, position: result.position });
  return result;
}

const documentInput = z.union([
  z.object({
    title: z.string().trim().min(1, 'Donnez un titre au document.').max(200, 'Le titre du document : 200 caractères au plus.'),
    file: z.object({
      filename: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/, 'Nom de fichier : lettres, chiffres, points, tirets, 120 caractères au plus.'),
      contentType: z.enum(['application/pdf', 'text/plain', 'application/vnd.oasis.opendocument.text', 'text/csv'], {
        error: 'Formats acceptés : PDF, texte, ODT ou CSV.',
      }),
      bytes: z
        .instanceof(Uint8Array)
        .refine((b) => b.byteLength > 0, 'Le fichier est vide.')
        .refine((b) => b.byteLength <= DOCUMENT_MAX_BYTES, 'Le fichier dépasse 10 Mo.'),
    }),
  }),
  z.object({
    title: z.string().trim().min(1, 'Donnez un titre au document.').max(200, 'Le titre du document : 200 caractères au plus.'),
    path: z
      .string()
      .trim()
      .regex(/^\/documents\/[a-z0-9][a-z0-9.-]{0,120}\.pdf$/, 'Chemin attendu : /documents/nom-du-fichier.pdf'),
  }),
]);
export type DocumentInput = { title: string; file: { filename: string; contentType: string; bytes: Uint8Array } } | { title: string; path: string };

/** Adds a document (a file stored in the database, or a PDF under public/documents/) until the vote closes. */
export async function addDocument(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  actorId: string,
  assemblyId: string,
  input: DocumentInput,
): Promise<Result<{ documentId: string }>> {
  const parsed = documentInput.safeParse(input);
  if (!parsed.success) return fail(422, firstIssue(parsed.error));
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly) return fail(404, NOT_FOUND);
  if (assembly.status === 'closed') return fail(409, 'Le vote est clos : les documents de l’assemblée ne changent plus.');
  const d = parsed.data;
  const now = deps.clock.now();
  const id = newId();
  await writeTransaction(deps.db, async (trx) => {
    const last = await trx
      .selectFrom('assembly_documents')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('assembly_id', '=', assemblyId)
      .executeTakeFirst();
    const file = 'file' in d ? d.file : null;
    await trx
      .insertInto('assembly_documents')
      .values({
        id,
        assembly_id: assemblyId,
        position: Number(last?.p ?? 0) + 1,
        title: d.title,
        filename: file ? file.filename : 'path' in d ? d.path.split('/').pop()! : 'document.pdf',
        content_type: file ? file.contentType : 'application/pdf',
        bytes: file ? file.bytes : null,
        path: 'path' in d ? d.path : null,
        sha256: file ? createHash('sha256').update(file.bytes).digest('hex') : null,
        created_at: toTimestamp(now),
      })
      .execute();
  });
  log.info('assemblies.document_added', { assemblyId, actorId });
  return { ok: true, documentId: id };
}

// ---------------------------------------------------------------------------------------------
// The notice

export const ASSEMBLY_NOTICE = jobType({ kind: 'assemblies.notice', schema: z.object({ assemblyId: z.string(), noticeAt: z.string() }), maxAttempts: 10 });
export const ASSEMBLY_CLOSE = jobType({ kind: 'assemblies.close', schema: z.object({ assemblyId: z.string() }), maxAttempts: 20, timeoutMs: 300_000 });

/** The last moment the notice may leave: `noticeDays` before the assembly. */
export const noticeDeadline = (assembly: Pick<Assembly, 'startsAt' | 'rules'>): Date => addDays(assembly.startsAt, -assembly.rules.noticeDays);

/**
 * Programs the notice: it leaves at `sendAt` (now by default), which must be at least
 * `noticeDays` before the assembly and no later than the vote's opening. Programming it again
 * before it leaves moves it (the earlier job then does nothing).
 */
export async function scheduleNotice(
  deps: AssemblyDeps,
  actorId: string,
  assemblyId: string,
  options: { sendAt?: Date } = {},
): Promise<Result<{ noticeAt: Date }>> {
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly) return fail(404, NOT_FOUND);
  if (assembly.status !== 'draft' && assembly.status !== 'notice_scheduled') return fail(409, 'La convocation de cette assemblée est déjà partie.');
  const now = deps.clock.now();
  const sendAt = options.sendAt && options.sendAt > now ? options.sendAt : now;
  const deadline = noticeDeadline(assembly);
  if (sendAt > deadline)
    return fail(
      422,
      `La convocation doit partir au moins ${assembly.rules.noticeDays} jours avant l’assemblée, soit au plus tard le ${formatDate(deadline)} : choisissez une date d’assemblée plus lointaine.`,
    );
  if (sendAt > assembly.voteOpensAt) return fail(422, 'La convocation doit partir avant l’ouverture du vote.');
  if ((await listResolutions(deps.db, assembly.id)).length === 0) return fail(422, 'Ajoutez au moins une résolution avant de convoquer l’assemblée.');
  const strays = collegesOutsideRules(assembly, await currentHoldings(deps.db, parisDay(now)));
  if (strays.length > 0)
    return fail(
      409,
      `Des sociétaires sont inscrits dans un collège que les règles de cette assemblée ne connaissent pas (${strays.join(', ')}) : les statuts ont changé depuis sa création, créez une nouvelle assemblée.`,
    );
  const at = toTimestamp(sendAt);
  const done = await writeTransaction(deps.db, async (trx) => {
    const updated = await trx
      .updateTable('assemblies')
      .set({ status: 'notice_scheduled', notice_at: at, updated_at: toTimestamp(now) })
      .where('id', '=', assembly.id)
      .where('status', 'in', ['draft', 'notice_scheduled'])
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    await schedule(
      deps,
      trx,
      ASSEMBLY_NOTICE,
      { assemblyId: assembly.id, noticeAt: at },
      { runAt: sendAt, uniqueKey: `assemblies.notice:${assembly.id}:${at}` },
    );
    return true;
  });
  if (!done) return fail(409, 'La convocation de cette assemblée est déjà partie.');
  deps.jobs.wake();
  log.info('assemblies.notice_scheduled', { assemblyId: assembly.id, actorId });
  return { ok: true, noticeAt: sendAt };
}

/** The colleges of members on the register that the assembly's frozen rules do not have. */
function collegesOutsideRules(assembly: Pick<Assembly, 'rules'>, holdings: readonly { collegeId: string }[]): string[] {
  const known = new Set(assembly.rules.colleges.map((c) => c.id));
  return [...new Set(holdings.map((h) => h.collegeId).filter((id) => !known.has(id)))];
}

/**
 * The notice job: takes the roll from the register of the day, convenes the assembly, schedules
 * one mail per member with an account (unique per assembly and member: never twice), and the
 * close at the end of the vote. Late past the deadline, it sends nothing and gives the assembly
 * back to the draft, for the back-office to set a new date.
 */
export async function sendNotice(deps: AssemblyDeps, assemblyId: string, noticeAt: string): Promise<void> {
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly || assembly.status !== 'notice_scheduled' || !assembly.noticeAt || toTimestamp(assembly.noticeAt) !== noticeAt) return;
  const now = deps.clock.now();
  if (now > noticeDeadline(assembly) || now > assembly.voteOpensAt) {
    await deps.db
      .updateTable('assemblies')
      .set({ status: 'draft', notice_at: null, updated_at: toTimestamp(now) })
      .where('id', '=', assembly.id)
      .where('status', '=', 'notice_scheduled')
      .where('notice_at', '=', noticeAt)
      .execute();
    log.error('assemblies.notice_too_late', { assemblyId: assembly.id });
    return;
  }
  const documents = (await listDocuments(deps.db, assembly.id)).map((d) => d.title);
  const firstCall = await findFirstCall(deps.db, assembly);
  let unreachable = 0;
  const called = await writeTransaction(deps.db, async (trx) => {
    const day = parisDay(now);
    const convened = await trx
      .updateTable('assemblies')
      .set({ status: 'convened', notice_sent_at: toTimestamp(now), roll_day: day, updated_at: toTimestamp(now) })
      .where('id', '=', assembly.id)
      .where('status', '=', 'notice_scheduled')
      .where('notice_at', '=', noticeAt)
      .executeTakeFirst();
    if (convened.numUpdatedRows === 0n) return 0;
    const holdings = await currentHoldings(trx, day);
    // A college the frozen rules do not know could never be counted: the assembly goes back to
    // the draft (checked when the notice was programmed, checked again on the day's register).
    if (collegesOutsideRules(assembly, holdings).length > 0) {
      await trx
        .updateTable('assemblies')
        .set({ status: 'draft', notice_at: null, notice_sent_at: null, roll_day: null, updated_at: toTimestamp(now) })
        .where('id', '=', assembly.id)
        .execute();
      return -1;
    }
    for (const h of holdings) {
      await trx
        .insertInto('assembly_roll')
        .values({ assembly_id: assembly.id, member_id: h.memberId, member_number: h.memberNumber, name: h.name, college_id: h.collegeId, shares: h.shares })
        .execute();
      const user = h.userId ? await findUser(trx, h.userId) : undefined;
      if (!user) {
        unreachable++;
        continue;
      }
      const mail = noticeMail({
        siteUrl: deps.siteUrl,
        assemblyId: assembly.id,
        kind: assembly.kind,
        call: assembly.call,
        title: assembly.title,
        startsAt: assembly.startsAt,
        place: assembly.place,
        onlineUrl: assembly.onlineUrl,
        agenda: assembly.agenda,
        voteOpensAt: assembly.voteOpensAt,
        voteClosesAt: assembly.voteClosesAt,
        memberName: h.name,
        quorum: `${assembly.rules.quorum.n}/${assembly.rules.quorum.d}`,
        majority: `${assembly.rules.majority.rule === 'more' ? 'plus de' : 'au moins'} ${assembly.rules.majority.share.n}/${assembly.rules.majority.share.d}`,
        proxiesPerMember: assembly.rules.proxiesPerMember,
        documents,
        firstCallStartsAt: firstCall?.startsAt,
      });
      await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), { uniqueKey: `assemblies.notice-mail:${assembly.id}:${h.memberId}` });
    }
    await schedule(deps, trx, ASSEMBLY_CLOSE, { assemblyId: assembly.id }, { runAt: assembly.voteClosesAt, uniqueKey: `assemblies.close:${assembly.id}` });
    return holdings.length;
  });
  if (called < 0) {
    log.error('assemblies.notice_unknown_college', { assemblyId: assembly.id });
    return;
  }
  deps.jobs.wake();
  // Members without an account are convened by post: the back-office lists them (assemblyForStaff).
  log.info('assemblies.convened', { assemblyId: assembly.id, members: called, byPost: unreachable });
}

// ---------------------------------------------------------------------------------------------
// Counting

/** The results of an assembly, computed from its roll, attendance, proxies, participation and ballots (nothing else). */
export async function computeResults(db: Kysely<Database>, assembly: Assembly, closedAt: Date): Promise<AssemblyResults> {
  const [roll, resolutions, attendance, proxies, voters, box] = await Promise.all([
    listRoll(db, assembly.id),
    listResolutions(db, assembly.id),
    db.selectFrom('assembly_attendance').select(['member_id', 'mode']).where('assembly_id', '=', assembly.id).execute(),
    db.selectFrom('assembly_proxies').select('grantor_id').where('assembly_id', '=', assembly.id).where('revoked_at', 'is', null).execute(),
    db.selectFrom('assembly_participation').select('member_id').distinct().where('assembly_id', '=', assembly.id).execute(),
    ballotBox(db, assembly.id),
  ]);
  const quorum: QuorumResult = computeQuorum(
    roll,
    {
      present: new Set(attendance.filter((a) => a.mode !== 'absent').map((a) => a.member_id)),
      represented: new Set(proxies.map((p) => p.grantor_id)),
      voted: new Set(voters.map((v) => v.member_id)),
    },
    assembly.rules.quorum,
    assembly.rules.colleges,
  );
  const results: ResolutionResult[] = resolutions.map((r) => {
    const ballots = box.filter((b) => b.resolutionId === r.id);
    const tally = tallyResolution(ballots, assembly.rules.colleges, assembly.rules.majority);
    return { resolutionId: r.id, position: r.position, title: r.title, ballots: ballots.length, ...tally, adopted: quorum.met && tally.passed };
  });
  return { assemblyId: assembly.id, closedAt: toTimestamp(closedAt), quorum, resolutions: results, ballots: box.length, ballotsDigest: ballotsDigest(box) };
}

/**
 * The close job, at the end of the vote: the assembly is closed by the statement that takes its
 * row (a vote still in flight either committed before, and is counted, or finds it closed); the
 * chair's proxies are cast; the results are counted from the ballots and published; the minutes
 * are rendered; the members are told. Running again does nothing.
 */
export async function closeAssembly(deps: AssemblyDeps, assemblyId: string): Promise<AssemblyResults | undefined> {
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly || assembly.status !== 'convened') return undefined;
  const now = deps.clock.now();
  if (now < assembly.voteClosesAt) return undefined;
  const results = await writeTransaction(deps.db, async (trx) => {
    const closed = await trx
      .updateTable('assemblies')
      .set({ status: 'closed', closed_at: toTimestamp(now), updated_at: toTimestamp(now) })
      .where('id', '=', assembly.id)
      .where('status', '=', 'convened')
      .where('vote_closes_at', '<=', toTimestamp(now))
      .executeTakeFirst();
    if (closed.numUpdatedRows === 0n) return undefined;
    await castChairProxies(trx, assembly, now);
    const counted = await computeResults(trx, assembly, now);
    await trx
      .updateTable('assemblies')
      .set({ results: JSON.stringify(counted), ballots_cast: counted.ballots })
      .where('id', '=', assembly.id)
      .execute();
    const roll = await listRoll(trx, assembly.id);
    for (const entry of roll) {
      const user = await userOfMember(trx, entry);
      if (!user) continue;
      const mail = resultsMail({
        siteUrl: deps.siteUrl,
        assemblyId: assembly.id,
        title: assembly.title,
        quorumMet: counted.quorum.met,
        resolutions: counted.resolutions,
      });
      await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), { uniqueKey: `assemblies.results-mail:${assembly.id}:${entry.memberId}` });
    }
    return counted;
  });
  if (!results) return undefined;
  deps.jobs.wake();
  log.info('assemblies.closed', { assemblyId: assembly.id, ballots: results.ballots, quorumMet: results.quorum.met });
  await storedMinutes(deps.db, assembly.id, now);
  return results;
}

async function userOfMember(db: Kysely<Database>, entry: RollEntry) {
  const row = await db.selectFrom('share_members').select('user_id').where('id', '=', entry.memberId).executeTakeFirst();
  return row?.user_id ? findUser(db, row.user_id) : undefined;
}

/**
 * Counts an assembly's ballots again, from the box, and says whether they give the published
 * results (the same decisions, counts and digest).
 */
export async function recountAssembly(
  db: Kysely<Database>,
  assemblyId: string,
): Promise<Result<{ published: AssemblyResults; recount: AssemblyResults; identical: boolean }>> {
  const assembly = await findAssembly(db, assemblyId);
  if (!assembly?.results || !assembly.closedAt) return fail(404, 'Aucun résultat publié pour cette assemblée.');
  const recount = await computeResults(db, assembly, assembly.closedAt);
  return { ok: true, published: assembly.results, recount, identical: JSON.stringify(recount) === JSON.stringify(assembly.results) };
}

// ---------------------------------------------------------------------------------------------
// Minutes

async function storedMinutes(db: Kysely<Database>, assemblyId: string, now: Date): Promise<Uint8Array | undefined> {
  const stored = await db.selectFrom('assembly_minutes').select('bytes').where('assembly_id', '=', assemblyId).executeTakeFirst();
  if (stored) return new Uint8Array(stored.bytes);
  const assembly = await findAssembly(db, assemblyId);
  if (!assembly?.results) return undefined;
  const resolutions = await listResolutions(db, assembly.id);
  const bytes = await renderMinutesPdf({
    title: assembly.title,
    kind: assembly.kind,
    call: assembly.call,
    startsAt: assembly.startsAt,
    place: assembly.place,
    onlineUrl: assembly.onlineUrl,
    agenda: assembly.agenda,
    voteOpensAt: assembly.voteOpensAt,
    voteClosesAt: assembly.voteClosesAt,
    statutesVersion: assembly.rules.statutesVersion,
    colleges: assembly.rules.colleges,
    resolutionTexts: new Map(resolutions.map((r) => [r.id, r.text])),
    results: assembly.results,
    firstCallStartsAt: (await findFirstCall(db, assembly))?.startsAt,
  });
  await db
    .insertInto('assembly_minutes')
    .values({
      assembly_id: assembly.id,
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      ballots_digest: assembly.results.ballotsDigest,
      created_at: toTimestamp(now),
    })
    .onConflict((oc) => oc.column('assembly_id').doNothing())
    .execute();
  const row = await db.selectFrom('assembly_minutes').select('bytes').where('assembly_id', '=', assembly.id).executeTakeFirstOrThrow();
  return new Uint8Array(row.bytes);
}

const minutesFilename = (assembly: Assembly) => `proces-verbal-ag-${parisDay(assembly.startsAt)}.pdf`;

/** The minutes (PDF) of a closed assembly, for the back-office. */
export async function minutesPdf(deps: Pick<ServerDeps, 'db' | 'clock'>, assemblyId: string): Promise<{ bytes: Uint8Array; filename: string } | undefined> {
  const assembly = await findAssembly(deps.db, assemblyId);
  if (!assembly || assembly.status !== 'closed') return undefined;
  const bytes = await storedMinutes(deps.db, assembly.id, deps.clock.now());
  return bytes ? { bytes, filename: minutesFilename(assembly) } : undefined;
}

/** The minutes of a closed assembly, for a member who was on its roll; undefined for anyone else. */
export async function memberMinutesPdf(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  userId: string,
  assemblyId: string,
): Promise<{ bytes: Uint8Array; filename: string } | undefined> {
  const member = await deps.db.selectFrom('share_members').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (!member) return undefined;
  const onRoll = await deps.db
    .selectFrom('assembly_roll')
    .select('member_id')
    .where('assembly_id', '=', assemblyId)
    .where('member_id', '=', member.id)
    .executeTakeFirst();
  return onRoll ? minutesPdf(deps, assemblyId) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The back-office's views

export interface StaffAssemblySummary {
  id: string;
  title: string;
  kind: 'ordinary' | 'extraordinary';
  call: 'first' | 'second';
  status: Assembly['status'];
  startsAt: Date;
}

export async function listAssemblies(db: Kysely<Database>): Promise<StaffAssemblySummary[]> {
  const rows = await db.selectFrom('assemblies').select(['id', 'title', 'kind', 'call', 'status', 'starts_at']).orderBy('starts_at', 'desc').execute();
  return rows.map((r) => ({ id: r.id, title: r.title, kind: r.kind, call: r.call, status: r.status, startsAt: new Date(r.starts_at) }));
}

export interface StaffAssemblyView {
  assembly: Assembly;
  resolutions: Resolution[];
  documents: AssemblyDocument[];
  /**
   * The attendance sheet (feuille de présence): each member called, their college, what they
   * said, whom they gave their proxy to, whether they took part. Never what anyone voted.
   */
  sheet: Array<RollEntry & { attendance: string | null; proxyTo: 'chair' | number | null; tookPart: boolean; byPost: boolean }>;
}

export async function assemblyForStaff(db: Kysely<Database>, assemblyId: string): Promise<StaffAssemblyView | undefined> {
  const assembly = await findAssembly(db, assemblyId);
  if (!assembly) return undefined;
  const [resolutions, documents, roll, attendance, proxies, voters, members] = await Promise.all([
    listResolutions(db, assembly.id),
    listDocuments(db, assembly.id),
    listRoll(db, assembly.id),
    db.selectFrom('assembly_attendance').select(['member_id', 'mode']).where('assembly_id', '=', assembly.id).execute(),
    db.selectFrom('assembly_proxies').select(['grantor_id', 'holder_id']).where('assembly_id', '=', assembly.id).where('revoked_at', 'is', null).execute(),
    db.selectFrom('assembly_participation').select('member_id').distinct().where('assembly_id', '=', assembly.id).execute(),
    db.selectFrom('share_members').select(['id', 'user_id']).execute(),
  ]);
  const numberOf = new Map(roll.map((r) => [r.memberId, r.memberNumber]));
  const modeOf = new Map(attendance.map((a) => [a.member_id, a.mode]));
  const proxyOf = new Map(proxies.map((p) => [p.grantor_id, p.holder_id]));
  const took = new Set(voters.map((v) => v.member_id));
  const withAccount = new Set(members.filter((m) => m.user_id).map((m) => m.id));
  const sheet = roll.map((r) => {
    const holder = proxyOf.get(r.memberId);
    return {
      ...r,
      attendance: modeOf.get(r.memberId) ?? null,
      proxyTo: holder === undefined ? null : holder === null ? ('chair' as const) : (numberOf.get(holder) ?? null),
      tookPart: took.has(r.memberId),
      byPost: !withAccount.has(r.memberId),
    };
  });
  return { assembly, resolutions, documents, sheet };
}

// ---------------------------------------------------------------------------------------------
// Jobs

export const assemblyJobs = (deps: AssemblyDeps) => [
  handle(ASSEMBLY_NOTICE, ({ payload }) => sendNotice(deps, payload.assemblyId, payload.noticeAt)),
  handle(ASSEMBLY_CLOSE, async ({ payload }) => {
    await closeAssembly(deps, payload.assemblyId);
  }),
];
