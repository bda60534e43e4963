/**
 * Withdrawals on both databases: what a member may ask (the college's minimum, one request at a
 * time), the register entry at the close of the year once accepted, the capital floor that
 * defers a withdrawal, and the repayment at nominal value at most, after the effective day.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import { writeTransaction } from '../db/transaction';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { admitInTransaction, bulletinForm, checkBulletin, insertBulletin, moveBulletin } from './bulletins';
import { holdingOfUser, registerEntries } from './register';
import { decideWithdrawal, listUserWithdrawals, recordRepayment, requestWithdrawal, yearCloseOf } from './withdrawals';
import { findUserBulletin } from './bulletins';
import { changeCollege, renounceBulletin, type RenunciationRecorder } from './service';
import { giveRefundIban, markRefundMade, memberRefunds } from './refunds';

/** The shares' side alone: the withdrawal function's record and acknowledgement are its own tests'. */
const recordNothing: RenunciationRecorder = async () => {};

vi.setConfig({ testTimeout: 120_000 });

it('a withdrawal takes effect at the close of the year it is asked in', () => {
  expect(yearCloseOf('2026-11-23')).toBe('2026-12-31');
  expect(yearCloseOf('2026-12-31')).toBe('2026-12-31');
  expect(yearCloseOf('2027-01-01')).toBe('2027-12-31');
});

