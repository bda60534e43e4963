/**
 * A sociétaire and an assembly: what they see (notice, agenda, documents, results), what they
 * say (attendance), the proxies they give or hold, their votes, and the receipt that lets them
 * find their ballots in the published list.
 *
 * Every function starts from the session's user: the member of that account, on the roll of
 * that assembly. Anything else (another member's assembly, proxy or document, a draft) answers
 * 404, the same as an id that does not exist.
 *
 * Secrecy (CNIL, délibération 2019-053): who took part (`assembly_participation`) and what was
 * voted (`assembly_ballots`) are written apart, in the same transaction; a ballot carries no
 * voter and no time, only a random id and the hash of the voter's receipt.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { formatDateTime } from '../../lib/dates';
import { findUser } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type FailureStatus, type Result } from '../core/result';
import { type AttendanceMode, type BallotChoice, type Database, newId, type ParticipationVia, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor } from '../mail/layout';
import { schedule } from '../jobs/schedule';
import { proxyReceivedMail } from './assembly-mails';
import {
  type Assembly,
  type AssemblyDocument,
  ballotBox,
  findAssembly,
  findFirstCall,
  findRollEntry,
  listDocuments,
  listResolutions,
  memberOfUser,
  type PublishedBallot,
  receiptHash,
  type Resolution,
  type RollEntry,
  standingProxies,
} from './assembly-repository';
import type { AssemblyResults } from './tally';

export type BallotDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs'>;

export const NOT_FOUND = 'Assemblée introuvable.';

export type VoteState = 'before' | 'open' | 'closed';

/** Where the vote stands at `now`: not open yet, open (opens ≤ now < closes), or closed. */
export function voteState(assembly: Pick<Assembly, 'status' | 'voteOpensAt' | 'voteClosesAt'>, now: Date): VoteState {
  if (assembly.status === 'closed' || now >= assembly.voteClosesAt) return 'closed';
  return now >= assembly.voteOpensAt ? 'open' : 'before';
}

interface MemberContext {
  assembly: Assembly;
  member: RollEntry;
}

