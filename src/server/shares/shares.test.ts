/**
 * Becoming a sociétaire, through the real payment path (simulated provider, signed webhooks,
 * jobs) on both databases: a bulletin paid by card waits for the cooperative, which admits it
 * (certificate, register) or refuses it (refunded); a transfer is confirmed by the back-office;
 * the subscriber may renounce within 14 days; the PDFs reach their owner only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { createUser } from '../auth/service';
import { subscribeShares } from '../checkout/service';
import { fakeClock } from '../core/clock';
import type { OutgoingMail } from '../mail/transport';
import { findOrder } from '../orders/repository';
import { PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { bulletinForm, findBulletin } from './bulletins';
import { holdingOfUser } from './register';
import {
  admitBulletin,
  bulletinPdf,
  certificatePdf,
  confirmTransfer,
  cooperativeFigures,
  memberView,
  refuseBulletin,
  renounceBulletin,
  type RenunciationRecorder,
} from './service';
import { changeCollegeAsAdmin, decideBulletin, pendingBulletins, REGISTER_HEADER, registerCsv, registerForAdmin } from '../admin/shares';
import { seedDemoAccounts, seedDemoAssemblies, seedDemoCooperative } from '../demo/seed';
import { refundTransfersForStaff } from './refunds';
import { deleteAccount } from '../account/service';
import { exportUserShares } from './service';
import { listMemberAssemblies, memberAssembly } from './ballots';
import { memberMinutesPdf } from './assemblies';

/** The shares' side alone: the withdrawal function's record and acknowledgement are its own tests'. */
const recordNothing: RenunciationRecorder = async () => {};

vi.setConfig({ testTimeout: 120_000 });
const DAY = 24 * 3600_000;
const SITE = new URL('https://contrechamp.example');
const form = (over: Record<string, unknown> = {}) => ({
  ...bulletinForm.parse({
    parts: '3',
    college: 'lecteurs',
    personne: 'physique',
    given_name: 'Inès',
    family_name: 'Durand',
    address_line1: '3 rue du Port',
    postal_code: '44000',
    city: 'Nantes',
    country: 'FR',
    paiement: 'card',
    statuts: true,
    risque: true,
    ...over,
  }),
  tentative: randomUUID(),
});
const pdfText = (bytes: Uint8Array): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'parts-')), 'f.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

