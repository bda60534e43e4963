/**
 * The back-office's billing tools on both databases, with documents issued by the real payment
 * path: the search by number, buyer, year and kind; the accountant's CSV read back (amounts,
 * credit notes, a business, formula injection, the Paris new year); the gifts sold and their
 * states, never with their code; and nothing of it for someone who is not an administrator.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCsv } from '../../../tests/helpers/csv';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { TEST_WEBHOOK_KEY, withJobs } from '../../../tests/helpers/jobs';
import { createUser } from '../auth/service';
import { parseBasket } from '../catalog/basket';
import { type CheckoutInput, placeOrder } from '../checkout/service';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { insertOrder } from '../orders/repository';
import { createSimulatedProvider, PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { sweepMissingDocuments } from '../billing/service';
import { activateGift } from '../gifts/service';
import { accountingExport, adminDocumentPdf, EXPORT_HEADER, giftsForAdmin, parseDocumentNumber, parseExportRequest, searchDocuments } from './billing';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

describe('document numbers as typed in the search', () => {
  it('reads « F-000042 », « f 42 », « AV000003 », « n° 7 » and a bare number; anything else is a name', () => {
    expect(parseDocumentNumber('F-000042')).toEqual({ series: 'F', number: 42 });
    expect(parseDocumentNumber(' f 42 ')).toEqual({ series: 'F', number: 42 });
    expect(parseDocumentNumber('AV000003')).toEqual({ series: 'AV', number: 3 });
    expect(parseDocumentNumber('rd–12')).toEqual({ series: 'RD', number: 12 });
    expect(parseDocumentNumber('n° 7')).toEqual({ number: 7 });
    expect(parseDocumentNumber('42')).toEqual({ number: 42 });
    expect(parseDocumentNumber('Lefèvre')).toBeUndefined();
    expect(parseDocumentNumber('F-42-1')).toBeUndefined();
    expect(parseDocumentNumber('Fabien 42')).toBeUndefined();
  });

  it('reads the export period from the address, Paris days included; refuses the rest in French', () => {
    const period = (query: string) => parseExportRequest(new URLSearchParams(query));
    expect(period('contenu=factures&annee=2026')).toMatchObject({
      ok: true,
      content: 'factures',
      period: { from: new Date('2025-12-31T23:00:00Z'), to: new Date('2026-12-31T23:00:00Z'), slug: '2026' },
    });
    expect(period('contenu=dons&annee=2026&du=2026-03-01&au=2026-03-31')).toMatchObject({
      ok: true,
      content: 'dons',
      period: { from: new Date('2026-02-28T23:00:00Z'), to: new Date('2026-03-31T22:00:00Z'), slug: '2026-03-01_2026-03-31' },
    });
    expect(period('contenu=factures&du=2026-03-01&au=')).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('les deux dates') });
    expect(period('contenu=factures&du=2026-02-30&au=2026-03-01')).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('Date invalide') });
    expect(period('contenu=factures&du=2026-04-01&au=2026-03-01')).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('précéder') });
    expect(period('contenu=tout&annee=2026')).toMatchObject({ ok: false, status: 422 });
    expect(period('contenu=factures&annee=deux')).toMatchObject({ ok: false, status: 422 });
  });
});

const billing = {
  given_name: 'Émile',
  family_name: 'Lefèvre',
  address_line1: '3 rue du Port',
  address_line2: '',
  postal_code: '44000',
  city: 'Nantes',
  country: 'FR',
};
const form = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
  ...billing,
  methode: 'card',
  cgv: true,
  demarrage_immediat: true,
  tentative: randomUUID(),
  ...over,
});

describeEachDialect('back-office billing', (kind) => {
  let test: TestDatabase;
  const sent: OutgoingMail[] = [];
  const clock = fakeClock(new Date('2026-11-23T10:00:00Z'));
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let adminId: string;
  let readerId: string;
  let emile: string;
  let societe: string;
  let refundedOrder: string;
  let newYearOrder: string;
  let n = 0;

  const sessionOf = (url: string) => new URL(url, 'https://contrechamp.example').pathname.split('/').pop()!;
  async function pay(
    buyer: string,
    values: Record<string, string>,
    over: Partial<CheckoutInput> = {},
    gift?: Record<string, string>,
    number = '4242424242424242',
  ) {
    const basket = parseBasket(values);
    if (!basket.ok) throw new Error(basket.message);
    // A minute between two payments: the lists are newest first.
    clock.advance(60_000);
    const placed = await placeOrder(deps, buyer, basket.basket, undefined, form(over), gift as never);
    if (!placed.ok) throw new Error(placed.message);
    if (number) await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number, delivery: PROMPT_DELIVERY });
    await deps.flush();
    return placed.orderId;
  }
  const refund = async (orderId: string) => {
    clock.advance(60_000);
    const order = await test.db.selectFrom('orders').select(['payment_ref', 'amount_cents']).where('id', '=', orderId).executeTakeFirstOrThrow();
    await provider.refund({ paymentRef: order.payment_ref!, amountCents: order.amount_cents, idempotencyKey: `refund:${orderId}` });
    await deps.flush();
  };

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
    provider = createSimulatedProvider(deps, { sepaDelayMs: 60_000, signingKey: TEST_WEBHOOK_KEY });
    deps.payments = provider;
    adminId = await createUser(test.db, { email: 'admin@exemple.fr', password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    readerId = await createUser(test.db, { email: 'lecteur@exemple.fr', password: 'un mot de passe solide', now: clock.now() });
    emile = await createUser(test.db, { email: 'emile.lefevre@exemple.fr', password: 'un mot de passe solide', now: clock.now() });
    societe = await createUser(test.db, { email: 'compta@amis-du-port.example', password: 'un mot de passe solide', now: clock.now() });
    // Émile: a monthly subscription (F-000001), refunded (AV-000001); a donation (RD-000001), refunded too.
    refundedOrder = await pay(emile, { formule: 'mensuel' });
    const donation = await pay(emile, { don: '2500', frequence: 'unique' });
    await refund(refundedOrder);
    await refund(donation);
    // A business whose contact typed a formula as their name (F-000002), and a donation (RD-000002).
    await pay(
      societe,
      { formule: 'annuel' },
      { given_name: '=HYPERLINK("http://x.example")', family_name: 'Dupont', company: 'SARL Les Amis; du "Port"', siren: '732829320' },
    );
    await pay(societe, { don: '1000', frequence: 'unique' }, { given_name: '@Marie', family_name: 'Dupont' });
    // Paid at 0:30 on 1 January 2026 in Paris (23:30 UTC on the 31st): a 2026 invoice (F-000003, issued by the sweep).
    const paidAt = new Date('2025-12-31T23:30:00Z');
    ({
      order: { id: newYearOrder },
    } = await insertOrder(
      test.db,
      {
        userId: readerId,
        purpose: 'subscription',
        reason: 'initial',
        offerId: 'mensuel',
        description: 'Abonnement Mensuel',
        interval: 'month',
        amountCents: 700,
        vatRateBp: 210,
        vatCents: 14,
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: `ny:${randomUUID()}`,
        billingName: 'Nora Nouvelan',
        status: 'paid',
        paymentRef: 'ch_nouvel_an',
        paidAt,
      },
      paidAt,
    ));
    // The sweep dates a document the day it issues it: these two run on the day of their payment.
    const today = clock.now();
    clock.set(paidAt);
    await sweepMissingDocuments(deps);
    // Paid at 23:30 on 31 December 2024 in Paris: a 2024 invoice (F-000004).
    const before = new Date('2024-12-31T22:30:00Z');
    await insertOrder(
      test.db,
      {
        userId: readerId,
        purpose: 'subscription',
        reason: 'initial',
        offerId: 'mensuel',
        description: 'Abonnement Mensuel',
        interval: 'month',
        amountCents: 700,
        vatRateBp: 210,
        vatCents: 14,
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: `old:${randomUUID()}`,
        billingName: 'Nora Nouvelan',
        status: 'paid',
        paymentRef: 'ch_ancien',
        paidAt: before,
      },
      before,
    );
    clock.set(before);
    await sweepMissingDocuments(deps);
    clock.set(today);
    await deps.flush();
  });
  afterAll(async () => {
    await test.close();
  });

  const labels = (r: Awaited<ReturnType<typeof searchDocuments>>) => (r.ok ? r.documents.map((d) => d.label) : r.message);

  it('finds documents by number in any form, by buyer (accents and case ignored, or the address), by year and kind; newest first', async () => {
    const latest = await searchDocuments(deps, adminId, { query: '' });
    expect(latest).toMatchObject({ ok: true, by: 'latest', truncated: false, years: [2026, 2024] });
    expect(labels(latest)).toHaveLength(7);
    expect(labels(await searchDocuments(deps, adminId, { query: 'F-000002' }))).toEqual(['F-000002']);
    expect(labels(await searchDocuments(deps, adminId, { query: 'av1' }))).toEqual(['AV-000001']);
    expect((labels(await searchDocuments(deps, adminId, { query: '1' })) as string[]).sort()).toEqual(['AV-000001', 'F-000001', 'RD-000001']);
    expect(labels(await searchDocuments(deps, adminId, { query: '1', kind: 'receipt' }))).toEqual(['RD-000001']);
    expect(labels(await searchDocuments(deps, adminId, { query: 'F-000099' }))).toEqual([]);
    const byName = await searchDocuments(deps, adminId, { query: 'emile LEFEVRE' });
    expect(byName).toMatchObject({ ok: true, by: 'buyer' });
    expect((labels(byName) as string[]).sort()).toEqual(['AV-000001', 'F-000001', 'RD-000001']);
    expect(labels(await searchDocuments(deps, adminId, { query: 'amis du' }))).toEqual(['F-000002']);
    expect((labels(await searchDocuments(deps, adminId, { query: 'compta@amis' })) as string[]).sort()).toEqual(['F-000002', 'RD-000002']);
    expect(labels(await searchDocuments(deps, adminId, { query: 'nouvelan', year: 2024 }))).toEqual(['F-000004']);
    expect(labels(await searchDocuments(deps, adminId, { query: '', year: 2024 }))).toEqual(['F-000004']);
    expect(labels(await searchDocuments(deps, adminId, { query: '', kind: 'credit_note' }))).toEqual(['AV-000001']);
    expect(await searchDocuments(deps, adminId, { query: 'x' })).toMatchObject({ ok: false, status: 422 });
    // A credit note and its invoice name each other; each row leads to its order.
    const invoice = await searchDocuments(deps, adminId, { query: 'F-000001' });
    const note = await searchDocuments(deps, adminId, { query: 'AV-000001' });
    if (!invoice.ok || !note.ok) throw new Error('search failed');
    expect(invoice.documents[0]).toMatchObject({
      kind: 'invoice',
      totalCents: 700,
      vatCents: 14,
      buyerName: 'Émile Lefèvre',
      ownerEmail: 'emile.lefevre@exemple.fr',
      orderId: refundedOrder,
      related: { id: note.documents[0]!.id, label: 'AV-000001' },
    });
    expect(note.documents[0]).toMatchObject({ kind: 'credit_note', related: { id: invoice.documents[0]!.id, label: 'F-000001' } });
  });

  it('the invoices and credit notes of a year as French Excel reads them: credit notes negative, business SIREN, formulas neutralised, the Paris new year', async () => {
    const asked = parseExportRequest(new URLSearchParams('contenu=factures&annee=2026'));
    if (!asked.ok) throw new Error(asked.message);
    const file = await accountingExport(deps, adminId, asked.content, asked.period);
    if (!file.ok) throw new Error(file.message);
    expect(file).toMatchObject({ filename: 'contrechamp-factures-2026.csv', count: 4 });
    const [header, ...rows] = parseCsv(file.csv);
    expect(header).toEqual(EXPORT_HEADER);
    const byNumber: Record<string, Record<string, string>> = Object.fromEntries(
      rows.map((r) => [r[0]!, Object.fromEntries(header!.map((h, i) => [h, r[i]!]))]),
    );
    expect(Object.keys(byNumber)).toEqual(['F-000003', 'F-000001', 'AV-000001', 'F-000002']);
    // The order is named by the reference its invoice and mails print, never by its id.
    const referenceOf = async (id: string) => (await test.db.selectFrom('orders').select('reference').where('id', '=', id).executeTakeFirstOrThrow()).reference;
    const refunded = await referenceOf(refundedOrder);
    expect(refunded).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(byNumber['F-000003']).toMatchObject({
      Type: 'Facture',
      Date: '01/01/2026',
      Acheteur: 'Nora Nouvelan',
      'Montant TTC': '7,00',
      Commande: await referenceOf(newYearOrder),
      'Référence de paiement': 'ch_nouvel_an',
    });
    expect(byNumber['F-000001']).toMatchObject({
      Type: 'Facture',
      Date: '23/11/2026',
      Acheteur: 'Émile Lefèvre',
      Entreprise: '',
      SIREN: '',
      'Montant HT': '6,86',
      'Taux de TVA (%)': '2,1',
      TVA: '0,14',
      'Montant TTC': '7,00',
      'Facture annulée': '',
      Commande: refunded,
      'Remboursé le': '23/11/2026',
    });
    expect(byNumber['AV-000001']).toMatchObject({
      Type: 'Avoir',
      'Montant HT': '-6,86',
      TVA: '-0,14',
      'Montant TTC': '-7,00',
      'Facture annulée': 'F-000001',
      Commande: refunded,
    });
    expect(byNumber['F-000002']).toMatchObject({
      Acheteur: `'=HYPERLINK("http://x.example") Dupont`,
      Entreprise: 'SARL Les Amis; du "Port"',
      SIREN: '732 829 320',
    });
    for (const r of Object.values(byNumber)) {
      const cents = (v: string) => Math.round(Number(v.replace(',', '.')) * 100);
      expect(cents(r['Montant HT']!) + cents(r.TVA!)).toBe(cents(r['Montant TTC']!));
      expect(r['Référence de paiement']).toMatch(/^ch_/);
    }
    // The raw bytes: BOM, `;`, CRLF, the risky name quoted and prefixed.
    expect(file.csv.startsWith('\uFEFFNuméro;Type;Date;')).toBe(true);
    expect(file.csv).toContain(`;"'=HYPERLINK(""http://x.example"") Dupont";"SARL Les Amis; du ""Port""";732 829 320;`);
    expect(file.csv.split('\r\n')).toHaveLength(6);

    // 2024 has its own; a period of days picks the new year's day only.
    const old = parseExportRequest(new URLSearchParams('contenu=factures&annee=2024'));
    if (!old.ok) throw new Error(old.message);
    expect(
      (await accountingExport(deps, adminId, old.content, old.period)).ok &&
        parseCsv(((await accountingExport(deps, adminId, old.content, old.period)) as { csv: string }).csv).map((r) => r[0]),
    ).toEqual(['Numéro', 'F-000004']);
    const day = parseExportRequest(new URLSearchParams('contenu=factures&du=2026-01-01&au=2026-01-01'));
    if (!day.ok) throw new Error(day.message);
    const dayFile = await accountingExport(deps, adminId, day.content, day.period);
    expect(dayFile.ok && parseCsv(dayFile.csv).map((r) => r[0])).toEqual(['Numéro', 'F-000003']);
  });

  it('the donations of a year: one line per receipt, the refunded one with its refund date, and the formula-like name neutralised', async () => {
    const asked = parseExportRequest(new URLSearchParams('contenu=dons&annee=2026'));
    if (!asked.ok) throw new Error(asked.message);
    const file = await accountingExport(deps, adminId, asked.content, asked.period);
    if (!file.ok) throw new Error(file.message);
    const [header, ...rows] = parseCsv(file.csv);
    const lines = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    expect(lines.map((l) => [l['Numéro'], l.Type, l.Acheteur, l['Montant HT'], l['Taux de TVA (%)'], l.TVA, l['Montant TTC'], l['Remboursé le']])).toEqual([
      ['RD-000001', 'Reçu de don', 'Émile Lefèvre', '25,00', '0', '0,00', '25,00', '23/11/2026'],
      ['RD-000002', 'Reçu de don', "'@Marie Dupont", '10,00', '0', '0,00', '10,00', ''],
    ]);
  });

  it('the gifts sold with their states, never their code', async () => {
    const paul = { given_name: 'Paul', family_name: 'Offrant' };
    const giftOf = (over: Record<string, string>) => ({
      destinataire_nom: 'Camille Lefèvre',
      remise: 'email',
      destinataire_email: 'camille@exemple.fr',
      message: 'Bonne lecture',
      date_envoi: '2026-12-24',
      ...over,
    });
    const buyer = await createUser(test.db, {
      email: `offrant${++n}@exemple.fr`,
      password: 'un mot de passe solide',
      givenName: 'Paul',
      familyName: 'Offrant',
      now: clock.now(),
    });
    const codes: string[] = [];
    const codeOf = () => /Code cadeau\s*:\s*([0-9A-Z-]{19})/.exec(sent.filter((m) => /Votre abonnement offert/.test(m.subject)).at(-1)!.text)![1]!;
    // Scheduled for Christmas (issued); handed over by the buyer (issued); delivered today; activated; revoked; not paid.
    await pay(buyer, { cadeau: 'cadeau-6-mois' }, paul, giftOf({}));
    codes.push(codeOf());
    await pay(buyer, { cadeau: 'cadeau-1-an' }, paul, giftOf({ remise: 'moi-meme', destinataire_email: '' }));
    codes.push(codeOf());
    await pay(buyer, { cadeau: 'cadeau-6-mois' }, paul, giftOf({ date_envoi: '2026-11-23', destinataire_email: 'louis@exemple.fr' }));
    codes.push(codeOf());
    const activated = await pay(buyer, { cadeau: 'cadeau-6-mois' }, paul, giftOf({ remise: 'moi-meme', destinataire_email: '' }));
    codes.push(codeOf());
    expect(await activateGift(deps, readerId, codes.at(-1)!, 'c1')).toMatchObject({ ok: true });
    const revoked = await pay(buyer, { cadeau: 'cadeau-6-mois' }, paul, giftOf({ remise: 'moi-meme', destinataire_email: '' }));
    codes.push(codeOf());
    await refund(revoked);
    await pay(buyer, { cadeau: 'cadeau-6-mois' }, paul, giftOf({}), '');

    const all = await giftsForAdmin(deps, adminId);
    if (!all.ok) throw new Error(all.message);
    expect(all.counts).toEqual({ pending: 1, issued: 2, delivered: 1, activated: 1, expired: 0, revoked: 1 });
    expect(all.gifts.map((g) => g.state)).toEqual(['pending', 'revoked', 'activated', 'delivered', 'issued', 'issued']);
    expect(all.gifts.find((g) => g.orderId === activated)).toMatchObject({
      state: 'activated',
      offerLabel: 'Abonnement offert 6 mois',
      buyerName: 'Paul Offrant',
      activatedByEmail: 'lecteur@exemple.fr',
      invoice: { label: expect.stringMatching(/^F-/) },
    });
    expect(all.gifts.find((g) => g.orderId === revoked)?.revokedAt).not.toBeNull();
    expect(all.gifts.map((g) => g.codeHint)).toEqual([
      null,
      ...codes
        .slice()
        .reverse()
        .map((c) => c.slice(-4)),
    ]);
    // Neither the code, nor its keyed hash, nor its sealed copy leave the database.
    const shown = JSON.stringify(all);
    const stored = await test.db.selectFrom('gifts').select(['code_hash', 'code_sealed']).execute();
    for (const code of codes) {
      expect(shown).not.toContain(code);
      expect(shown).not.toContain(code.replace(/-/g, ''));
    }
    for (const s of stored.filter((s) => s.code_hash)) {
      expect(shown).not.toContain(s.code_hash!);
      expect(shown).not.toContain(s.code_sealed!);
    }
    // One state at a time; and a year later, the unused ones have expired.
    const delivered = await giftsForAdmin(deps, adminId, 'delivered');
    expect(delivered.ok && delivered.gifts.map((g) => g.recipientEmail)).toEqual(['louis@exemple.fr']);
    clock.set(new Date('2027-11-24T10:00:00Z'));
    const later = await giftsForAdmin(deps, adminId, 'expired');
    expect(later.ok && later.gifts.map((g) => g.state)).toEqual(['expired', 'expired', 'expired']);
    clock.set(new Date('2026-11-23T10:00:00Z'));
  });

  it('refuses every tool to a reader: 403 from the services, no PDF', async () => {
    const latest = await searchDocuments(deps, adminId, { query: 'F-000001' });
    const id = latest.ok ? latest.documents[0]!.id : '';
    expect(await searchDocuments(deps, readerId, { query: '' })).toMatchObject({ ok: false, status: 403 });
    expect(await giftsForAdmin(deps, readerId)).toMatchObject({ ok: false, status: 403 });
    const period = parseExportRequest(new URLSearchParams('annee=2026'));
    if (!period.ok) throw new Error(period.message);
    expect(await accountingExport(deps, readerId, 'factures', period.period)).toMatchObject({ ok: false, status: 403 });
    expect(await adminDocumentPdf(deps, readerId, id)).toBeUndefined();
    expect(await adminDocumentPdf(deps, emile, id)).toBeUndefined();
    expect((await adminDocumentPdf(deps, adminId, id))?.filename).toBe('contrechamp-F-000001.pdf');
  });
});
