/**
 * Rows of the assemblies' tables mapped to domain types, in one place; shared by the
 * back-office side (assemblies.ts) and the members' side (ballots.ts).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Fraction } from '../../config/statutes';
import type { AssemblyCall, AssemblyStatus, Database } from '../db/database';
import type { AssemblyResults, CollegeRule, MajorityRule } from './tally';

/** The statutes' rules for one assembly, frozen when it is created. */
export interface AssemblyRules {
  statutesVersion: string;
  /** The quorum of its kind and call. */
  quorum: Fraction;
  majority: MajorityRule;
  colleges: CollegeRule[];
  proxiesPerMember: number;
  noticeDays: number;
}

export interface Assembly {
  id: string;
  kind: 'ordinary' | 'extraordinary';
  call: AssemblyCall;
  title: string;
  startsAt: Date;
  place: string;
  onlineUrl: string;
  agenda: string[];
  voteOpensAt: Date;
  voteClosesAt: Date;
  rules: AssemblyRules;
  status: AssemblyStatus;
  noticeAt: Date | null;
  noticeSentAt: Date | null;
  rollDay: string | null;
  ballotsCast: number;
  closedAt: Date | null;
  results: AssemblyResults | null;
  /** On second call: the first-call assembly that did not reach its quorum. */
  firstCallId: string | null;
  createdAt: Date;
}

export interface Resolution {
  id: string;
  position: number;
  title: string;
  text: string;
  boardProposal: boolean;
}

export interface AssemblyDocument {
  id: string;
  position: number;
  title: string;
  filename: string;
  contentType: string;
  /** A file under public/ rather than stored bytes. */
  path: string | null;
}

export interface RollEntry {
  memberId: string;
  memberNumber: number;
  name: string;
  collegeId: string;
  shares: number;
}

const date = (value: string | null): Date | null => (value === null ? null : new Date(value));

/** The first-call assembly that `assembly` convenes again, if it is a second call. */
export async function findFirstCall(
  db: Kysely<Database>,
  assembly: Pick<Assembly, 'firstCallId'>,
): Promise<{ id: string; title: string; startsAt: Date } | undefined> {
  if (!assembly.firstCallId) return undefined;
  const row = await db.selectFrom('assemblies').select(['id', 'title', 'starts_at']).where('id', '=', assembly.firstCallId).executeTakeFirst();
  return row ? { id: row.id, title: row.title, startsAt: new Date(row.starts_at) } : undefined;
}

export async function findAssembly(db: Kysely<Database>, id: string): Promise<Assembly | undefined> {
  const r = await db.selectFrom('assemblies').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    kind: r.kind,
    call: r.call,
    title: r.title,
    startsAt: new Date(r.starts_at),
    place: r.place,
    onlineUrl: r.online_url,
    agenda: JSON.parse(r.agenda) as string[],
    voteOpensAt: new Date(r.vote_opens_at),
    voteClosesAt: new Date(r.vote_closes_at),
    rules: JSON.parse(r.rules) as AssemblyRules,
    status: r.status,
    noticeAt: date(r.notice_at),
    noticeSentAt: date(r.notice_sent_at),
    rollDay: r.roll_day,
    ballotsCast: Number(r.ballots_cast),
    closedAt: date(r.closed_at),
    results: r.results ? (JSON.parse(r.results) as AssemblyResults) : null,
    firstCallId: r.first_call_id ?? null,
    createdAt: new Date(r.created_at),
  };
}

export async function listResolutions(db: Kysely<Database>, assemblyId: string): Promise<Resolution[]> {
  const rows = await db
    .selectFrom('assembly_resolutions')
    .select(['id', 'position', 'title', 'text', 'board_proposal'])
    .where('assembly_id', '=', assemblyId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position), title: r.title, text: r.text, boardProposal: Number(r.board_proposal) === 1 }));
}

export async function listDocuments(db: Kysely<Database>, assemblyId: string): Promise<AssemblyDocument[]> {
  const rows = await db
    .selectFrom('assembly_documents')
    .select(['id', 'position', 'title', 'filename', 'content_type', 'path'])
    .where('assembly_id', '=', assemblyId)
    .orderBy('position')
    .execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position), title: r.title, filename: r.filename, contentType: r.content_type, path: r.path }));
}