describeEachDialect('becoming a sociétaire', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let reader: string;
  let admin: string;
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
    ({ clock, deps, provider } = revenueWorld(test.db, { now: new Date('2026-11-23T10:00:00Z'), onMail: (mail) => sent.push(mail), siteUrl: SITE }));
    reader = await newUser('lectrice');
    admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
  });
  const newUser = (prefix: string) => createUser(test.db, { email: `${prefix}${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  const subjects = () => sent.map((m) => m.subject.replace(/\s/g, ' '));

  async function subscribeAndPay(who: string, over: Record<string, unknown> = {}) {
    const placed = await subscribeShares(deps, who, form(over), '203.0.113.7');
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, new URL(placed.url, SITE).pathname.split('/').pop()!, {
      action: 'pay',
      number: '4242424242424242',
      delivery: PROMPT_DELIVERY,
    });
    await deps.flush();
    return placed.bulletinId;
  }

  it('3 shares by card: the bulletin waits, is admitted with a certificate, and the member holds 3 shares in the readers’ college', async () => {
    const before = await cooperativeFigures(deps);
    const id = await subscribeAndPay(reader);
    const bulletin = await findBulletin(test.db, id);
    expect(bulletin).toMatchObject({
      status: 'paid',
      shares: 3,
      amountCents: 15000,
      collegeId: 'lecteurs',
      statutesVersion: '2026-06',
      acceptedFrom: expect.stringContaining('203.0.113.7'),
    });
    const order = await findOrder(test.db, bulletin!.orderId!);
    expect(order).toMatchObject({ purpose: 'shares', amountCents: 15000, vatCents: 0, status: 'paid' });
    expect(subjects()).toContain('Votre souscription de parts sociales est enregistrée');
    // No invoice for a contribution to capital.
    expect(await test.db.selectFrom('billing_documents').select('id').where('order_id', '=', order!.id).execute()).toEqual([]);
    // The bulletin, two copies, waiting for the countersignature.
    const waiting = pdfText((await bulletinPdf(deps, reader, id))!);
    expect(waiting).toMatch(/exemplaire du sociétaire/i);
    expect(waiting).toMatch(/exemplaire de la coopérative/i);
    // Its short number; the fingerprint stays in the acceptance record, not on the page.
    expect(waiting).toContain(bulletin!.number);
    expect(waiting.replace(/\s/g, '')).not.toContain(bulletin!.fingerprint);
    expect(waiting).toMatch(/En attente/);

    const admitted = await admitBulletin(deps, id, admin);
    expect(admitted).toMatchObject({ ok: true });
    if (!admitted.ok) return;
    await deps.flush();
    expect(subjects()).toContain('Bienvenue parmi les sociétaires de Contrechamp');
    // Both mails carry the bulletin: as signed, then countersigned (CGV art. 10).
    const received = sent.find((m) => m.subject.startsWith('Votre souscription de parts sociales'))!;
    expect(received.attachments?.map((a) => a.filename)).toEqual(['bulletin-de-souscription-contrechamp.pdf']);
    const welcome = sent.find((m) => m.subject.startsWith('Bienvenue'))!;
    // What the statutes say of the vote: one voice each, weighted by college (not « autant que chacun »).
    const welcomeText = welcome.text.replace(/\s+/g, ' ');
    expect(welcomeText).toContain(
      'Aux assemblées générales, chaque sociétaire dispose d’une voix, quel que soit le nombre de ses parts, et les voix sont pondérées par collège',
    );
    expect(welcomeText).toContain('Le collège Lecteurs-sociétaires pèse 45 % des voix (Salariés 35 %, Partenaires 20 %)');
    expect(pdfText(welcome.attachments![0]!.content)).toContain(`${admitted.certificateNumber}`);
    expect(await holdingOfUser(test.db, reader, '2026-11-23')).toMatchObject({ shares: 3, collegeId: 'lecteurs' });
    expect(await cooperativeFigures(deps)).toEqual({ members: before.members + 1, shares: before.shares + 3, capitalCents: before.capitalCents + 15000 });
    const countersigned = pdfText((await bulletinPdf(deps, reader, id))!);
    expect(countersigned).toContain(`Certificat de parts n°`);
    expect(countersigned).toContain(String(admitted.certificateNumber));
    const certificate = pdfText((await certificatePdf(deps, reader, admitted.certificateNumber))!);
    expect(certificate).toContain('Certificat de parts sociales');
    expect(certificate.replace(/\s+/g, ' ')).toContain('3 parts sociales');
    const view = await memberView(deps, reader);
    expect(view.certificates).toEqual([expect.objectContaining({ number: admitted.certificateNumber, shares: 3, undone: false })]);

    // A second decision on the same bulletin changes nothing.
    expect(await admitBulletin(deps, id, admin)).toMatchObject({ ok: false, status: 409 });
    expect(await refuseBulletin(deps, id, admin, 'Déjà décidé, pourtant')).toMatchObject({ ok: false, status: 409 });

    // Anybody else: nothing.
    const other = await newUser('curieux');
    expect(await bulletinPdf(deps, other, id)).toBeUndefined();
    expect(await certificatePdf(deps, other, admitted.certificateNumber)).toBeUndefined();
    expect(await renounceBulletin(deps, other, id, recordNothing)).toMatchObject({ ok: false, status: 404 });
  });

  it('a refusal refunds the card payment and says why; a transfer is admitted once confirmed', async () => {
    const id = await subscribeAndPay(reader);
    expect(await refuseBulletin(deps, id, admin, 'trop')).toMatchObject({ ok: false, status: 422 });
    expect(await refuseBulletin(deps, id, admin, 'Collège des salariés réservé à l’équipe')).toEqual({ ok: true });
    await deps.flush();
    const bulletin = await findBulletin(test.db, id);
    expect(bulletin).toMatchObject({ status: 'refused', decisionNote: 'Collège des salariés réservé à l’équipe' });
    expect((await findOrder(test.db, bulletin!.orderId!))!.status).toBe('refunded');
    expect(subjects()).toEqual(expect.arrayContaining(['Votre souscription de parts sociales n’a pas été acceptée', 'Remboursement de 150 € effectué']));
    expect(await holdingOfUser(test.db, reader, '2026-11-23')).toBeUndefined();

    const transfer = await subscribeShares(deps, reader, form({ paiement: 'transfer', parts: '2' }), 'c');
    if (!transfer.ok) throw new Error(transfer.message);
    expect(transfer.url).toBe(`/devenir-societaire/confirmation/${transfer.bulletinId}`);
    // The same form sent again: the same bulletin.
    expect(await subscribeShares(deps, reader, form({ paiement: 'transfer', parts: '2' }), 'c')).toMatchObject({ ok: true, bulletinId: transfer.bulletinId });
    await deps.flush();
    const waiting = await findBulletin(test.db, transfer.bulletinId);
    expect(waiting).toMatchObject({ status: 'awaiting_payment', transferReference: expect.stringMatching(/^PS-[2-9A-Z]{4}-[2-9A-Z]{4}$/) });
    expect(sent.at(-1)!.text).toContain(waiting!.transferReference!);
    expect(await admitBulletin(deps, transfer.bulletinId, admin)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('pas encore payé'),
    });
    // What arrived is checked against the bulletin: a wrong amount, a day ahead or before the signature change nothing.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(clock.now());
    const tomorrow = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(clock.now().getTime() + DAY));
    const amount = waiting!.amountCents;
    expect(await confirmTransfer(deps, transfer.bulletinId, admin, { amountCents: amount - 5000, receivedOn: today })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('ne correspond pas au montant du bulletin'),
    });
    expect(await confirmTransfer(deps, transfer.bulletinId, admin, { amountCents: amount, receivedOn: tomorrow })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('dans le futur'),
    });
    expect(await confirmTransfer(deps, transfer.bulletinId, admin, { amountCents: amount, receivedOn: '2020-01-01' })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('avant la signature'),
    });
    expect(await findBulletin(test.db, transfer.bulletinId)).toMatchObject({ status: 'awaiting_payment', paidAt: null, transferReceivedCents: null });
    expect(await confirmTransfer(deps, transfer.bulletinId, admin, { amountCents: amount, receivedOn: today })).toEqual({ ok: true });
    expect(await findBulletin(test.db, transfer.bulletinId)).toMatchObject({ status: 'paid', transferReceivedCents: amount });
    expect(await confirmTransfer(deps, transfer.bulletinId, admin, { amountCents: amount, receivedOn: today })).toMatchObject({ ok: false, status: 409 });
    expect(await admitBulletin(deps, transfer.bulletinId, admin)).toMatchObject({ ok: true });
    expect(await holdingOfUser(test.db, reader, '2026-11-23')).toMatchObject({ shares: 2 });

    // A different amount, recorded only with the explicit override, and kept for all to see.
    const other = await newUser('virement-ecart');
    const short = await subscribeShares(deps, other, form({ paiement: 'transfer', parts: '1' }), 'c');
    if (!short.ok) throw new Error(short.message);
    expect(await confirmTransfer(deps, short.bulletinId, admin, { amountCents: 4000, receivedOn: today, override: true })).toEqual({ ok: true });
    expect(await findBulletin(test.db, short.bulletinId)).toMatchObject({ status: 'paid', amountCents: 5000, transferReceivedCents: 4000 });
  });

  it('renouncing within 14 days refunds and takes admitted shares out of the register by a new entry; after 14 days it is a withdrawal', async () => {
    const id = await subscribeAndPay(reader);
    const admitted = await admitBulletin(deps, id, admin);
    if (!admitted.ok) throw new Error(admitted.message);
    clock.advance(13 * DAY);
    expect(await renounceBulletin(deps, reader, id, recordNothing)).toEqual({ ok: true });
    await deps.flush();
    expect(await holdingOfUser(test.db, reader, '2026-12-06')).toBeUndefined();
    const entries = await test.db.selectFrom('share_register').select(['kind', 'shares_delta']).where('bulletin_id', 'is', null).execute();
    expect(entries).toEqual(expect.arrayContaining([{ kind: 'correction', shares_delta: -3 }]));
    expect((await findOrder(test.db, (await findBulletin(test.db, id))!.orderId!))!.status).toBe('refunded');
    expect((await memberView(deps, reader)).certificates[0]).toMatchObject({ undone: true });
    expect(await renounceBulletin(deps, reader, id, recordNothing)).toMatchObject({
      ok: false,
      status: 409,
      message: 'Vous avez déjà renoncé à cette souscription.',
    });

    const late = await subscribeAndPay(reader);
    clock.advance(15 * DAY);
    expect(await renounceBulletin(deps, reader, late, recordNothing)).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('demandez le retrait'),
    });
  });

  it('personal data: a sociétaire’s account is not deleted while they hold shares; the export lists bulletins and register entries', async () => {
    const id = await subscribeAndPay(reader);
    expect(await deleteAccount(deps, { userId: reader, password: 'un mot de passe solide' })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('attend la décision de la gérance'),
    });
    await admitBulletin(deps, id, admin);
    expect(await deleteAccount(deps, { userId: reader, password: 'un mot de passe solide' })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('demandez d’abord le retrait de vos parts'),
    });
    expect(await test.db.selectFrom('users').select('id').where('id', '=', reader).executeTakeFirst()).toBeDefined();
    const data = await exportUserShares(test.db, reader);
    expect(data.bulletins).toEqual([expect.objectContaining({ id, shares: 3, status: 'admitted' })]);
    expect(data.register).toEqual([expect.objectContaining({ kind: 'admission', shares: 3 })]);
    expect(data.member?.memberNumber).toBeGreaterThan(0);
  });

  it('renounced while the SEPA debit is on its way: the debit that lands is given back, without anyone asking', async () => {
    const placed = await subscribeShares(deps, reader, form({ paiement: 'sepa' }), 'c');
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, new URL(placed.url, SITE).pathname.split('/').pop()!, {
      action: 'pay',
      number: 'FR1420041010050500013M02606',
      delivery: PROMPT_DELIVERY,
    });
    await deps.flush();
    expect(await findBulletin(test.db, placed.bulletinId)).toMatchObject({ status: 'awaiting_payment' });
    expect(await renounceBulletin(deps, reader, placed.bulletinId, recordNothing)).toEqual({ ok: true });
    clock.advance(60_000);
    await deps.flush();
    const bulletin = await findBulletin(test.db, placed.bulletinId);
    expect(bulletin).toMatchObject({ status: 'renounced' });
    const order = await findOrder(test.db, bulletin!.orderId!);
    expect(order!.status).toBe('refunded');
    const causes = (await test.db.selectFrom('order_events').select('cause').where('order_id', '=', order!.id).execute()).map((e) => e.cause);
    expect(causes).toContain('Remboursement demandé automatiquement : paiement reçu pour une souscription de parts close (renonciation, refus ou abandon)');
  });

  it('bad bulletins are refused in French and nothing is written', async () => {
    const count = async () => (await test.db.selectFrom('share_bulletins').select('id').where('user_id', '=', reader).execute()).length;
    expect(await subscribeShares(deps, reader, form({ college: 'partenaires' }), 'c')).toMatchObject({ ok: false, status: 422 });
    expect(await subscribeShares(deps, reader, form({ college: 'nulle-part' }), 'c')).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('Ce collège n’existe pas'),
    });
    expect(await count()).toBe(0);
    expect(await test.db.selectFrom('orders').select('id').where('user_id', '=', reader).execute()).toEqual([]);
  });

  it('the back-office: only administrators; the waiting bulletins, a decision, the register and its CSV', async () => {
    const id = await subscribeAndPay(reader);
    expect(await pendingBulletins(deps, reader)).toMatchObject({ ok: false, status: 403 });
    expect(await decideBulletin(deps, reader, id, { kind: 'admit' })).toMatchObject({ ok: false, status: 403 });
    expect(await registerCsv(deps, reader)).toMatchObject({ ok: false, status: 403 });
    const pending = await pendingBulletins(deps, admin);
    if (!pending.ok) throw new Error(pending.message);
    expect(pending.decisions.map((p) => p.bulletin.id)).toContain(id);
    expect(await decideBulletin(deps, admin, id, { kind: 'admit' })).toMatchObject({ ok: true, message: expect.stringContaining('Admission prononcée') });
    const register = await registerForAdmin(deps, admin);
    if (!register.ok) throw new Error(register.message);
    expect(register.rows.at(-1)).toMatchObject({ kind: 'admission', sharesDelta: 3, name: 'Inès Durand' });
    expect(register.byCollege.find((c) => c.id === 'lecteurs')!.shares).toBeGreaterThanOrEqual(3);
    const file = await registerCsv(deps, admin);
    if (!file.ok) throw new Error(file.message);
    const lines = file.csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(REGISTER_HEADER.join(';'));
    expect(lines.at(-1)).toContain(';Admission;');
    expect(lines.at(-1)).toContain(';150,00;');
  });

  it('a change of college: a new dated entry, the same shares, the member told; refused in French when it breaks the statutes', async () => {
    const id = await subscribeAndPay(reader, { parts: '2' });
    const admitted = await decideBulletin(deps, admin, id, { kind: 'admit' });
    if (!admitted.ok) throw new Error(admitted.message);
    const numero = Number(/sociétaire n° (\d+)/.exec(admitted.message)![1]);
    await deps.flush();
    const entriesBefore = ((await registerForAdmin(deps, admin)) as { rows: unknown[] }).rows.length;
    const change = (over: Record<string, unknown>) =>
      changeCollegeAsAdmin(deps, admin, { numero: String(numero), college: 'salaries', motif: 'Embauchée comme monteuse', ...over });
    expect(await changeCollegeAsAdmin(deps, reader, { numero: String(numero), college: 'salaries', motif: 'Embauchée' })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await change({ college: 'inconnu' })).toMatchObject({ ok: false, status: 422, message: 'Ce collège n’existe pas dans les statuts.' });
    expect(await change({ college: '' })).toMatchObject({ ok: false, status: 422, message: 'Choisissez le nouveau collège.' });
    expect(await change({ college: 'lecteurs' })).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('déjà dans le collège') });
    expect(await change({ college: 'partenaires' })).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('personnes morales') });
    expect(await change({ numero: '999999' })).toMatchObject({ ok: false, status: 404 });
    expect(await change({ numero: 'douze' })).toMatchObject({ ok: false, status: 422 });
    expect(await change({ motif: '' })).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('motif') });
    expect(((await registerForAdmin(deps, admin)) as { rows: unknown[] }).rows).toHaveLength(entriesBefore);

    expect(await change({})).toMatchObject({ ok: true, message: expect.stringContaining('collège Salariés') });
    expect(await holdingOfUser(test.db, reader, '2026-11-23')).toMatchObject({ shares: 2, collegeId: 'salaries' });
    const register = await registerForAdmin(deps, admin);
    if (!register.ok) throw new Error(register.message);
    expect(register.rows.at(-1)).toMatchObject({
      kind: 'college',
      sharesDelta: 0,
      collegeId: 'salaries',
      note: expect.stringContaining('Embauchée comme monteuse'),
    });
    await deps.flush();
    expect(subjects()).toContain('Votre collège de sociétaire a changé');
    // Twice the same day: already there, nothing more written.
    expect(await change({})).toMatchObject({ ok: false, status: 409 });
  });

  it('the demo register: the sociétaire with 4 shares and every college, seeded once', async () => {
    const fresh = await createTestDatabase(kind);
    try {
      const demo = { ...deps, db: fresh.db };
      await seedDemoAccounts(fresh.db, clock.now());
      await seedDemoCooperative(demo);
      await seedDemoCooperative(demo);
      const societaire = (await fresh.db.selectFrom('users').select('id').where('email', '=', 'societaire@exemple.fr').executeTakeFirstOrThrow()).id;
      expect(await holdingOfUser(fresh.db, societaire, '2026-11-23')).toMatchObject({ shares: 4, collegeId: 'lecteurs' });
      const view = await memberView(demo, societaire);
      expect(view.certificates).toHaveLength(1);
      expect(pdfText((await bulletinPdf(demo, societaire, view.bulletins[0]!.id))!)).toContain('Certificat de parts n°');
      const figures = await cooperativeFigures(demo);
      expect(figures.members).toBe(14);
      const register = await registerForAdmin(
        demo,
        (await fresh.db.selectFrom('users').select('id').where('email', '=', 'administration@exemple.fr').executeTakeFirstOrThrow()).id,
      );
      if (!register.ok) throw new Error(register.message);
      expect(register.byCollege.every((c) => c.members >= 3)).toBe(true);
      // A transfer made twice by a member without an account: the refund waits in the back-office for his RIB.
      const refunds = await refundTransfersForStaff(fresh.db);
      expect(refunds.open.map((r) => [r.name, r.cause, r.amountCents, r.status, r.userId])).toEqual([
        ['Théo Garnier', 'overpayment', 5_000, 'awaiting_iban', null],
      ]);
      expect(refunds.open[0]!.reference).toMatch(/^RBT-\d{4}-0001$/);

      await seedDemoAssemblies(demo);
      await seedDemoAssemblies(demo);
      const assemblies = await listMemberAssemblies(demo, societaire);
      expect(assemblies.map((a) => [a.title, a.voteState, a.resultsPublished])).toEqual([
        ['Assemblée générale ordinaire 2027', 'before', false],
        ['Assemblée générale extraordinaire : modification des statuts', 'open', false],
        ['Assemblée générale extraordinaire : titres participatifs', 'closed', true],
        ['Assemblée générale ordinaire 2026', 'closed', true],
      ]);
      // Last month's extraordinary assembly: one member voted, 100 % pour, but without the quorum
      // nothing was deliberated; its second call waits, as a draft, under the lower quorum.
      const unattended = await memberAssembly(demo, societaire, assemblies[2]!.id);
      if (!unattended.ok) throw new Error(unattended.message);
      expect(unattended.view.results!.quorum).toMatchObject({ met: false, overall: { participating: 1 } });
      const minutesText = pdfText((await memberMinutesPdf(demo, societaire, assemblies[2]!.id))!.bytes);
      expect(minutesText).toContain('pas été délibérée, faute de quorum');
      expect(minutesText).not.toMatch(/\badoptée\b|\brejetée\b/);
      const second = await fresh.db.selectFrom('assemblies').select(['title', 'status', 'call']).where('first_call_id', '=', assemblies[2]!.id).execute();
      expect(second).toEqual([{ title: 'Assemblée générale extraordinaire : titres participatifs (seconde convocation)', status: 'draft', call: 'second' }]);
      const open = await memberAssembly(demo, societaire, assemblies[1]!.id);
      if (!open.ok) throw new Error(open.message);
      expect(open.view.proxiesHeld.map((p) => p.name)).toEqual(['Association Les Amis du Port']);
      const closed = await memberAssembly(demo, societaire, assemblies[3]!.id);
      if (!closed.ok) throw new Error(closed.message);
      // Seven members were called; three took part (the partner by proxy): quorum met. The allocation: employees 1 pour
      // (35 %), partners 1 contre (20 %), readers abstaining (not counted): 35/55 of the weighted votes, adopted.
      expect(closed.view.results!.quorum).toMatchObject({ met: true, overall: { members: 7, participating: 3 } });
      expect(closed.view.results!.resolutions.map((r) => r.adopted)).toEqual([true, true, true]);
      expect(closed.view.results!.resolutions[1]!.share).toBe('7/11');
      expect(closed.view.results!.quorum.overall.participating).toBe(3);
      expect(pdfText((await memberMinutesPdf(demo, societaire, assemblies[3]!.id))!.bytes)).toMatch(/procès-verbal/i);
      // The personal-data export says what the member did in the assemblies, never what they voted.
      const exported = await exportUserShares(fresh.db, societaire);
      expect(exported.assemblies.proxiesHeld).toEqual([
        expect.objectContaining({ assembly: 'Assemblée générale extraordinaire : modification des statuts', revokedAt: null }),
      ]);
      expect(exported.assemblies.proxiesHeld[0]!.from).toMatch(/^sociétaire n° \d+$/);
      expect(exported.assemblies.votesTakenPart.length).toBeGreaterThan(0);
      expect(JSON.stringify(exported)).not.toMatch(/"(pour|contre|abstention)"/);
    } finally {
      await fresh.close();
    }
  });
});
