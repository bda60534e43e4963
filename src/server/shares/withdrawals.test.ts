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
import { renounceBulletin } from './service';

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
    const mailer: Mailer = { send: async (mail) => { sent.push(mail); return { messageId: 'x' }; } };
    deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
  });
  afterEach(async () => { await test.close(); });

  async function member(parts: number, college = 'lecteurs', extra: Record<string, string> = {}) {
    const userId = await createUser(test.db, { email: `retrait${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
    const checked = checkBulletin(bulletinForm.parse({ parts: String(parts), college, personne: 'physique', given_name: 'Inès', family_name: `Durand ${n}`, address_line1: '3 rue du Port', postal_code: '44000', city: 'Nantes', country: 'FR', paiement: 'transfer', statuts: true, risque: true, ...extra }));
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
    expect(await requestWithdrawal(deps, partner, { parts: 7, motif: '' })).toMatchObject({ ok: false, status: 422, message: 'Vous pouvez retirer 6 parts au plus.' });
    expect(await requestWithdrawal(deps, partner, { parts: 3, motif: '' })).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('au moins 4 parts') });
    const asked = await requestWithdrawal(deps, partner, { parts: 2, motif: 'Budget de l’association' });
    expect(asked).toMatchObject({ ok: true, effectiveOn: '2026-12-31' });
    expect(await requestWithdrawal(deps, partner, { parts: 1, motif: '' })).toMatchObject({ ok: false, status: 409 });
    await deps.flush();
    expect(sent.map((m) => m.subject.replace(/\s/g, ' '))).toContain('Votre demande de retrait de parts sociales est enregistrée');
    // Refused: the shares stay, and a new request can be made.
    if (!asked.ok) return;
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: false, note: 'non' })).toMatchObject({ ok: false, status: 422 });
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: false, note: 'Demande à représenter après l’assemblée' })).toMatchObject({ ok: true });
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
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 20_000)).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('le remboursement vient après') });
    clock.set(new Date('2027-06-30T10:00:00Z'));
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 20_001)).toMatchObject({ ok: false, status: 422 });
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 19_000)).toEqual({ ok: true });
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 19_000)).toMatchObject({ ok: false, status: 409 });
    const entries = (await registerEntries(test.db)).filter((e) => e.withdrawalId === asked.withdrawalId);
    expect(entries.map((e) => [e.kind, e.sharesDelta, e.repaidCents, e.effectiveOn])).toEqual([['withdrawal', -4, 0, '2026-12-31'], ['repayment', 0, 19_000, '2027-06-30']]);
    expect((await listUserWithdrawals(test.db, leaving))[0]).toMatchObject({ status: 'repaid' });
  });

  it('a withdrawal that would take the capital below a quarter of its highest is deferred, and the request waits', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    const big = await member(90);
    await member(10);
    // Highest capital 100 shares; a quarter is 25: 90 leaving would leave 10.
    const asked = await requestWithdrawal(deps, big, { parts: 80, motif: '' });
    if (!asked.ok) throw new Error(asked.message);
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('il est différé') });
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
    expect(await renounceBulletin(deps, userId, bulletin)).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('retrait de parts est en cours') });
    expect(await findUserBulletin(test.db, userId, bulletin)).toMatchObject({ status: 'admitted' });
    if (!asked.ok) return;
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: true });
    expect(await renounceBulletin(deps, userId, bulletin)).toMatchObject({ ok: false, status: 409 });
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'correction')).toEqual([]);
  });
});
