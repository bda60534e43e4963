/**
 * General assemblies on both databases, through the services and the real jobs: the notice
 * (deadline, one mail per member, never twice), the vote window, proxies (limit under
 * concurrency, revocation until the vote opens), one ballot per member and resolution under
 * concurrent submissions, receipts, append-only ballots, results recounted from the box and
 * checked against a reference on random assemblies, the minutes, and every row reached through
 * the session's member only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import { openDatabase } from '../db/client';
import type { BallotChoice } from '../db/database';
import { writeTransaction } from '../db/transaction';
import type { Mailer, OutgoingMail } from '../mail/transport';
import {
  addDocument,
  addResolution,
  assemblyForStaff,
  closeAssembly,
  createAssembly,
  createSecondCall,
  memberMinutesPdf,
  minutesPdf,
  recountAssembly,
  scheduleNotice,
} from './assemblies';
import { findAssembly, listDocuments } from './assembly-repository';
import { listResolutions, listRoll, receiptHash } from './assembly-repository';
import {
  castVotes,
  giveProxy,
  listMemberAssemblies,
  memberAssembly,
  memberDocument,
  memberPublishedBallots,
  revokeProxy,
  setAttendance,
  verifyReceipt,
} from './ballots';
import { addRegisterEntry, ensureMember } from './register';
import { tallyResolution } from './tally';

vi.setConfig({ testTimeout: 120_000 });
const pdfText = (bytes: Uint8Array): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'minutes-')), 'pv.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
};
const mailText = (mail: OutgoingMail) => mail.text.replace(/\s+/g, ' ');
const DAY = 24 * 3600_000;
const START = new Date('2026-12-01T09:00:00Z');

describeEachDialect('general assemblies', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let n = 0;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    sent = [];
    clock = fakeClock(START);
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
  });

  interface Member {
    userId: string | null;
    memberId: string;
    memberNumber: number;
    email: string | null;
  }
  /** A sociétaire admitted today in a college, with an account unless told otherwise. */
  async function member(collegeId: string, options: { account?: boolean } = {}): Promise<Member> {
    const i = ++n;
    const email = options.account === false ? null : `societaire${i}@exemple.fr`;
    const userId = email ? await createUser(test.db, { email, password: 'un mot de passe solide', now: clock.now() }) : null;
    const identity = {
      person: 'natural' as const,
      name: `Sociétaire ${i}`,
      givenName: 'Camille',
      familyName: `Sociétaire ${i}`,
      address: { line1: '1 rue de la Paix', line2: '', postalCode: '44000', city: 'Nantes', country: 'FR' },
    };
    const created = await writeTransaction(test.db, async (trx) => {
      const m = await ensureMember(trx, userId, identity, clock.now());
      await addRegisterEntry(
        trx,
        { memberId: m.id, kind: 'admission', collegeId, sharesDelta: 1, nominalCents: 5000, effectiveOn: '2026-01-01', recordedBy: null, note: 'test' },
        clock.now(),
      );
      return m;
    });
    return { userId, memberId: created.id, memberNumber: created.memberNumber, email };
  }

  const ok = <T extends { ok: boolean }>(r: T): Extract<T, { ok: true }> => {
    if (!r.ok) throw new Error(`expected ok: ${(r as unknown as { message: string }).message}`);
    return r as Extract<T, { ok: true }>;
  };

  /** An assembly 20 days ahead, vote opening 4 days before it and closing 2 hours after its start, with `resolutions` resolutions; convened. */
  async function convene(options: { kind?: 'ordinary' | 'extraordinary'; call?: 'first' | 'second'; resolutions?: number } = {}) {
    const startsAt = new Date(clock.now().getTime() + 20 * DAY);
    const { assemblyId } = ok(
      await createAssembly(deps, 'admin', {
        kind: options.kind ?? 'ordinary',
        call: options.call ?? 'first',
        title: 'Assemblée générale annuelle',
        startsAt,
        place: 'Maison des associations, Nantes',
        onlineUrl: 'https://visio.example/ag',
        agenda: ['Rapport moral', 'Approbation des comptes'],
        voteOpensAt: new Date(startsAt.getTime() - 4 * DAY),
        voteClosesAt: new Date(startsAt.getTime() + 2 * 3600_000),
      }),
    );
    for (let i = 1; i <= (options.resolutions ?? 2); i++)
      ok(await addResolution(deps, 'admin', assemblyId, { title: `Résolution ${i}`, text: `Texte de la résolution ${i}.` }));
    ok(
      await addDocument(deps, 'admin', assemblyId, {
        title: 'Comptes annuels',
        file: { filename: 'comptes.pdf', contentType: 'application/pdf', bytes: new Uint8Array([37, 80, 68, 70]) },
      }),
    );
    ok(await scheduleNotice(deps, 'admin', assemblyId));
    await deps.flush();
    const resolutions = await listResolutions(test.db, assemblyId);
    return { assemblyId, startsAt, opensAt: new Date(startsAt.getTime() - 4 * DAY), closesAt: new Date(startsAt.getTime() + 2 * 3600_000), resolutions };
  }
  const all = (resolutions: { id: string }[], choice: BallotChoice) => Object.fromEntries(resolutions.map((r) => [r.id, choice]));

  it('the notice leaves at least 15 days before, once, to every member with an account; the roll is the register of that day', async () => {
    const a = await member('lecteurs');
    const b = await member('salaries');
    const byPost = await member('partenaires', { account: false });
    const soon = ok(
      await createAssembly(deps, 'admin', {
        kind: 'ordinary',
        call: 'first',
        title: 'Trop tôt',
        startsAt: new Date(START.getTime() + 10 * DAY),
        place: 'Nantes',
        agenda: ['Point'],
        voteOpensAt: new Date(START.getTime() + 9 * DAY),
        voteClosesAt: new Date(START.getTime() + 10 * DAY),
      }),
    );
    ok(await addResolution(deps, 'admin', soon.assemblyId, { title: 'R', text: 'T' }));
    const late = await scheduleNotice(deps, 'admin', soon.assemblyId);
    expect(late).toMatchObject({ ok: false, status: 422 });
    expect((late as { message: string }).message).toContain('au moins 15 jours');
    const empty = ok(
      await createAssembly(deps, 'admin', {
        kind: 'ordinary',
        call: 'first',
        title: 'Vide',
        startsAt: new Date(START.getTime() + 30 * DAY),
        place: 'Nantes',
        agenda: ['Point'],
        voteOpensAt: new Date(START.getTime() + 29 * DAY),
        voteClosesAt: new Date(START.getTime() + 30 * DAY),
      }),
    );
    expect(await scheduleNotice(deps, 'admin', empty.assemblyId)).toMatchObject({
      ok: false,
      status: 422,
      message: 'Ajoutez au moins une résolution avant de convoquer l’assemblée.',
    });

    const { assemblyId } = await convene();
    const roll = await listRoll(test.db, assemblyId);
    expect(roll.map((r) => r.memberId)).toEqual(expect.arrayContaining([a.memberId, b.memberId, byPost.memberId]));
    const notices = sent.filter((m) => m.subject.startsWith('Convocation'));
    const withAccount = (await test.db.selectFrom('share_members').select('user_id').where('user_id', 'is not', null).execute()).length;
    expect(notices).toHaveLength(withAccount);
    expect(notices.find((m) => m.to === a.email)!.text).toContain(`/mon-compte/societariat/assemblee-${assemblyId}`);
    // Never twice: the jobs again, or the job's work again, send nothing more.
    await deps.flush();
    expect(sent.filter((m) => m.subject.startsWith('Convocation'))).toHaveLength(withAccount);
    const staff = (await assemblyForStaff(test.db, assemblyId))!;
    expect(staff.sheet.find((s) => s.memberId === byPost.memberId)!.byPost).toBe(true);
    // Resolutions no longer change; a member admitted after the notice is not on the roll.
    expect(await addResolution(deps, 'admin', assemblyId, { title: 'Tard', text: 'T' })).toMatchObject({ ok: false, status: 409 });
    const newcomer = await member('lecteurs');
    expect(await memberAssembly(deps, newcomer.userId!, assemblyId)).toMatchObject({ ok: false, status: 404 });
    expect((await listMemberAssemblies(deps, a.userId!)).map((s) => s.id)).toContain(assemblyId);
  });

  it("a college the assembly's frozen rules do not know stops the notice instead of breaking the count", async () => {
    await member('partenaires');
    const startsAt = new Date(clock.now().getTime() + 40 * DAY);
    const make = async () => {
      const { assemblyId } = ok(
        await createAssembly(deps, 'admin', {
          kind: 'ordinary',
          call: 'first',
          title: 'Statuts changés',
          startsAt,
          place: 'Nantes',
          agenda: ['Point'],
          voteOpensAt: new Date(startsAt.getTime() - DAY),
          voteClosesAt: startsAt,
        }),
      );
      ok(await addResolution(deps, 'admin', assemblyId, { title: 'R', text: 'T' }));
      return assemblyId;
    };
    // The statutes dropped the partners' college after this assembly was created.
    const dropPartners = async (assemblyId: string) => {
      const row = await test.db.selectFrom('assemblies').select('rules').where('id', '=', assemblyId).executeTakeFirstOrThrow();
      const rules = JSON.parse(row.rules) as { colleges: { id: string }[] };
      rules.colleges = rules.colleges.filter((c) => c.id !== 'partenaires');
      await test.db
        .updateTable('assemblies')
        .set({ rules: JSON.stringify(rules) } as never)
        .where('id', '=', assemblyId)
        .execute();
    };
    const refused = await make();
    await dropPartners(refused);
    const answer = await scheduleNotice(deps, 'admin', refused);
    expect(answer).toMatchObject({ ok: false, status: 409 });
    expect((answer as { message: string }).message).toContain('partenaires');
    // Programmed while the rules still matched, changed before it left: nothing is sent, back to the draft.
    const later = await make();
    const before = sent.length;
    ok(await scheduleNotice(deps, 'admin', later, { sendAt: new Date(clock.now().getTime() + DAY) }));
    await dropPartners(later);
    clock.advance(2 * DAY);
    await deps.flush();
    expect(sent.length).toBe(before);
    expect((await assemblyForStaff(test.db, later))!.assembly.status).toBe('draft');
    expect(await listRoll(test.db, later)).toEqual([]);
  });

  it('votes only while the vote is open', async () => {
    const voter = await member('lecteurs');
    const { assemblyId, opensAt, closesAt, resolutions } = await convene();
    const before = await castVotes(deps, voter.userId!, assemblyId, { choices: all(resolutions, 'pour') });
    expect(before).toMatchObject({ ok: false, status: 409 });
    expect((before as { message: string }).message).toContain('pas encore ouvert');
    clock.set(closesAt);
    expect(await castVotes(deps, voter.userId!, assemblyId, { choices: all(resolutions, 'pour') })).toMatchObject({ ok: false, status: 409 });
    clock.set(new Date(opensAt.getTime() + 60_000));
    ok(await castVotes(deps, voter.userId!, assemblyId, { choices: all(resolutions, 'pour') }));
    expect(await test.db.selectFrom('assembly_ballots').select('id').where('assembly_id', '=', assemblyId).execute()).toHaveLength(resolutions.length);
    // Bad input changes nothing.
    const other = await member('lecteurs');
    expect(await castVotes(deps, voter.userId!, assemblyId, { choices: {} })).toMatchObject({ ok: false, status: 422 });
    expect(await castVotes(deps, voter.userId!, assemblyId, { choices: { [resolutions[0]!.id]: 'peut-être' } })).toMatchObject({ ok: false, status: 422 });
    expect(await castVotes(deps, other.userId!, assemblyId, { choices: all(resolutions, 'pour') })).toMatchObject({ ok: false, status: 404 });
  });

  it('many parallel submissions for the same member: exactly one is counted', async () => {
    const voter = await member('salaries');
    const holder = await member('lecteurs');
    const grantor = await member('partenaires');
    const { assemblyId, opensAt, resolutions } = await convene({ resolutions: 3 });
    ok(await giveProxy(deps, grantor.userId!, assemblyId, { memberNumber: holder.memberNumber }));
    clock.set(new Date(opensAt.getTime() + 1000));
    const second = kind === 'postgres' ? openDatabase(test.config) : undefined;
    const choices = ['pour', 'contre', 'abstention'] as const;
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        castVotes({ db: i % 2 && second ? second.db : test.db, clock }, voter.userId!, assemblyId, { choices: all(resolutions, choices[i % 3]!) }),
      ),
    );
    // The grantor's vote by its holder, raced against itself, the same.
    const byProxy = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        castVotes({ db: i % 2 && second ? second.db : test.db, clock }, holder.userId!, assemblyId, {
          onBehalfOf: grantor.memberId,
          choices: all(resolutions, 'contre'),
        }),
      ),
    );
    await second?.close();
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.status === 409)).toBe(true);
    expect(byProxy.filter((r) => r.ok)).toHaveLength(1);
    const participation = await test.db
      .selectFrom('assembly_participation')
      .select(['member_id', 'via', 'proxy_holder_id'])
      .where('assembly_id', '=', assemblyId)
      .execute();
    expect(participation.filter((p) => p.member_id === voter.memberId)).toHaveLength(3);
    expect(participation.filter((p) => p.member_id === grantor.memberId).every((p) => p.via === 'proxy' && p.proxy_holder_id === holder.memberId)).toBe(true);
    const ballots = await test.db.selectFrom('assembly_ballots').selectAll().where('assembly_id', '=', assemblyId).execute();
    expect(ballots).toHaveLength(6);
    const row = await test.db.selectFrom('assemblies').select('ballots_cast').where('id', '=', assemblyId).executeTakeFirstOrThrow();
    expect(Number(row.ballots_cast)).toBe(6);
    // The winner's receipt finds its three ballots as cast.
    const winner = results.find((r) => r.ok)!;
    const verified = ok(await verifyReceipt(test.db, assemblyId, (winner as { receipt: string }).receipt));
    expect(verified.ballots).toHaveLength(3);
    expect(new Set(verified.ballots.map((b) => b.choice)).size).toBe(1);
  });

  it('proxies: not to oneself, not beyond the limit even at once, only to a member of this assembly, revocable until the vote opens', async () => {
    const holder = await member('lecteurs');
    const grantors = await Promise.all(Array.from({ length: 8 }, () => member('lecteurs')));
    const me = await member('salaries');
    const elsewhere = await convene();
    const stranger = await member('lecteurs'); // not on the first assembly's roll
    const { assemblyId, opensAt, resolutions } = await convene();

    expect(await giveProxy(deps, me.userId!, assemblyId, { memberNumber: me.memberNumber })).toMatchObject({ ok: false, status: 422 });
    expect(await giveProxy(deps, me.userId!, elsewhere.assemblyId, { memberNumber: stranger.memberNumber })).toMatchObject({ ok: false, status: 422 });
    expect(await giveProxy(deps, me.userId!, assemblyId, { memberNumber: 999_999 })).toMatchObject({ ok: false, status: 422 });
    // Eight at once to the same holder: five stand (the statutes' number), three are refused.
    const given = await Promise.all(grantors.map((g) => giveProxy(deps, g.userId!, assemblyId, { memberNumber: holder.memberNumber })));
    expect(given.filter((g) => g.ok)).toHaveLength(5);
    expect(given.filter((g) => !g.ok).every((g) => !g.ok && g.status === 409 && g.message.includes('détient déjà 5 pouvoirs'))).toBe(true);
    const standing = await test.db
      .selectFrom('assembly_proxies')
      .select('id')
      .where('assembly_id', '=', assemblyId)
      .where('holder_id', '=', holder.memberId)
      .where('revoked_at', 'is', null)
      .execute();
    expect(standing).toHaveLength(5);
    expect(sent.filter((m) => m.to === holder.email && m.subject.includes('vous confie son pouvoir'))).toHaveLength(0);
    await deps.flush();
    expect(sent.filter((m) => m.to === holder.email && m.subject.includes('vous confie son pouvoir'))).toHaveLength(5);
    // The holder cannot give theirs; a grantor gives once.
    expect(await giveProxy(deps, holder.userId!, assemblyId, 'chair')).toMatchObject({ ok: false, status: 409 });
    const first = grantors[given.findIndex((g) => g.ok)]!;
    expect(await giveProxy(deps, first.userId!, assemblyId, 'chair')).toMatchObject({ ok: false, status: 409 });
    // Revoked before the vote opens: the slot is free again, and it goes to the chair instead.
    ok(await revokeProxy(deps, first.userId!, assemblyId));
    ok(await giveProxy(deps, first.userId!, assemblyId, 'chair'));
    const refused = grantors[given.findIndex((g) => !g.ok)]!;
    ok(await giveProxy(deps, refused.userId!, assemblyId, { memberNumber: holder.memberNumber }));
    expect(await revokeProxy(deps, me.userId!, assemblyId)).toMatchObject({ ok: false, status: 404 });
    // Once the vote is open: no change, and a grantor does not vote themselves.
    clock.set(opensAt);
    expect(await revokeProxy(deps, refused.userId!, assemblyId)).toMatchObject({ ok: false, status: 409 });
    expect(await giveProxy(deps, me.userId!, assemblyId, 'chair')).toMatchObject({ ok: false, status: 409 });
    expect(await castVotes(deps, refused.userId!, assemblyId, { choices: all(resolutions, 'pour') })).toMatchObject({ ok: false, status: 409 });
    ok(await castVotes(deps, holder.userId!, assemblyId, { onBehalfOf: refused.memberId, choices: all(resolutions, 'pour') }));
    // Someone whose proxy the holder does not hold: unknown.
    expect(await castVotes(deps, holder.userId!, assemblyId, { onBehalfOf: me.memberId, choices: all(resolutions, 'pour') })).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await castVotes(deps, holder.userId!, assemblyId, { onBehalfOf: first.memberId, choices: all(resolutions, 'pour') })).toMatchObject({
      ok: false,
      status: 404,
    });
    const view = ok(await memberAssembly(deps, holder.userId!, assemblyId)).view;
    expect(view.proxiesHeld).toHaveLength(5);
    expect(view.proxiesHeld.find((p) => p.grantorId === refused.memberId)!.votedOn).toHaveLength(resolutions.length);
  });

  it('receipts verify the ballots as cast; ballots carry no voter and no time, and refuse UPDATE and DELETE', async () => {
    const voter = await member('lecteurs');
    const { assemblyId, opensAt, closesAt, resolutions } = await convene();
    clock.set(opensAt);
    const first = ok(await castVotes(deps, voter.userId!, assemblyId, { choices: { [resolutions[0]!.id]: 'contre' } }));
    const second = ok(await castVotes(deps, voter.userId!, assemblyId, { choices: { [resolutions[1]!.id]: 'abstention' } }));
    expect(ok(await verifyReceipt(test.db, assemblyId, first.receipt)).ballots.map((b) => [b.position, b.choice])).toEqual([[1, 'contre']]);
    expect(ok(await verifyReceipt(test.db, assemblyId, second.receipt)).ballots.map((b) => [b.position, b.choice])).toEqual([[2, 'abstention']]);
    expect(await verifyReceipt(test.db, assemblyId, 'A'.repeat(43))).toMatchObject({ ok: false, status: 404 });
    expect(await verifyReceipt(test.db, assemblyId, 'pas un reçu')).toMatchObject({ ok: false, status: 422 });
    const columns = (await test.db.introspection.getTables())
      .find((t) => t.name === 'assembly_ballots')!
      .columns.map((c) => c.name)
      .sort();
    expect(columns).toEqual(['assembly_id', 'choice', 'college_id', 'id', 'receipt_hash', 'resolution_id']);
    const stored = await test.db.selectFrom('assembly_ballots').select(['receipt_hash']).where('assembly_id', '=', assemblyId).execute();
    expect(stored.map((b) => b.receipt_hash)).toEqual(expect.arrayContaining([receiptHash(first.receipt, resolutions[0]!.id)]));
    expect(JSON.stringify(stored)).not.toContain(first.receipt);
    for (const table of ['assembly_ballots', 'assembly_participation'] as const) {
      await expect(sql`update ${sql.table(table)} set assembly_id = assembly_id`.execute(test.db)).rejects.toThrow(/append-only/);
      await expect(sql`delete from ${sql.table(table)}`.execute(test.db)).rejects.toThrow(/append-only/);
    }
    // Before the close the list is not published; after it, the receipt's ballots are in it.
    expect(await memberPublishedBallots(test.db, voter.userId!, assemblyId)).toMatchObject({ ok: false, status: 409 });
    clock.set(new Date(closesAt.getTime() + 1000));
    await deps.flush();
    const published = ok(await memberPublishedBallots(test.db, voter.userId!, assemblyId)).ballots;
    expect(published.find((b) => b.receiptHash === receiptHash(first.receipt, resolutions[0]!.id))).toMatchObject({ choice: 'contre', collegeId: 'lecteurs' });
    expect(ok(await verifyReceipt(test.db, assemblyId, first.receipt)).published).toBe(true);
  });

  it('another member, an unknown id or garbage reach nothing', async () => {
    const insider = await member('lecteurs');
    const { assemblyId } = await convene();
    const outsider = await member('lecteurs');
    const reader = await createUser(test.db, { email: `lecteur${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    const view = ok(await memberAssembly(deps, insider.userId!, assemblyId)).view;
    const documentId = view.documents[0]!.id;
    expect((await memberDocument(test.db, insider.userId!, assemblyId, documentId))?.bytes).toEqual(new Uint8Array([37, 80, 68, 70]));
    for (const userId of [outsider.userId!, reader]) {
      expect(await memberAssembly(deps, userId, assemblyId)).toMatchObject({ ok: false, status: 404 });
      expect(await memberDocument(test.db, userId, assemblyId, documentId)).toBeUndefined();
      expect(await setAttendance(deps, userId, assemblyId, 'present')).toMatchObject({ ok: false, status: 404 });
      expect(await giveProxy(deps, userId, assemblyId, 'chair')).toMatchObject({ ok: false, status: 404 });
      expect(await memberMinutesPdf(deps, userId, assemblyId)).toBeUndefined();
      expect(await listMemberAssemblies(deps, userId)).not.toContainEqual(expect.objectContaining({ id: assemblyId }));
    }
    expect(await memberAssembly(deps, insider.userId!, "' or 1=1 --")).toMatchObject({ ok: false, status: 404 });
    const other = await convene();
    expect(await memberDocument(test.db, insider.userId!, other.assemblyId, documentId)).toBeUndefined();
    // A draft is no member's business.
    const draft = ok(
      await createAssembly(deps, 'admin', {
        kind: 'ordinary',
        call: 'first',
        title: 'Brouillon',
        startsAt: new Date(START.getTime() + 40 * DAY),
        place: 'Nantes',
        agenda: ['Point'],
        voteOpensAt: new Date(START.getTime() + 39 * DAY),
        voteClosesAt: new Date(START.getTime() + 40 * DAY),
      }),
    );
    expect(await memberAssembly(deps, insider.userId!, draft.assemblyId)).toMatchObject({ ok: false, status: 404 });
    ok(await setAttendance(deps, insider.userId!, assemblyId, 'remote'));
    expect(await setAttendance(deps, insider.userId!, assemblyId, 'ailleurs')).toMatchObject({ ok: false, status: 422 });
    expect(ok(await memberAssembly(deps, insider.userId!, assemblyId)).view.me.attendance).toBe('remote');
  });

  it('at the close: the chair votes its proxies, the results are published once with the minutes, recounted the same from the ballots', async () => {
    const voters = await Promise.all([member('salaries'), member('lecteurs'), member('lecteurs'), member('partenaires')]);
    const toChair = await member('lecteurs');
    const { assemblyId, opensAt, closesAt, resolutions } = await convene({ kind: 'extraordinary', resolutions: 2 });
    ok(await giveProxy(deps, toChair.userId!, assemblyId, 'chair'));
    ok(await setAttendance(deps, voters[0]!.userId!, assemblyId, 'present'));
    clock.set(opensAt);
    ok(await castVotes(deps, voters[0]!.userId!, assemblyId, { choices: all(resolutions, 'pour') }));
    ok(await castVotes(deps, voters[1]!.userId!, assemblyId, { choices: all(resolutions, 'contre') }));
    ok(await castVotes(deps, voters[2]!.userId!, assemblyId, { choices: all(resolutions, 'pour') }));
    ok(await castVotes(deps, voters[3]!.userId!, assemblyId, { choices: all(resolutions, 'abstention') }));
    expect(await minutesPdf(deps, assemblyId)).toBeUndefined();
    clock.set(closesAt);
    await deps.flush();
    const view = ok(await memberAssembly(deps, voters[0]!.userId!, assemblyId)).view;
    const results = view.results!;
    expect(results.ballots).toBe(10);
    // salaries 1/1 pour (35), lecteurs 2 pour (incl. the chair's) of 3 (45), partenaires abstain: (35 + 45·2/3)/80 = 65/80.
    expect(results.resolutions.map((r) => [r.share, r.passed])).toEqual([
      ['13/16', true],
      ['13/16', true],
    ]);
    expect(results.resolutions[0]!.colleges.find((c) => c.collegeId === 'partenaires')).toMatchObject({ abstention: 1, cast: 0, effectiveWeight: '0/1' });
    const roll = await listRoll(test.db, assemblyId);
    expect(results.quorum.overall).toMatchObject({ members: roll.length, participating: 5, voted: 5, represented: 1, present: 1 });
    expect(results.quorum.met).toBe(5 * 3 >= roll.length);
    expect(results.resolutions.every((r) => r.adopted === results.quorum.met)).toBe(true);
    const recount = ok(await recountAssembly(test.db, assemblyId));
    expect(recount.identical).toBe(true);
    const pdf = (await memberMinutesPdf(deps, voters[1]!.userId!, assemblyId))!;
    expect(Buffer.from(pdf.bytes).subarray(0, 5).toString()).toBe('%PDF-');
    expect(Buffer.from((await minutesPdf(deps, assemblyId))!.bytes).equals(Buffer.from(pdf.bytes))).toBe(true);
    const resultsMails = sent.filter((m) => m.subject.startsWith('Résultats'));
    expect(resultsMails.length).toBe((await assemblyForStaff(test.db, assemblyId))!.sheet.filter((s) => !s.byPost).length);
    // Once: closing again does nothing, and no vote comes in after.
    expect(await closeAssembly(deps, assemblyId)).toBeUndefined();
    await deps.flush();
    expect(sent.filter((m) => m.subject.startsWith('Résultats'))).toHaveLength(resultsMails.length);
    expect(await castVotes(deps, toChair.userId!, assemblyId, { choices: all(resolutions, 'contre') })).toMatchObject({ ok: false, status: 409 });
  });

  it('without quorum nothing is deliberated: no resolution is « rejetée », and the second call carries the agenda under its own quorum', async () => {
    const members = await Promise.all([member('lecteurs'), member('lecteurs'), member('lecteurs'), member('salaries'), member('lecteurs'), member('lecteurs')]);
    const lone = members[0]!;
    const first = await convene({ resolutions: 2 });
    clock.set(first.opensAt);
    ok(await castVotes(deps, lone.userId!, first.assemblyId, { choices: all(first.resolutions, 'pour') }));
    // Too early: a second call exists only for a closed first call without quorum.
    expect(
      await createSecondCall(deps, 'admin', first.assemblyId, {
        startsAt: new Date(first.startsAt.getTime() + 20 * DAY),
        place: 'Nantes',
        onlineUrl: '',
        voteOpensAt: new Date(first.startsAt.getTime() + 16 * DAY),
        voteClosesAt: new Date(first.startsAt.getTime() + 20 * DAY),
      }),
    ).toMatchObject({ ok: false, status: 409 });
    clock.set(first.closesAt);
    await deps.flush();
    const results = (await findAssembly(test.db, first.assemblyId))!.results!;
    expect(results.quorum.met).toBe(false);
    // 100 % pour, yet not adopted and not rejected: the mail, the member's view and the minutes say so.
    expect(results.resolutions.every((r) => r.passed && !r.adopted)).toBe(true);
    const mail = sent.find((m) => m.to === lone.email && m.subject.startsWith('Résultats'))!;
    expect(mailText(mail)).toContain('Résolution 1 — non délibérée, faute de quorum (100,0 % pour)');
    expect(mailText(mail)).not.toMatch(/— (rejetée|adoptée)/);
    const minutes = pdfText((await minutesPdf(deps, first.assemblyId))!.bytes);
    expect(minutes).toContain('La résolution n’a pas été délibérée, faute de quorum.');
    expect(minutes).not.toContain('La résolution est rejetée');

    // The second call: unknown or quorate assemblies refused; this one taken once.
    const at = clock.now();
    const secondInput = {
      startsAt: new Date(at.getTime() + 20 * DAY),
      place: 'Maison des associations, Nantes',
      onlineUrl: '',
      voteOpensAt: new Date(at.getTime() + 16 * DAY),
      voteClosesAt: new Date(at.getTime() + 20 * DAY + 3600_000),
    };
    expect(await createSecondCall(deps, 'admin', 'inconnue', secondInput)).toMatchObject({ ok: false, status: 404 });
    expect(await createSecondCall(deps, 'admin', first.assemblyId, { ...secondInput, startsAt: new Date(at.getTime() - DAY) })).toMatchObject({
      ok: false,
      status: 422,
    });
    const [once, twice] = await Promise.all(
      [createSecondCall(deps, 'admin', first.assemblyId, secondInput), createSecondCall(deps, 'admin', first.assemblyId, secondInput)].map((p) =>
        p.then((r) => r),
      ),
    );
    expect([once!.ok, twice!.ok].sort()).toEqual([false, true]);
    const { assemblyId: secondId } = [once, twice].find((r) => r!.ok) as { ok: true; assemblyId: string };
    expect([once, twice].find((r) => !r!.ok)).toMatchObject({ status: 409, message: 'La seconde convocation de cette assemblée existe déjà.' });
    const second = (await findAssembly(test.db, secondId))!;
    expect(second).toMatchObject({
      call: 'second',
      kind: 'ordinary',
      firstCallId: first.assemblyId,
      status: 'draft',
      agenda: ['Rapport moral', 'Approbation des comptes'],
    });
    expect(second.rules.quorum).toEqual({ n: 0, d: 1 });
    expect((await listResolutions(test.db, secondId)).map((r) => [r.position, r.title, r.text])).toEqual(
      first.resolutions.map((r) => [r.position, r.title, r.text]),
    );
    expect((await listDocuments(test.db, secondId)).map((d) => d.title)).toEqual(['Comptes annuels']);

    // Its notice names the first meeting; there, the same lone vote decides.
    ok(await scheduleNotice(deps, 'admin', secondId));
    await deps.flush();
    const notice = sent.find((m) => m.to === lone.email && m.subject.startsWith('Convocation') && mailText(m).includes('seconde convocation'))!;
    expect(mailText(notice)).toContain('sur première convocation n’a pas atteint le quorum requis');
    expect(mailText(notice)).toContain('Aucun quorum n’est requis sur seconde convocation.');
    const secondResolutions = await listResolutions(test.db, secondId);
    clock.set(secondInput.voteOpensAt);
    ok(await castVotes(deps, lone.userId!, secondId, { choices: all(secondResolutions, 'pour') }));
    clock.set(secondInput.voteClosesAt);
    await deps.flush();
    const decided = (await findAssembly(test.db, secondId))!.results!;
    expect(decided.quorum.met).toBe(true);
    expect(decided.resolutions.every((r) => r.adopted)).toBe(true);
    const secondMinutes = pdfText((await minutesPdf(deps, secondId))!.bytes);
    expect(secondMinutes).toContain('Assemblée réunie sur seconde convocation');
    expect(secondMinutes).toContain('La résolution est adoptée.');
  });

  it('on random assemblies, the published tally is the reference tally of the votes cast', async () => {
    const pool = [
      ...(await Promise.all(Array.from({ length: 3 }, () => member('salaries')))),
      ...(await Promise.all(Array.from({ length: 4 }, () => member('lecteurs')))),
      ...(await Promise.all(Array.from({ length: 3 }, () => member('partenaires')))),
    ];
    const collegeOf = new Map<string, string>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.constantFrom('pour' as const, 'contre' as const, 'abstention' as const), { nil: undefined }), {
          minLength: pool.length,
          maxLength: pool.length,
        }),
        fc.array(fc.option(fc.constantFrom('pour' as const, 'contre' as const, 'abstention' as const), { nil: undefined }), {
          minLength: pool.length,
          maxLength: pool.length,
        }),
        async (first, second) => {
          await test.db.deleteFrom('jobs').execute();
          clock.set(START);
          const { assemblyId, opensAt, closesAt, resolutions } = await convene();
          for (const r of await listRoll(test.db, assemblyId)) collegeOf.set(r.memberId, r.collegeId);
          clock.set(opensAt);
          const cast: Array<Array<{ collegeId: string; choice: BallotChoice }>> = [[], []];
          for (const [i, m] of pool.entries()) {
            const choices: Record<string, string> = {};
            [first[i], second[i]].forEach((c, k) => {
              if (!c) return;
              choices[resolutions[k]!.id] = c;
              cast[k]!.push({ collegeId: collegeOf.get(m.memberId)!, choice: c });
            });
            if (Object.keys(choices).length) ok(await castVotes(deps, m.userId!, assemblyId, { choices }));
          }
          clock.set(closesAt);
          await deps.flush();
          const view = ok(await memberAssembly(deps, pool[0]!.userId!, assemblyId)).view;
          const rules = {
            colleges: [
              { id: 'salaries', label: 'Salariés', weightPercent: 35 },
              { id: 'lecteurs', label: 'Lecteurs-sociétaires', weightPercent: 45 },
              { id: 'partenaires', label: 'Partenaires', weightPercent: 20 },
            ],
            majority: { share: { n: 1, d: 2 }, rule: 'more' as const },
          };
          for (const k of [0, 1]) {
            const expected = tallyResolution(cast[k]!, rules.colleges, rules.majority);
            const got = view.results!.resolutions[k]!;
            expect([got.share, got.passed, got.ballots]).toEqual([expected.share, expected.passed, cast[k]!.length]);
          }
          const voted = pool.filter((_, i) => first[i] || second[i]).length;
          expect(view.results!.quorum.overall.voted).toBe(voted);
          expect(ok(await recountAssembly(test.db, assemblyId)).identical).toBe(true);
        },
      ),
      { numRuns: 4 },
    );
  });
});