export async function listRoll(db: Kysely<Database>, assemblyId: string): Promise<RollEntry[]> {
  const rows = await db.selectFrom('assembly_roll').selectAll().where('assembly_id', '=', assemblyId).orderBy('member_number').execute();
  return rows.map(toRollEntry);
}

export async function findRollEntry(db: Kysely<Database>, assemblyId: string, memberId: string): Promise<RollEntry | undefined> {
  const row = await db.selectFrom('assembly_roll').selectAll().where('assembly_id', '=', assemblyId).where('member_id', '=', memberId).executeTakeFirst();
  return row ? toRollEntry(row) : undefined;
}

const toRollEntry = (r: { member_id: string; member_number: number; name: string; college_id: string; shares: number }): RollEntry => ({
  memberId: r.member_id,
  memberNumber: Number(r.member_number),
  name: r.name,
  collegeId: r.college_id,
  shares: Number(r.shares),
});

/** The member of an account (whatever it holds today); undefined for an account that never was one. */
export async function memberOfUser(db: Kysely<Database>, userId: string): Promise<{ id: string; memberNumber: number; name: string } | undefined> {
  const row = await db.selectFrom('share_members').select(['id', 'member_number', 'name']).where('user_id', '=', userId).executeTakeFirst();
  return row ? { id: row.id, memberNumber: Number(row.member_number), name: row.name } : undefined;
}

export interface StandingProxy {
  id: string;
  grantorId: string;
  /** Null: the chair. */
  holderId: string | null;
  givenAt: Date;
}

/** Proxies not revoked, of an assembly (of one grantor or one holder when given). */
export async function standingProxies(
  db: Kysely<Database>,
  assemblyId: string,
  filter: { grantorId?: string; holderId?: string } = {},
): Promise<StandingProxy[]> {
  let query = db
    .selectFrom('assembly_proxies')
    .select(['id', 'grantor_id', 'holder_id', 'given_at'])
    .where('assembly_id', '=', assemblyId)
    .where('revoked_at', 'is', null);
  if (filter.grantorId) query = query.where('grantor_id', '=', filter.grantorId);
  if (filter.holderId) query = query.where('holder_id', '=', filter.holderId);
  const rows = await query.orderBy('given_at').execute();
  return rows.map((r) => ({ id: r.id, grantorId: r.grantor_id, holderId: r.holder_id, givenAt: new Date(r.given_at) }));
}

/** The hash stored on a ballot: sha-256 of the receipt and the resolution (one receipt covers a submission). */
export const receiptHash = (receipt: string, resolutionId: string): string => createHash('sha256').update(`${receipt}:${resolutionId}`).digest('hex');

export interface PublishedBallot {
  id: string;
  resolutionId: string;
  position: number;
  collegeId: string;
  choice: 'pour' | 'contre' | 'abstention';
  receiptHash: string;
}

/** The ballot box of an assembly, by resolution then random id (an order that says nothing of the votes' order). */
export async function ballotBox(db: Kysely<Database>, assemblyId: string): Promise<PublishedBallot[]> {
  const rows = await db
    .selectFrom('assembly_ballots as b')
    .innerJoin('assembly_resolutions as r', 'r.id', 'b.resolution_id')
    .select(['b.id', 'b.resolution_id', 'r.position', 'b.college_id', 'b.choice', 'b.receipt_hash'])
    .where('b.assembly_id', '=', assemblyId)
    .orderBy('r.position')
    .orderBy('b.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    resolutionId: r.resolution_id,
    position: Number(r.position),
    collegeId: r.college_id,
    choice: r.choice,
    receiptHash: r.receipt_hash,
  }));
}

/** sha-256 of the published list of ballots, one line each (`id;position;college;choice;receipt hash`): printed on the minutes. */
export function ballotsDigest(ballots: readonly PublishedBallot[]): string {
  const hash = createHash('sha256');
  for (const b of ballots) hash.update(`${b.id};${b.position};${b.collegeId};${b.choice};${b.receiptHash}\n`);
  return hash.digest('hex');
}