describeEachDialect('withdrawals', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let n = 0;
  // A fresh database each time: the capital floor depends on the whole register.
  beforeEach(async () => {
    test = await createTestDatabase(kind);
    sent = [];
    clock = fakeClock(new Date('2026-11-23T10:00:00Z'));
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
  });
  afterEach(async () => {
    await test.close();
  });

  async function member(parts: number, college = 'lecteurs', extra: Record<string, string> = {}) {
    const userId = await createUser(test.db, { email: `retrait${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    const checked = checkBulletin(
      bulletinForm.parse({
        parts: String(parts),
        college,
        personne: 'physique',
        given_name: 'Inès',
        family_name: `Durand ${n}`,
        address_line1: '3 rue du Port',
        postal_code: '44000',
        city: 'Nantes',
        country: 'FR',
        paiement: 'transfer',
        statuts: true,
        risque: true,
        ...extra,
      }),
    );
    if (!checked.ok) throw new Error(checked.message);
    await writeTransaction(test.db, async (trx) => {
      const b = await insertBulletin(trx, checked.bulletin, { userId, client: 'test', orderId: null }, new Date('2026-01-10T10:00:00Z'));
      await moveBulletin(trx, b.id, 'awaiting_payment', 'paid', { paidAt: new Date('2026-01-11T10:00:00Z') }, new Date('2026-01-11T10:00:00Z'));
      await admitInTransaction(trx, { ...b, status: 'paid' }, null, new Date('2026-01-20T10:00:00Z'));
    });
    return userId;
  }

  it('asking: within the holding and the college’s minimum, one request at a time, acknowledged', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    await member(20);
    const partner = await member(6, 'partenaires', { personne: 'morale', structure: 'Les Amis du Port', siren: '732829320', qualite: 'président' });
    expect(await requestWithdrawal(deps, partner, { parts: 7, motif: '' })).toMatchObject({
      ok: false,
      status: 422,
      message: 'Vous pouvez retirer 6 parts au plus.',
    });
    expect(await requestWithdrawal(deps, partner, { parts: 3, motif: '' })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('au moins 4 parts'),
    });
    const asked = await requestWithdrawal(deps, partner, { parts: 2, motif: 'Budget de l’association' });
    expect(asked).toMatchObject({ ok: true, effectiveOn: '2026-12-31' });
    expect(await requestWithdrawal(deps, partner, { parts: 1, motif: '' })).toMatchObject({ ok: false, status: 409 });
    await deps.flush();
    expect(sent.map((m) => m.subject.replace(/\s/g, ' '))).toContain('Votre demande de retrait de parts sociales est enregistrée');
    // Refused: the shares stay, and a new request can be made.
    if (!asked.ok) return;
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: false, note: 'non' })).toMatchObject({ ok: false, status: 422 });
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: false, note: 'Demande à représenter après l’assemblée' })).toMatchObject({
      ok: true,
    });
    expect(await holdingOfUser(test.db, partner, '2027-01-01')).toMatchObject({ shares: 6 });
    expect(await requestWithdrawal(deps, partner, { parts: 6, motif: '' })).toMatchObject({ ok: true });
    const stranger = await createUser(test.db, { email: `personne${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    expect(await requestWithdrawal(deps, stranger, { parts: 1, motif: '' })).toMatchObject({ ok: false, status: 404 });
  });

  it('accepted: the shares leave the register at the year’s close; repaid afterwards at nominal value at most', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    await member(20);
    const leaving = await member(4);
    const asked = await requestWithdrawal(deps, leaving, { parts: 4, motif: 'Je déménage' });
    if (!asked.ok) throw new Error(asked.message);
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toEqual({ ok: true, effectiveOn: '2026-12-31' });
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: false, status: 409 });
    expect(await holdingOfUser(test.db, leaving, '2026-12-30')).toMatchObject({ shares: 4 });
    expect(await holdingOfUser(test.db, leaving, '2026-12-31')).toBeUndefined();
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 20_000)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('le remboursement vient après'),
    });
    clock.set(new Date('2027-06-30T10:00:00Z'));
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 20_001)).toMatchObject({ ok: false, status: 422 });
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 19_000)).toEqual({ ok: true, reference: 'RBT-2027-0001' });
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 19_000)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('RBT-2027-0001'),
    });
    // Decided, not paid: the register and the request wait for the transfer (refunds.ts).
    const repaid = async () =>
      (await registerEntries(test.db)).filter((e) => e.withdrawalId === asked.withdrawalId).map((e) => [e.kind, e.sharesDelta, e.repaidCents, e.effectiveOn]);
    expect(await repaid()).toEqual([['withdrawal', -4, 0, '2026-12-31']]);
    expect((await listUserWithdrawals(test.db, leaving))[0]).toMatchObject({ status: 'accepted' });
    const [refund] = await memberRefunds(test.db, leaving);
    expect(refund).toMatchObject({ cause: 'withdrawal', amountCents: 19_000, status: 'awaiting_iban' });
    expect(await giveRefundIban(deps, leaving, refund!.id, { iban: 'FR76 3000 6000 0112 3456 7890 189', holder: 'Inès Durand' })).toMatchObject({ ok: true });
    clock.set(new Date('2027-07-02T10:00:00Z'));
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2027-07-01', iban: 'FR7630006000011234567890189' })).toMatchObject({ ok: true });
    expect(await repaid()).toEqual([
      ['withdrawal', -4, 0, '2026-12-31'],
      ['repayment', 0, 19_000, '2027-07-01'],
    ]);
    expect((await listUserWithdrawals(test.db, leaving))[0]).toMatchObject({ status: 'repaid' });
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 19_000)).toMatchObject({ ok: false, status: 409, message: 'Ce retrait est déjà remboursé.' });
  });

  it('two staff members repaying the same withdrawal at once: one refund, one reference, the other told (409)', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    await member(20);
    const leaving = await member(4);
    const asked = await requestWithdrawal(deps, leaving, { parts: 4, motif: '' });
    if (!asked.ok) throw new Error(asked.message);
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: true });
    clock.set(new Date('2027-06-30T10:00:00Z'));
    // Connections open first (PostgreSQL), so that the two calls truly run side by side.
    await Promise.all([1, 2, 3, 4].map(() => test.db.selectFrom('share_withdrawals').select('id').execute()));
    const both = await Promise.all([recordRepayment(deps, admin, asked.withdrawalId, 19_000), recordRepayment(deps, admin, asked.withdrawalId, 19_000)]);
    expect(both.filter((r) => r.ok)).toEqual([{ ok: true, reference: 'RBT-2027-0001' }]);
    expect(both.find((r) => !r.ok)).toEqual({
      ok: false,
      status: 409,
      message: 'Le remboursement de ce retrait est déjà en cours, par le virement RBT-2027-0001.',
    });
    expect(await test.db.selectFrom('share_refund_transfers').select('reference').execute()).toEqual([{ reference: 'RBT-2027-0001' }]);
    // No reference consumed by the second.
    expect(
      Number((await test.db.selectFrom('document_counters').select('last_number').where('series', '=', 'RBT-2027').executeTakeFirstOrThrow()).last_number),
    ).toBe(1);
  });

  it('a repayment marked after a change of college keeps the member in their new college', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    await member(20);
    const staying = await member(10);
    const asked = await requestWithdrawal(deps, staying, { parts: 4, motif: '' });
    if (!asked.ok) throw new Error(asked.message);
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: true });
    clock.set(new Date('2027-06-01T10:00:00Z'));
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 20_000)).toMatchObject({ ok: true });
    // Hired meanwhile: now in the employees' college.
    const numero = (await holdingOfUser(test.db, staying, '2027-06-01'))!.memberNumber;
    expect(await changeCollege(deps, admin, { numero, college: 'salaries', motif: 'embauchée à la rédaction' })).toMatchObject({ ok: true });
    const [refund] = await memberRefunds(test.db, staying);
    expect(await giveRefundIban(deps, staying, refund!.id, { iban: 'FR76 3000 6000 0112 3456 7890 189', holder: 'Inès Durand' })).toMatchObject({ ok: true });
    clock.set(new Date('2027-06-03T10:00:00Z'));
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2027-06-02', iban: 'FR7630006000011234567890189' })).toMatchObject({ ok: true });
    expect(await holdingOfUser(test.db, staying, '2027-06-03')).toMatchObject({ shares: 6, collegeId: 'salaries' });
    const repayment = (await registerEntries(test.db)).find((e) => e.kind === 'repayment');
    expect(repayment).toMatchObject({ collegeId: 'salaries', repaidCents: 20_000, effectiveOn: '2027-06-02' });
  });

  it('a withdrawal that would take the capital below a quarter of its highest is deferred, and the request waits', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    const big = await member(90);
    await member(10);
    // Highest capital 100 shares; a quarter is 25: 90 leaving would leave 10.
    const asked = await requestWithdrawal(deps, big, { parts: 80, motif: '' });
    if (!asked.ok) throw new Error(asked.message);
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('il est différé'),
    });
    expect((await listUserWithdrawals(test.db, big))[0]).toMatchObject({ status: 'requested' });
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'withdrawal')).toEqual([]);
  });

  it('two withdrawals accepted at the same moment: the floor holds, the second is deferred', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    const a = await member(50);
    const b = await member(40);
    await member(10);
    // Highest 100 shares, floor 25: either withdrawal alone leaves at least 50; both together leave 10.
    const asked = await Promise.all([requestWithdrawal(deps, a, { parts: 50, motif: '' }), requestWithdrawal(deps, b, { parts: 40, motif: '' })]);
    const ids = asked.map((r) => (r.ok ? r.withdrawalId : ''));
    const decided = await Promise.all(ids.map((id) => decideWithdrawal(deps, admin, id, { accept: true })));
    expect(decided.filter((d) => d.ok)).toHaveLength(1);
    expect(decided.find((d) => !d.ok)).toMatchObject({ status: 409, message: expect.stringContaining('il est différé') });
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'withdrawal')).toHaveLength(1);
  });

  it('shares under withdrawal cannot also be renounced; shares renounced cannot also be withdrawn', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    await member(40);
    // Admitted today, so within its 14 days of renunciation.
    clock.set(new Date('2026-01-21T10:00:00Z'));
    const userId = await member(3);
    const bulletin = (await test.db.selectFrom('share_bulletins').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
    const asked = await requestWithdrawal(deps, userId, { parts: 3, motif: '' });
    expect(asked).toMatchObject({ ok: true });
    expect(await renounceBulletin(deps, userId, bulletin, recordNothing)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('retrait de parts est en cours'),
    });
    expect(await findUserBulletin(test.db, userId, bulletin)).toMatchObject({ status: 'admitted' });
    if (!asked.ok) return;
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: true });
    expect(await renounceBulletin(deps, userId, bulletin, recordNothing)).toMatchObject({ ok: false, status: 409 });
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'correction')).toEqual([]);
  });
});
