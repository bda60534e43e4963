/**
 * Refunds the payment provider cannot make, made by bank transfer, on both databases: the IBAN
 * the member gives (checked, stored normalised, shown masked), the back-office's list with its
 * gapless references, the transfer marked made once, the register that says « repaid » only
 * then, the member's mails, and another member's refund that stays unknown (404).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { giveRefundIbanAsAdmin, markRefundMadeAsAdmin, refundsForAdmin } from '../admin/shares';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import { writeTransaction } from '../db/transaction';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { admitInTransaction, bulletinForm, checkBulletin, findBulletin, insertBulletin, moveBulletin } from './bulletins';
import { checkIban, maskIban } from './iban';
import { giveRefundIban, markRefundMade, memberRefunds, refundTransfersForStaff } from './refunds';
import { registerEntries } from './register';
import { withdrawForUser } from '../contract-withdrawals/service';
import { confirmTransfer, refuseBulletin, renounceBulletin, type RenunciationRecorder, sharesBlockDeletion } from './service';
import { decideWithdrawal, recordRepayment, requestWithdrawal } from './withdrawals';

vi.setConfig({ testTimeout: 120_000 });

const IBAN = 'FR7630006000011234567890189';

describe('IBAN', () => {
  it('accepts spaces and lower case, and stores it normalised', () => {
    expect(checkIban(' fr76 3000 6000 0112 3456 7890 189 ')).toEqual({ ok: true, iban: IBAN });
    expect(checkIban('DE89 3704 0044 0532 0130 00')).toEqual({ ok: true, iban: 'DE89370400440532013000' });
    expect(checkIban('be68 5390 0754 7034')).toEqual({ ok: true, iban: 'BE68539007547034' });
  });

  it('refuses a wrong checksum, a wrong length, a country outside SEPA, anything else, in French', () => {
    expect(checkIban('FR7630006000011234567890188')).toMatchObject({ ok: false, message: expect.stringContaining('clé de contrôle') });
    expect(checkIban('FR76300060000112345678901')).toMatchObject({ ok: false, message: expect.stringContaining('compte 27 caractères') });
    expect(checkIban('US12345678901234567890')).toMatchObject({ ok: false, message: expect.stringContaining('zone SEPA') });
    expect(checkIban('pas un iban')).toMatchObject({ ok: false, message: expect.stringContaining('n’est pas valide') });
    expect(checkIban('')).toMatchObject({ ok: false });
  });

  it('is masked but for its last four characters', () => {
    const masked = maskIban(IBAN);
    expect(masked.endsWith(' 0189')).toBe(true);
    expect(masked.replace(/[•\s]/g, '')).toBe('0189');
  });
});

describeEachDialect('refunds by bank transfer', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  // The shares' side alone: the withdrawal function's record and acknowledgement are its own tests'.
  const recordNothing: RenunciationRecorder = async () => {};
  let admin: string;
  let n = 0;

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
    admin = await createUser(test.db, { email: `tresorerie${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
  });
  afterEach(async () => {
    await test.close();
  });

  const newUser = (prefix: string) => createUser(test.db, { email: `${prefix}${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  const mailTo = async (userId: string) => {
    const email = (await test.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
    return sent.filter((m) => m.to === email);
  };
  const flat = (text: string) => text.replace(/\s+/g, ' ');

  /** A bulletin paid by transfer: signed `daysAgo` days ago, paid, admitted unless told otherwise. */
  async function transferBulletin(userId: string | null, parts: number, { daysAgo = 2, admit = true, pay = true } = {}) {
    const checked = checkBulletin(
      bulletinForm.parse({
        parts: String(parts),
        college: 'lecteurs',
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
      }),
    );
    if (!checked.ok) throw new Error(checked.message);
    const signed = new Date(clock.now().getTime() - daysAgo * 86_400_000);
    return writeTransaction(test.db, async (trx) => {
      const b = await insertBulletin(trx, checked.bulletin, { userId, client: 'test', orderId: null }, signed);
      if (pay) await moveBulletin(trx, b.id, 'awaiting_payment', 'paid', { paidAt: signed }, signed);
      if (pay && admit) await admitInTransaction(trx, { ...b, status: 'paid' }, null, signed);
      return b.id;
    });
  }

  it('renounced shares paid by transfer: the IBAN is asked, the transfer marked made once, the register repaid only then', async () => {
    await transferBulletin(await newUser('ancien'), 20, { daysAgo: 300 });
    const reader = await newUser('lectrice');
    const bulletinId = await transferBulletin(reader, 3);
    // Through the withdrawal function, the one way a renunciation is made: it says that this
    // renunciation opened a refund by transfer (the page asks for the IBAN).
    expect(await withdrawForUser(deps, reader, { bulletinId })).toMatchObject({ ok: true, refundByTransfer: 'RBT-2026-0001' });
    await deps.flush();

    // The acknowledgement does not promise a refund « on the means of payment used »: it asks for an IBAN, with the link.
    const [renounced] = await mailTo(reader);
    expect(renounced!.subject).toContain('renonciation');
    expect(flat(renounced!.text)).toContain('Nous vous remboursons 150 € par virement (référence RBT-2026-0001)');
    expect(renounced!.text).toContain('https://contrechamp.example/mon-compte/societariat#remboursements');
    expect(renounced!.text).not.toContain('moyen de paiement utilisé');

    // The shares left the register; nothing is repaid yet.
    const before = (await registerEntries(test.db)).filter((e) => e.kind === 'correction');
    expect(before.map((e) => [e.kind, e.sharesDelta, e.repaidCents])).toEqual([['correction', -3, 0]]);
    expect(before[0]!.note).toContain('RBT-2026-0001 à faire');
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'repayment')).toEqual([]);

    const [refund] = await memberRefunds(test.db, reader);
    expect(refund).toMatchObject({ reference: 'RBT-2026-0001', cause: 'renunciation', amountCents: 15_000, status: 'awaiting_iban', maskedIban: null });
    expect(await sharesBlockDeletion(deps, reader)).toContain('remboursement par virement');

    // The back-office sees it, awaiting the IBAN; it cannot be marked made yet.
    const listed = await refundsForAdmin(deps, admin);
    expect(listed).toMatchObject({
      ok: true,
      open: [{ reference: 'RBT-2026-0001', amountCents: 15_000, status: 'awaiting_iban', iban: null, name: `Inès Durand ${n}` }],
      made: [],
    });
    expect(await refundsForAdmin(deps, reader)).toMatchObject({ ok: false, status: 403 });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2026-11-23', iban: '' })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('pas encore indiqué son IBAN'),
    });

    // Another member can neither see nor set it.
    const other = await newUser('autre');
    expect(await memberRefunds(test.db, other)).toEqual([]);
    expect(await giveRefundIban(deps, other, refund!.id, { iban: 'DE89 3704 0044 0532 0130 00', holder: 'Quelqu’un d’autre' })).toEqual({
      ok: false,
      status: 404,
      message: 'Ce remboursement est introuvable.',
    });

    // A bad IBAN or holder: a French message, nothing changed.
    expect(await giveRefundIban(deps, reader, refund!.id, { iban: 'FR76 3000 6000 0112 3456 7890 188', holder: 'Inès Durand' })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('clé de contrôle'),
    });
    expect(await giveRefundIban(deps, reader, refund!.id, { iban: IBAN, holder: ' ' })).toMatchObject({ ok: false, status: 422 });
    expect((await memberRefunds(test.db, reader))[0]).toMatchObject({ status: 'awaiting_iban', maskedIban: null, accountHolder: null });

    const given = await giveRefundIban(deps, reader, refund!.id, { iban: 'fr76 3000 6000 0112 3456 7890 189', holder: '  Inès   Durand ' });
    expect(given).toMatchObject({ ok: true, refund: { status: 'to_make', accountHolder: 'Inès Durand', maskedIban: maskIban(IBAN) } });
    // The member sees it masked; staff see it whole, normalised.
    expect(JSON.stringify(await memberRefunds(test.db, reader))).not.toContain(IBAN);
    const staff = await refundTransfersForStaff(test.db);
    expect(staff.open[0]).toMatchObject({ status: 'to_make', iban: IBAN, ibanFormatted: 'FR76 3000 6000 0112 3456 7890 189', accountHolder: 'Inès Durand' });

    // Bad marks change nothing.
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2026-11-24', iban: IBAN })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('futur'),
    });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2026-11-23', iban: 'DE89370400440532013000' })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('a changé'),
    });
    expect(await markRefundMade(deps, admin, 'inconnu', { madeOn: '2026-11-23', iban: IBAN })).toMatchObject({ ok: false, status: 404 });
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'repayment')).toEqual([]);

    clock.set(new Date('2026-11-25T09:00:00Z'));
    expect(await markRefundMadeAsAdmin(deps, admin, refund!.id, { madeOn: '2026-11-24', iban: IBAN })).toMatchObject({
      ok: true,
      message: expect.stringContaining('RBT-2026-0001'),
    });
    // Once: the second mark is refused and writes nothing.
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2026-11-25', iban: IBAN })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('déjà marqué comme fait'),
    });
    const repayments = (await registerEntries(test.db)).filter((e) => e.kind === 'repayment');
    expect(repayments.map((e) => [e.sharesDelta, e.repaidCents, e.effectiveOn, e.recordedBy])).toEqual([[0, 15_000, '2026-11-24', admin]]);
    expect(repayments[0]!.note).toContain('RBT-2026-0001');
    expect((await refundTransfersForStaff(test.db)).made[0]).toMatchObject({
      status: 'made',
      madeOn: '2026-11-24',
      madeBy: admin,
      madeByEmail: expect.stringContaining('tresorerie'),
    });
    expect(await giveRefundIban(deps, reader, refund!.id, { iban: IBAN, holder: 'Inès Durand' })).toMatchObject({ ok: false, status: 409 });
    expect(await sharesBlockDeletion(deps, reader)).toBeNull();

    // The member is told, with the IBAN masked.
    await deps.flush();
    const made = (await mailTo(reader)).filter((m) => m.subject.includes('remboursement par virement est parti'));
    expect(made).toHaveLength(1);
    expect(flat(made[0]!.text)).toContain('150 €');
    expect(made[0]!.text).toContain('RBT-2026-0001');
    expect(made[0]!.text).toContain('0189');
    expect(made[0]!.text).not.toContain(IBAN);
    expect(made[0]!.text).not.toContain('FR76 3000');
  });

  it('a renunciation that opens no refund says so, even while another refund awaits the IBAN', async () => {
    const reader = await newUser('lectrice');
    expect(await renounceBulletin(deps, reader, await transferBulletin(reader, 2, { admit: false }), recordNothing)).toEqual({
      ok: true,
      refundByTransfer: 'RBT-2026-0001',
    });
    // Not paid yet: nothing to refund, though the first refund still awaits the IBAN.
    expect(await renounceBulletin(deps, reader, await transferBulletin(reader, 1, { pay: false }), recordNothing)).toEqual({ ok: true });
    expect((await memberRefunds(test.db, reader)).map((r) => r.status)).toEqual(['awaiting_iban']);
  });

  it('the day of the transfer: a day that exists, not in the future, not before the refund was owed', async () => {
    const reader = await newUser('lectrice');
    await renounceBulletin(deps, reader, await transferBulletin(reader, 2, { admit: false }), recordNothing);
    const [refund] = await memberRefunds(test.db, reader);
    expect(await giveRefundIban(deps, reader, refund!.id, { iban: IBAN, holder: 'Inès Durand' })).toMatchObject({ ok: true });
    clock.set(new Date('2027-03-10T10:00:00Z'));
    for (const madeOn of ['2027-02-31', '2027-02-29', '2026-11-31', '2027-13-01', '2027-00-10']) {
      expect(await markRefundMade(deps, admin, refund!.id, { madeOn, iban: IBAN })).toMatchObject({
        ok: false,
        status: 422,
        message: expect.stringContaining('n’existe pas'),
      });
    }
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2027-03-11', iban: IBAN })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('futur'),
    });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2026-11-22', iban: IBAN })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('avant que le remboursement soit dû'),
    });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: 'hier', iban: IBAN })).toMatchObject({
      ok: false,
      status: 422,
      message: 'Indiquez la date du virement.',
    });
    expect((await memberRefunds(test.db, reader))[0]).toMatchObject({ status: 'to_make', madeOn: null });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2027-02-28', iban: IBAN })).toMatchObject({ ok: true, refund: { madeOn: '2027-02-28' } });
  });

  it('a refusal and an overpayment by transfer open their own refunds, with gapless references; the register has nothing to say', async () => {
    const refused = await newUser('refus');
    const paid = await transferBulletin(refused, 2, { admit: false });
    expect(await refuseBulletin(deps, paid, admin, 'Collège complet cette année')).toEqual({ ok: true });

    const twice = await newUser('deux-fois');
    const waiting = await transferBulletin(twice, 1, { pay: false });
    expect(await confirmTransfer(deps, waiting, admin, { amountCents: 10_000, receivedOn: '2026-11-23', override: true })).toEqual({ ok: true });
    expect(await findBulletin(test.db, waiting)).toMatchObject({ status: 'paid', transferReceivedCents: 10_000 });
    await deps.flush();

    expect(await memberRefunds(test.db, refused)).toMatchObject([
      { reference: 'RBT-2026-0001', cause: 'refusal', amountCents: 10_000, status: 'awaiting_iban' },
    ]);
    expect(await memberRefunds(test.db, twice)).toMatchObject([
      { reference: 'RBT-2026-0002', cause: 'overpayment', amountCents: 5_000, status: 'awaiting_iban' },
    ]);
    const refusal = (await mailTo(refused)).find((m) => m.subject.includes('pas été acceptée'))!;
    expect(flat(refusal.text)).toContain('Nous vous remboursons 100 € par virement bancaire');
    expect(refusal.text).toContain('/mon-compte/societariat#remboursements');
    const over = (await mailTo(twice)).find((m) => m.subject.includes('plus que le montant'))!;
    expect(flat(over.text)).toContain('Nous avons reçu 100 €');
    expect(flat(over.text)).toContain('Nous vous remboursons 50 € par virement bancaire');

    const [owed] = await memberRefunds(test.db, twice);
    expect(await giveRefundIban(deps, twice, owed!.id, { iban: 'DE89 3704 0044 0532 0130 00', holder: 'Inès Durand' })).toMatchObject({ ok: true });
    const entries = (await registerEntries(test.db)).length;
    expect(await markRefundMade(deps, admin, owed!.id, { madeOn: '2026-11-23', iban: 'DE89370400440532013000' })).toMatchObject({ ok: true });
    expect((await registerEntries(test.db)).length).toBe(entries);
    const { open, made } = await refundTransfersForStaff(test.db);
    expect(open.map((r) => r.reference)).toEqual(['RBT-2026-0001']);
    expect(made.map((r) => r.reference)).toEqual(['RBT-2026-0002']);
  });

  it('a paper bulletin paid twice: staff enter the IBAN sent with a RIB (checked), then make the transfer; an account’s refund stays the account’s', async () => {
    const paper = await transferBulletin(null, 1, { pay: false });
    expect(await confirmTransfer(deps, paper, admin, { amountCents: 10_000, receivedOn: '2026-11-23', override: true })).toEqual({ ok: true });
    const owed = (await refundTransfersForStaff(test.db)).open.find((r) => r.bulletinId === paper)!;
    expect(owed).toMatchObject({ userId: null, cause: 'overpayment', amountCents: 5_000, status: 'awaiting_iban' });
    // Nothing to transfer to yet.
    expect(await markRefundMade(deps, admin, owed.id, { madeOn: '2026-11-23', iban: '' })).toMatchObject({ ok: false, status: 409 });

    // A wrong IBAN or no holder: refused in French, nothing recorded.
    expect(await giveRefundIbanAsAdmin(deps, admin, owed.id, { iban: 'FR7630006000011234567890188', holder: 'Inès Durand' })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('clé de contrôle'),
    });
    expect(await giveRefundIbanAsAdmin(deps, admin, owed.id, { iban: IBAN, holder: ' ' })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('titulaire'),
    });
    expect((await refundTransfersForStaff(test.db)).open.find((r) => r.id === owed.id)).toMatchObject({ status: 'awaiting_iban', iban: null });
    // Someone who is not an administrator cannot.
    const reader = await newUser('curieux');
    expect(await giveRefundIbanAsAdmin(deps, reader, owed.id, { iban: IBAN, holder: 'Inès Durand' })).toMatchObject({ ok: false, status: 403 });

    expect(await giveRefundIbanAsAdmin(deps, admin, owed.id, { iban: 'fr76 3000 6000 0112 3456 7890 189', holder: 'Inès  Durand' })).toMatchObject({
      ok: true,
      message: expect.stringContaining(owed.reference),
    });
    expect((await refundTransfersForStaff(test.db)).open.find((r) => r.id === owed.id)).toMatchObject({
      status: 'to_make',
      iban: IBAN,
      accountHolder: 'Inès Durand',
    });
    expect(await markRefundMadeAsAdmin(deps, admin, owed.id, { madeOn: '2026-11-23', iban: IBAN })).toMatchObject({ ok: true });
    // Once made, its IBAN no longer changes.
    expect(await giveRefundIbanAsAdmin(deps, admin, owed.id, { iban: 'DE89 3704 0044 0532 0130 00', holder: 'Autre Personne' })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect((await refundTransfersForStaff(test.db)).made.find((r) => r.id === owed.id)).toMatchObject({ iban: IBAN, status: 'made' });

    // A refund owed to an account: the member says where the money goes, not staff.
    const member = await newUser('membre');
    const waiting = await transferBulletin(member, 1, { pay: false });
    expect(await confirmTransfer(deps, waiting, admin, { amountCents: 10_000, receivedOn: '2026-11-23', override: true })).toEqual({ ok: true });
    const [theirs] = await memberRefunds(test.db, member);
    expect(await giveRefundIbanAsAdmin(deps, admin, theirs!.id, { iban: IBAN, holder: 'Inès Durand' })).toMatchObject({ ok: false, status: 409 });
    expect((await memberRefunds(test.db, member))[0]).toMatchObject({ status: 'awaiting_iban', maskedIban: null });
  });

  it('a withdrawal repaid by transfer: the repayment entry and the close wait for the transfer made', async () => {
    await transferBulletin(await newUser('socle'), 40, { daysAgo: 300 });
    const leaving = await newUser('depart');
    await transferBulletin(leaving, 4, { daysAgo: 300 });
    const asked = await requestWithdrawal(deps, leaving, { parts: 4, motif: '' });
    if (!asked.ok) throw new Error(asked.message);
    expect(await decideWithdrawal(deps, admin, asked.withdrawalId, { accept: true })).toMatchObject({ ok: true });
    clock.set(new Date('2027-06-30T10:00:00Z'));
    expect(await recordRepayment(deps, admin, asked.withdrawalId, 20_000)).toEqual({ ok: true, reference: 'RBT-2027-0001' });
    await deps.flush();
    const asking = (await mailTo(leaving)).find((m) => m.subject.includes('indiquez votre IBAN'))!;
    expect(flat(asking.text)).toContain('Nous vous remboursons 200 € par virement bancaire');
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'repayment')).toEqual([]);
    const [refund] = await memberRefunds(test.db, leaving);
    expect(await giveRefundIban(deps, leaving, refund!.id, { iban: IBAN, holder: 'Inès Durand' })).toMatchObject({ ok: true });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2027-06-30', iban: IBAN })).toMatchObject({ ok: true });
    expect(await markRefundMade(deps, admin, refund!.id, { madeOn: '2027-06-30', iban: IBAN })).toMatchObject({ ok: false, status: 409 });
    expect((await registerEntries(test.db)).filter((e) => e.kind === 'repayment').map((e) => [e.withdrawalId, e.repaidCents, e.effectiveOn])).toEqual([
      [asked.withdrawalId, 20_000, '2027-06-30'],
    ]);
    expect(await test.db.selectFrom('share_withdrawals').select('status').where('id', '=', asked.withdrawalId).executeTakeFirst()).toEqual({
      status: 'repaid',
    });
  });
});
