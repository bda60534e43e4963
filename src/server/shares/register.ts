/**
 * The register of members and their shares (registre des sociétaires), the cooperative's legal
 * record. Entries are only ever added (the tables refuse UPDATE and DELETE); every number in it
 * comes from a counter row taken in the entry's own transaction (billing/numbering.ts), so entry,
 * member and certificate numbers have no gaps. What a member holds, which college they are in,
 * the capital and the list of members are derived from the entries, never stored.
 */
import type { Kysely } from 'kysely';
import { allotNumber } from '../billing/numbering';
import { type Database, newId, type RegisterEntryKind, toTimestamp } from '../db/database';

/** Counter series of the register (rows of `document_counters`). */
export const REGISTER_SERIES = { entry: 'REG', member: 'SOC', certificate: 'PS' } as const;

export interface MemberIdentity {
  person: 'natural' | 'legal';
  /** Civil name as registered (« Inès Durand »), or the legal person's name. */
  name: string;
  givenName: string;
  familyName: string;
  /** A legal person's SIREN and the natural person who represents it. */
  company?: { name: string; siren: string; representative: string; role: string };
  address: { line1: string; line2: string; postalCode: string; city: string; country: string };
}

export interface RegisterEntry {
  id: string;
  entryNumber: number;
  memberId: string;
  kind: RegisterEntryKind;
  collegeId: string;
  sharesDelta: number;
  nominalCents: number;
  repaidCents: number;
  certificateNumber: number | null;
  bulletinId: string | null;
  withdrawalId: string | null;
  effectiveOn: string;
  recordedAt: Date;
  recordedBy: string | null;
  note: string;
}

export interface Holding {
  memberId: string;
  memberNumber: number;
  userId: string | null;
  name: string;
  person: 'natural' | 'legal';
  collegeId: string;
  /** Shares held on `asOf` (entries effective that day or before). */
  shares: number;
  /** First admission day. */
  memberSince: string;
}

/**
 * Holds the register until the transaction ends: every writer of the register takes the entry
 * counter's row first (billing/numbering.ts creates it if needed), so a check made after this
 * (the capital floor, what a member still holds) sees every entry committed before it, and no
 * other entry can slip in until this transaction ends. SQLite's single writer does the same.
 */
export async function lockRegister(trx: Kysely<Database>): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const held = await trx
      .updateTable('document_counters')
      .set((eb) => ({ last_number: eb.ref('last_number') }))
      .where('series', '=', REGISTER_SERIES.entry)
      .executeTakeFirst();
    if (held.numUpdatedRows > 0n) return;
    await trx
      .insertInto('document_counters')
      .values({ series: REGISTER_SERIES.entry, last_number: 0 })
      .onConflict((oc) => oc.column('series').doNothing())
      .execute();
  }
}

/** The member of an account, created with its number at the first admission. */
export async function ensureMember(
  trx: Kysely<Database>,
  userId: string | null,
  identity: MemberIdentity,
  now: Date,
): Promise<{ id: string; memberNumber: number; created: boolean }> {
  if (userId) {
    const found = await trx.selectFrom('share_members').select(['id', 'member_number']).where('user_id', '=', userId).executeTakeFirst();
    if (found) return { id: found.id, memberNumber: found.member_number, created: false };
  }
  const id = newId();
  const memberNumber = await allotNumber(trx, REGISTER_SERIES.member);
  await trx
    .insertInto('share_members')
    .values({
      id,
      member_number: memberNumber,
      user_id: userId,
      person: identity.person,
      name: identity.name,
      identity: JSON.stringify(identity),
      created_at: toTimestamp(now),
    })
    .execute();
  return { id, memberNumber, created: true };
}

/** Adds an entry to the register, with its gapless number (and a certificate number for an admission). Run it in a write transaction. */
export async function addRegisterEntry(
  trx: Kysely<Database>,
  entry: {
    memberId: string;
    kind: RegisterEntryKind;
    collegeId: string;
    sharesDelta?: number;
    nominalCents: number;
    repaidCents?: number;
    bulletinId?: string | null;
    withdrawalId?: string | null;
    effectiveOn: string;
    recordedBy: string | null;
    note: string;
  },
  now: Date,
): Promise<RegisterEntry> {
  const entryNumber = await allotNumber(trx, REGISTER_SERIES.entry);
  const certificateNumber = entry.kind === 'admission' ? await allotNumber(trx, REGISTER_SERIES.certificate) : null;
  const row = {
    id: newId(),
    entry_number: entryNumber,
    member_id: entry.memberId,
    kind: entry.kind,
    college_id: entry.collegeId,
    shares_delta: entry.sharesDelta ?? 0,
    nominal_cents: entry.nominalCents,
    repaid_cents: entry.repaidCents ?? 0,
    certificate_number: certificateNumber,
    bulletin_id: entry.bulletinId ?? null,
    withdrawal_id: entry.withdrawalId ?? null,
    effective_on: entry.effectiveOn,
    recorded_at: toTimestamp(now),
    recorded_by: entry.recordedBy,
    note: entry.note,
  };
  await trx.insertInto('share_register').values(row).execute();
  return toEntry(row);
}