/** The assembly as the account's member sees it: convened or closed, and they are on its roll. */
async function memberContext(db: Kysely<Database>, userId: string, assemblyId: string): Promise<Result<MemberContext>> {
  const member = await memberOfUser(db, userId);
  if (!member) return fail(404, NOT_FOUND);
  const assembly = await findAssembly(db, assemblyId);
  if (!assembly || (assembly.status !== 'convened' && assembly.status !== 'closed')) return fail(404, NOT_FOUND);
  const entry = await findRollEntry(db, assembly.id, member.id);
  if (!entry) return fail(404, NOT_FOUND);
  return { ok: true, assembly, member: entry };
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface MemberAssemblySummary {
  id: string;
  title: string;
  kind: 'ordinary' | 'extraordinary';
  call: 'first' | 'second';
  startsAt: Date;
  voteOpensAt: Date;
  voteClosesAt: Date;
  voteState: VoteState;
  resultsPublished: boolean;
}

/** The assemblies the account's member was called to, the latest first. */
export async function listMemberAssemblies(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<MemberAssemblySummary[]> {
  const member = await memberOfUser(deps.db, userId);
  if (!member) return [];
  const rows = await deps.db
    .selectFrom('assemblies as a')
    .innerJoin('assembly_roll as r', 'r.assembly_id', 'a.id')
    .select(['a.id', 'a.title', 'a.kind', 'a.call', 'a.starts_at', 'a.vote_opens_at', 'a.vote_closes_at', 'a.status'])
    .where('r.member_id', '=', member.id)
    .where('a.status', 'in', ['convened', 'closed'])
    .orderBy('a.starts_at', 'desc')
    .execute();
  const now = deps.clock.now();
  return rows.map((r) => {
    const a = { status: r.status, voteOpensAt: new Date(r.vote_opens_at), voteClosesAt: new Date(r.vote_closes_at) };
    return {
      id: r.id,
      title: r.title,
      kind: r.kind,
      call: r.call,
      startsAt: new Date(r.starts_at),
      voteOpensAt: a.voteOpensAt,
      voteClosesAt: a.voteClosesAt,
      voteState: voteState(a, now),
      resultsPublished: r.status === 'closed',
    };
  });
}

export interface MemberAssemblyView {
  assembly: Omit<Assembly, 'rules' | 'results' | 'ballotsCast' | 'noticeAt' | 'rollDay' | 'createdAt' | 'firstCallId'> & {
    majority: Assembly['rules']['majority'];
    quorum: string;
    proxiesPerMember: number;
  };
  /** On second call: the first-call assembly that did not reach its quorum. */
  firstCall: { id: string; title: string; startsAt: Date } | null;
  documents: AssemblyDocument[];
  resolutions: Resolution[];
  me: { memberId: string; memberNumber: number; collegeId: string; attendance: AttendanceMode | null; votedOn: string[] };
  /** The proxy the member gave, if any. */
  proxyGiven: { holder: 'chair' | { memberNumber: number; name: string }; givenAt: Date } | null;
  /** Proxies the member holds, with the resolutions already voted for each. */
  proxiesHeld: Array<{ grantorId: string; memberNumber: number; name: string; votedOn: string[] }>;
  voteState: VoteState;
  /** Proxies can be given or revoked (until the vote opens). */
  proxiesOpen: boolean;
  results: AssemblyResults | null;
}

/** The notice, agenda, documents and resolutions of an assembly, with the member's own part. */
export async function memberAssembly(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  userId: string,
  assemblyId: string,
): Promise<Result<{ view: MemberAssemblyView }>> {
  const ctx = await memberContext(deps.db, userId, assemblyId);
  if (!ctx.ok) return ctx;
  const { assembly: a, member } = ctx;
  const now = deps.clock.now();
  const [documents, resolutions, attendance, given, held] = await Promise.all([
    listDocuments(deps.db, a.id),
    listResolutions(deps.db, a.id),
    deps.db.selectFrom('assembly_attendance').select('mode').where('assembly_id', '=', a.id).where('member_id', '=', member.memberId).executeTakeFirst(),
    standingProxies(deps.db, a.id, { grantorId: member.memberId }),
    standingProxies(deps.db, a.id, { holderId: member.memberId }),
  ]);
  const votedOn = async (memberId: string) =>
    (
      await deps.db.selectFrom('assembly_participation').select('resolution_id').where('assembly_id', '=', a.id).where('member_id', '=', memberId).execute()
    ).map((r) => r.resolution_id);
  let proxyGiven: MemberAssemblyView['proxyGiven'] = null;
  if (given[0]) {
    const holder = given[0].holderId ? await findRollEntry(deps.db, a.id, given[0].holderId) : undefined;
    proxyGiven = { holder: holder ? { memberNumber: holder.memberNumber, name: holder.name } : 'chair', givenAt: given[0].givenAt };
  }
  const proxiesHeld: MemberAssemblyView['proxiesHeld'] = [];
  for (const p of held) {
    const grantor = await findRollEntry(deps.db, a.id, p.grantorId);
    if (grantor)
      proxiesHeld.push({ grantorId: grantor.memberId, memberNumber: grantor.memberNumber, name: grantor.name, votedOn: await votedOn(grantor.memberId) });
  }
  const state = voteState(a, now);
  return {
    ok: true,
    view: {
      assembly: {
        id: a.id,
        kind: a.kind,
        call: a.call,
        title: a.title,
        startsAt: a.startsAt,
        place: a.place,
        onlineUrl: a.onlineUrl,
        agenda: a.agenda,
        voteOpensAt: a.voteOpensAt,
        voteClosesAt: a.voteClosesAt,
        status: a.status,
        noticeSentAt: a.noticeSentAt,
        closedAt: a.closedAt,
        majority: a.rules.majority,
        quorum: `${a.rules.quorum.n}/${a.rules.quorum.d}`,
        proxiesPerMember: a.rules.proxiesPerMember,
      },
      firstCall: (await findFirstCall(deps.db, a)) ?? null,
      documents,
      resolutions,
      me: {
        memberId: member.memberId,
        memberNumber: member.memberNumber,
        collegeId: member.collegeId,
        attendance: attendance?.mode ?? null,
        votedOn: await votedOn(member.memberId),
      },
      proxyGiven,
      proxiesHeld,
      voteState: state,
      proxiesOpen: a.status === 'convened' && state === 'before',
      results: a.status === 'closed' ? a.results : null,
    },
  };
}

/** One of the assembly's documents, for a member on its roll: its stored bytes, or its path under public/. */
export async function memberDocument(
  db: Kysely<Database>,
  userId: string,
  assemblyId: string,
  documentId: string,
): Promise<
  | { filename: string; contentType: string; bytes: Uint8Array; path?: never }
  | { filename: string; contentType: string; path: string; bytes?: never }
  | undefined
> {
  const ctx = await memberContext(db, userId, assemblyId);
  if (!ctx.ok) return undefined;
  const row = await db
    .selectFrom('assembly_documents')
    .select(['filename', 'content_type', 'bytes', 'path'])
    .where('id', '=', documentId)
    .where('assembly_id', '=', ctx.assembly.id)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.bytes) return { filename: row.filename, contentType: row.content_type, bytes: new Uint8Array(row.bytes) };
  return row.path ? { filename: row.filename, contentType: row.content_type, path: row.path } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Attendance

export const ATTENDANCE_LABELS: Record<AttendanceMode, string> = {
  present: 'Je participerai sur place',
  remote: 'Je participerai à distance',
  absent: 'Je ne participerai pas',
};
const attendanceMode = z.enum(['present', 'remote', 'absent']);

/** Says whether the member will attend (present, remote, absent), until the assembly starts. */
export async function setAttendance(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  userId: string,
  assemblyId: string,
  mode: string,
): Promise<Result<{ mode: AttendanceMode }>> {
  const parsed = attendanceMode.safeParse(mode);
  if (!parsed.success) return fail(422, 'Choisissez « présent », « à distance » ou « absent ».');
  const ctx = await memberContext(deps.db, userId, assemblyId);
  if (!ctx.ok) return ctx;
  const now = deps.clock.now();
  if (ctx.assembly.status !== 'convened' || now >= ctx.assembly.startsAt) return fail(409, 'L’assemblée a commencé : votre réponse ne peut plus changer.');
  await deps.db
    .insertInto('assembly_attendance')
    .values({ assembly_id: ctx.assembly.id, member_id: ctx.member.memberId, mode: parsed.data, updated_at: toTimestamp(now) })
    .onConflict((oc) => oc.columns(['assembly_id', 'member_id']).doUpdateSet({ mode: parsed.data, updated_at: toTimestamp(now) }))
    .execute();
  return { ok: true, mode: parsed.data };
}

// ---------------------------------------------------------------------------------------------
// Proxies

const PROXIES_CLOSED = 'Le vote est ouvert : les pouvoirs ne peuvent plus être donnés ni retirés.';

/** Who receives the proxy: a member called to the same assembly (by member number), or the chair. */
export type ProxyHolder = { memberNumber: number } | 'chair';

/**
 * Gives the member's proxy, until the vote opens: to the chair, or to another member on the
 * roll who has not given theirs, within the statutes' number per holder (one unique slot per
 * proxy held, so that two proxies given at once cannot both take the last one).
 */
export async function giveProxy(deps: BallotDeps, userId: string, assemblyId: string, holder: ProxyHolder): Promise<Result<{ proxyId: string }>> {
  const ctx = await memberContext(deps.db, userId, assemblyId);
  if (!ctx.ok) return ctx;
  const { assembly, member } = ctx;
  const now = deps.clock.now();
  if (assembly.status !== 'convened' || voteState(assembly, now) !== 'before') return fail(409, PROXIES_CLOSED);

  let holderEntry: RollEntry | undefined;
  if (holder !== 'chair') {
    if (!Number.isSafeInteger(holder.memberNumber) || holder.memberNumber <= 0)
      return fail(422, 'Indiquez le numéro de sociétaire de la personne à qui vous donnez pouvoir.');
    const row = await deps.db
      .selectFrom('assembly_roll')
      .selectAll()
      .where('assembly_id', '=', assembly.id)
      .where('member_number', '=', holder.memberNumber)
      .executeTakeFirst();
    if (!row) return fail(422, `Aucun sociétaire convoqué à cette assemblée ne porte le numéro ${holder.memberNumber}.`);
    holderEntry = { memberId: row.member_id, memberNumber: Number(row.member_number), name: row.name, collegeId: row.college_id, shares: Number(row.shares) };
    if (holderEntry.memberId === member.memberId)
      return fail(422, 'Vous ne pouvez pas vous donner pouvoir à vous-même : choisissez un autre sociétaire, ou la présidence.');
    if (assembly.rules.proxiesPerMember === 0) return fail(422, 'Les statuts ne permettent de donner pouvoir qu’à la présidence.');
  }

  const outcome = await writeTransaction(deps.db, async (trx): Promise<Result<{ proxyId: string }>> => {
    if ((await standingProxies(trx, assembly.id, { grantorId: member.memberId })).length > 0)
      return fail(409, 'Vous avez déjà donné pouvoir pour cette assemblée : retirez-le d’abord pour en choisir un autre.');
    if ((await standingProxies(trx, assembly.id, { holderId: member.memberId })).length > 0)
      return fail(409, 'D’autres sociétaires vous ont confié leur pouvoir : vous ne pouvez pas donner le vôtre.');
    const id = newId();
    const base = { id, assembly_id: assembly.id, grantor_id: member.memberId, given_at: toTimestamp(now), revoked_at: null };
    if (!holderEntry) {
      const inserted = await trx
        .insertInto('assembly_proxies')
        .values({ ...base, holder_id: null, slot: null })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted
        ? { ok: true, proxyId: id }
        : fail(409, 'Vous avez déjà donné pouvoir pour cette assemblée : retirez-le d’abord pour en choisir un autre.');
    }
    if ((await standingProxies(trx, assembly.id, { grantorId: holderEntry.memberId })).length > 0)
      return fail(422, `${holderEntry.name} a donné son propre pouvoir : choisissez un autre sociétaire, ou la présidence.`);
    const taken = new Set(
      (
        await trx
          .selectFrom('assembly_proxies')
          .select('slot')
          .where('assembly_id', '=', assembly.id)
          .where('holder_id', '=', holderEntry.memberId)
          .where('revoked_at', 'is', null)
          .execute()
      ).map((r) => Number(r.slot)),
    );
    for (let slot = 1; slot <= assembly.rules.proxiesPerMember; slot++) {
      if (taken.has(slot)) continue;
      // A slot taken meanwhile (or a proxy of this grantor given meanwhile) makes the insert do nothing.
      const inserted = await trx
        .insertInto('assembly_proxies')
        .values({ ...base, holder_id: holderEntry.memberId, slot })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        const user = await holderUser(trx, holderEntry.memberId);
        if (user) {
          const mail = proxyReceivedMail({
            siteUrl: deps.siteUrl,
            assemblyId: assembly.id,
            title: assembly.title,
            startsAt: assembly.startsAt,
            grantorName: member.name,
            voteOpensAt: assembly.voteOpensAt,
            voteClosesAt: assembly.voteClosesAt,
          });
          await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), { uniqueKey: `assemblies.proxy-mail:${id}` });
        }
        return { ok: true, proxyId: id };
      }
      if ((await standingProxies(trx, assembly.id, { grantorId: member.memberId })).length > 0)
        return fail(409, 'Vous avez déjà donné pouvoir pour cette assemblée : retirez-le d’abord pour en choisir un autre.');
    }
    return fail(
      409,
      `${holderEntry.name} détient déjà ${assembly.rules.proxiesPerMember} pouvoir${assembly.rules.proxiesPerMember > 1 ? 's' : ''}, le plus que permettent les statuts : choisissez un autre sociétaire, ou la présidence.`,
    );
  });
  if (outcome.ok) deps.jobs.wake();
  return outcome;
}