type EntryRow = {
  id: string;
  entry_number: number;
  member_id: string;
  kind: RegisterEntryKind;
  college_id: string;
  shares_delta: number;
  nominal_cents: number;
  repaid_cents: number;
  certificate_number: number | null;
  bulletin_id: string | null;
  withdrawal_id: string | null;
  effective_on: string;
  recorded_at: string;
  recorded_by: string | null;
  note: string;
};

const toEntry = (r: EntryRow): RegisterEntry => ({
  id: r.id,
  entryNumber: Number(r.entry_number),
  memberId: r.member_id,
  kind: r.kind,
  collegeId: r.college_id,
  sharesDelta: Number(r.shares_delta),
  nominalCents: Number(r.nominal_cents),
  repaidCents: Number(r.repaid_cents),
  certificateNumber: r.certificate_number === null ? null : Number(r.certificate_number),
  bulletinId: r.bulletin_id,
  withdrawalId: r.withdrawal_id,
  effectiveOn: r.effective_on,
  recordedAt: new Date(r.recorded_at),
  recordedBy: r.recorded_by,
  note: r.note,
});

/** Every entry, oldest first (of one member when given). */
export async function registerEntries(db: Kysely<Database>, memberId?: string): Promise<RegisterEntry[]> {
  let query = db.selectFrom('share_register').selectAll().orderBy('entry_number');
  if (memberId) query = query.where('member_id', '=', memberId);
  return (await query.execute()).map(toEntry);
}

/**
 * The holdings derived from the entries on a day (YYYY-MM-DD, Paris), one per member who holds
 * at least one share then: the college is the one of their latest entry effective by then.
 * Pure, so that the register's derivation can be tested against any list of entries.
 */
export function deriveHoldings(
  entries: readonly RegisterEntry[],
  members: ReadonlyMap<string, { memberNumber: number; userId: string | null; name: string; person: 'natural' | 'legal' }>,
  asOf: string,
): Holding[] {
  const state = new Map<string, { shares: number; collegeId: string; since: string | null; last: number }>();
  for (const e of [...entries].sort((a, b) => a.entryNumber - b.entryNumber)) {
    if (e.effectiveOn > asOf) continue;
    const current = state.get(e.memberId) ?? { shares: 0, collegeId: e.collegeId, since: null, last: 0 };
    current.shares += e.sharesDelta;
    current.collegeId = e.collegeId;
    if (e.kind === 'admission' && current.since === null) current.since = e.effectiveOn;
    current.last = e.entryNumber;
    state.set(e.memberId, current);
  }
  const holdings: Holding[] = [];
  for (const [memberId, s] of state) {
    const member = members.get(memberId);
    if (!member || s.shares <= 0) continue;
    holdings.push({
      memberId,
      memberNumber: member.memberNumber,
      userId: member.userId,
      name: member.name,
      person: member.person,
      collegeId: s.collegeId,
      shares: s.shares,
      memberSince: s.since ?? '',
    });
  }
  return holdings.sort((a, b) => a.memberNumber - b.memberNumber);
}

/** Every member of the register, by id, as `deriveHoldings` takes them. */
export async function memberMap(db: Kysely<Database>) {
  const rows = await db.selectFrom('share_members').select(['id', 'member_number', 'user_id', 'name', 'person']).execute();
  return new Map(rows.map((r) => [r.id, { memberNumber: Number(r.member_number), userId: r.user_id, name: r.name, person: r.person }]));
}

/** The members on a day, with their shares and college (derived from the register). */
export async function currentHoldings(db: Kysely<Database>, asOf: string): Promise<Holding[]> {
  return deriveHoldings(await registerEntries(db), await memberMap(db), asOf);
}

/** The holding of one account's member on a day; undefined when the account holds no share then. */
export async function holdingOfUser(db: Kysely<Database>, userId: string, asOf: string): Promise<Holding | undefined> {
  const member = await db
    .selectFrom('share_members')
    .select(['id', 'member_number', 'user_id', 'name', 'person'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!member) return undefined;
  const entries = await registerEntries(db, member.id);
  const map = new Map([[member.id, { memberNumber: Number(member.member_number), userId: member.user_id, name: member.name, person: member.person }]]);
  return deriveHoldings(entries, map, asOf)[0];
}

/** The capital on a day: shares held times their nominal value, summed over the entries effective by then. */
export function capitalOf(entries: readonly RegisterEntry[], asOf: string): number {
  return entries.filter((e) => e.effectiveOn <= asOf).reduce((sum, e) => sum + e.sharesDelta * e.nominalCents, 0);
}

/** The highest capital ever reached, after each entry in order of effect (the withdrawal floor's reference). */
export function highestCapital(entries: readonly RegisterEntry[]): number {
  let capital = 0;
  let highest = 0;
  const ordered = [...entries].sort((a, b) => (a.effectiveOn === b.effectiveOn ? a.entryNumber - b.entryNumber : a.effectiveOn < b.effectiveOn ? -1 : 1));
  for (const e of ordered) {
    capital += e.sharesDelta * e.nominalCents;
    highest = Math.max(highest, capital);
  }
  return highest;
}