async function holderUser(db: Kysely<Database>, memberId: string) {
  const row = await db.selectFrom('share_members').select('user_id').where('id', '=', memberId).executeTakeFirst();
  return row?.user_id ? findUser(db, row.user_id) : undefined;
}

/** Takes back the member's proxy, until the vote opens. */
export async function revokeProxy(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string, assemblyId: string): Promise<Result> {
  const ctx = await memberContext(deps.db, userId, assemblyId);
  if (!ctx.ok) return ctx;
  const now = deps.clock.now();
  if (ctx.assembly.status !== 'convened' || voteState(ctx.assembly, now) !== 'before') return fail(409, PROXIES_CLOSED);
  const revoked = await deps.db
    .updateTable('assembly_proxies')
    .set({ revoked_at: toTimestamp(now) })
    .where('assembly_id', '=', ctx.assembly.id)
    .where('grantor_id', '=', ctx.member.memberId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (revoked.numUpdatedRows === 0n) return fail(404, 'Vous n’avez pas donné de pouvoir pour cette assemblée.');
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Votes

export const CHOICE_LABELS: Record<BallotChoice, string> = { pour: 'Pour', contre: 'Contre', abstention: 'Abstention' };
const choiceSchema = z.enum(['pour', 'contre', 'abstention']);

/** A refusal thrown inside the vote's transaction, so that nothing of it stays. */
class Refusal extends Error {
  readonly status: FailureStatus;
  constructor(status: FailureStatus, message: string) {
    super(message);
    this.status = status;
  }
}

/** A receipt: 256 random bits, shown once to the voter; only `sha256(receipt:resolution)` is kept, on each ballot. */
export const newReceipt = (): string => randomBytes(32).toString('base64url');
const RECEIPT = /^[A-Za-z0-9_-]{43}$/;

/**
 * Writes one member's ballots in the caller's transaction: a participation row per resolution
 * (unique per resolution and member: a second ballot inserts nothing and the whole submission
 * is refused), then the ballot, without the voter. Throws a Refusal to roll everything back.
 */
export async function insertBallots(
  trx: Kysely<Database>,
  input: {
    assemblyId: string;
    memberId: string;
    collegeId: string;
    via: ParticipationVia;
    holderId: string | null;
    receipt: string;
    choices: ReadonlyArray<{ resolution: Resolution; choice: BallotChoice }>;
    now: Date;
  },
): Promise<void> {
  for (const { resolution, choice } of input.choices) {
    const took = await trx
      .insertInto('assembly_participation')
      .values({
        id: newId(),
        assembly_id: input.assemblyId,
        resolution_id: resolution.id,
        member_id: input.memberId,
        voted_at: toTimestamp(input.now),
        via: input.via,
        proxy_holder_id: input.holderId,
      })
      .onConflict((oc) => oc.columns(['resolution_id', 'member_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!took)
      throw new Refusal(
        409,
        `Un vote est déjà enregistré sur la résolution n° ${resolution.position} pour ce sociétaire : il ne peut être ni changé ni compté deux fois.`,
      );
    await trx
      .insertInto('assembly_ballots')
      .values({
        id: randomUUID(),
        assembly_id: input.assemblyId,
        resolution_id: resolution.id,
        college_id: input.collegeId,
        choice,
        receipt_hash: receiptHash(input.receipt, resolution.id),
      })
      .execute();
  }
}

/**
 * Casts the member's votes (or, with `onBehalfOf`, those of a member whose proxy they hold) on
 * some or all of the resolutions, while the vote is open. One ballot per member and resolution,
 * ever: a second one is refused and the submission changes nothing. Answers the receipt, once.
 */
export async function castVotes(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  userId: string,
  assemblyId: string,
  input: { choices: Record<string, string>; onBehalfOf?: string },
): Promise<Result<{ receipt: string; resolutions: number }>> {
  const ctx = await memberContext(deps.db, userId, assemblyId);
  if (!ctx.ok) return ctx;
  const { assembly, member } = ctx;
  const now = deps.clock.now();
  const state = voteState(assembly, now);
  if (state === 'before') return fail(409, `Le vote n’est pas encore ouvert : il ouvre le ${formatDateTime(assembly.voteOpensAt)}.`);
  if (state === 'closed') return fail(409, `Le vote est clos depuis le ${formatDateTime(assembly.voteClosesAt)}.`);

  // Whose vote: the member's own, or a grantor's whose standing proxy this member holds.
  let voter: RollEntry = member;
  let via: ParticipationVia = 'direct';
  let holderId: string | null = null;
  if (input.onBehalfOf && input.onBehalfOf !== member.memberId) {
    const proxy = (await standingProxies(deps.db, assembly.id, { grantorId: input.onBehalfOf, holderId: member.memberId }))[0];
    const grantor = proxy ? await findRollEntry(deps.db, assembly.id, proxy.grantorId) : undefined;
    if (!grantor) return fail(404, 'Pouvoir introuvable : ce sociétaire ne vous a pas confié son vote pour cette assemblée.');
    voter = grantor;
    via = 'proxy';
    holderId = member.memberId;
  } else if ((await standingProxies(deps.db, assembly.id, { grantorId: member.memberId })).length > 0) {
    return fail(409, 'Vous avez donné pouvoir pour cette assemblée : c’est la personne qui le détient qui vote pour vous.');
  }

  const resolutions = new Map((await listResolutions(deps.db, assembly.id)).map((r) => [r.id, r]));
  const choices: Array<{ resolution: Resolution; choice: BallotChoice }> = [];
  for (const [resolutionId, value] of Object.entries(input.choices ?? {})) {
    const resolution = resolutions.get(resolutionId);
    if (!resolution) return fail(404, 'Résolution introuvable dans cette assemblée.');
    const choice = choiceSchema.safeParse(value);
    if (!choice.success) return fail(422, `Résolution n° ${resolution.position} : choisissez « pour », « contre » ou « abstention ».`);
    choices.push({ resolution, choice: choice.data });
  }
  if (choices.length === 0) return fail(422, 'Choisissez votre vote sur au moins une résolution.');
  choices.sort((a, b) => a.resolution.position - b.resolution.position);

  const receipt = newReceipt();
  try {
    await writeTransaction(deps.db, async (trx) => {
      // The assembly's row first: a vote and the closing take the same lock, so no ballot lands
      // after the count, and the window is checked by the statement that takes it.
      const open = await trx
        .updateTable('assemblies')
        .set((eb) => ({ ballots_cast: eb('ballots_cast', '+', choices.length) }))
        .where('id', '=', assembly.id)
        .where('status', '=', 'convened')
        .where('vote_opens_at', '<=', toTimestamp(now))
        .where('vote_closes_at', '>', toTimestamp(now))
        .executeTakeFirst();
      if (open.numUpdatedRows === 0n) throw new Refusal(409, 'Le vote est clos.');
      await insertBallots(trx, { assemblyId: assembly.id, memberId: voter.memberId, collegeId: voter.collegeId, via, holderId, receipt, choices, now });
    });
  } catch (error) {
    if (error instanceof Refusal) return fail(error.status, error.message);
    throw error;
  }
  log.info('assemblies.voted', { assemblyId: assembly.id, resolutions: choices.length, via });
  return { ok: true, receipt, resolutions: choices.length };
}

// ---------------------------------------------------------------------------------------------
// Receipts and the published ballots

export interface VerifiedBallot {
  ballotId: string;
  position: number;
  title: string;
  collegeId: string;
  choice: BallotChoice;
}

/**
 * The ballots a receipt belongs to, as they are in the box (and, once the vote is closed, in the
 * published list): anyone holding the receipt may check it; nothing says who voted.
 */
export async function verifyReceipt(
  db: Kysely<Database>,
  assemblyId: string,
  receipt: string,
): Promise<Result<{ ballots: VerifiedBallot[]; published: boolean }>> {
  const trimmed = receipt.trim();
  if (!RECEIPT.test(trimmed)) return fail(422, 'Ce reçu n’a pas la bonne forme : copiez les 43 caractères affichés après votre vote.');
  const assembly = await findAssembly(db, assemblyId);
  if (!assembly || (assembly.status !== 'convened' && assembly.status !== 'closed')) return fail(404, NOT_FOUND);
  const resolutions = await listResolutions(db, assembly.id);
  const byHash = new Map(resolutions.map((r) => [receiptHash(trimmed, r.id), r]));
  const rows = await db
    .selectFrom('assembly_ballots')
    .select(['id', 'receipt_hash', 'college_id', 'choice'])
    .where('assembly_id', '=', assembly.id)
    .where('receipt_hash', 'in', [...byHash.keys()])
    .execute();
  if (rows.length === 0) return fail(404, 'Aucun bulletin ne correspond à ce reçu dans cette assemblée.');
  const ballots = rows
    .map((r) => {
      const resolution = byHash.get(r.receipt_hash)!;
      return { ballotId: r.id, position: resolution.position, title: resolution.title, collegeId: r.college_id, choice: r.choice };
    })
    .sort((a, b) => a.position - b.position);
  return { ok: true, ballots, published: assembly.status === 'closed' };
}

/** The published list of ballots (once the vote is closed), for a member on the roll. */
export async function memberPublishedBallots(db: Kysely<Database>, userId: string, assemblyId: string): Promise<Result<{ ballots: PublishedBallot[] }>> {
  const ctx = await memberContext(db, userId, assemblyId);
  if (!ctx.ok) return ctx;
  if (ctx.assembly.status !== 'closed') return fail(409, 'La liste des bulletins est publiée à la clôture du vote.');
  return { ok: true, ballots: await ballotBox(db, ctx.assembly.id) };
}

/**
 * At the close, the proxies given to the chair that have not been used: the chair votes for the
 * resolutions the board proposed and against the others (as the Code de commerce has it for
 * blank proxies, art. L225-106). Run in the closing transaction.
 */
export async function castChairProxies(trx: Kysely<Database>, assembly: Assembly, now: Date): Promise<number> {
  const resolutions = await listResolutions(trx, assembly.id);
  const proxies = (await standingProxies(trx, assembly.id)).filter((p) => p.holderId === null);
  let cast = 0;
  for (const proxy of proxies) {
    const grantor = await findRollEntry(trx, assembly.id, proxy.grantorId);
    if (!grantor) continue;
    const voted = new Set(
      (
        await trx
          .selectFrom('assembly_participation')
          .select('resolution_id')
          .where('assembly_id', '=', assembly.id)
          .where('member_id', '=', grantor.memberId)
          .execute()
      ).map((r) => r.resolution_id),
    );
    const choices = resolutions
      .filter((r) => !voted.has(r.id))
      .map((resolution) => ({ resolution, choice: (resolution.boardProposal ? 'pour' : 'contre') as BallotChoice }));
    if (choices.length === 0) continue;
    // Nobody is given this receipt: its hash only keeps the ballots alike.
    await insertBallots(trx, {
      assemblyId: assembly.id,
      memberId: grantor.memberId,
      collegeId: grantor.collegeId,
      via: 'chair',
      holderId: null,
      receipt: newReceipt(),
      choices,
      now,
    });
    cast += choices.length;
  }
  return cast;
}
