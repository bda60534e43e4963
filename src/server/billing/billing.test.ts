/**
 * Billing and gifts on both databases, through the real payment path (simulated provider, signed
 * webhooks, jobs): gapless numbering under concurrency and injected failures, append-only
 * documents, the sweep after a crash, the January statements, gift codes bought, delivered on
 * their day and activated once, and every document and card reachable by its owner only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { fakeClock } from '../core/clock';
import { openDatabase } from '../db/client';
import { insertOrder } from '../orders/repository';
import type { OutgoingMail } from '../mail/transport';
import { PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { type CheckoutInput, placeOrder } from '../checkout/service';
import { activateGift, boughtGiftCard, listBoughtGifts, resendGift } from '../gifts/service';
import { cancelNowForReader, renew } from '../subscriptions/service';
import { allotNumber } from './numbering';
import { listUserDocuments, sendYearlyStatements, sweepMissingDocuments, userDocumentPdf } from './service';

vi.setConfig({ testTimeout: 120_000 });
const DAY = 24 * 3600_000;
const billing = {
  given_name: 'Inès',
  family_name: 'Durand',
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
const basketOf = (values: Record<string, string>): Basket => {
  const parsed = parseBasket(values);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.basket;
};

describeEachDialect('billing and gifts', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let userId: string;
  let n = 0;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    await test.db.deleteFrom('rate_limits').execute();
    sent = [];
    ({ clock, deps, provider } = revenueWorld(test.db, { now: new Date('2026-11-23T10:00:00Z'), onMail: (mail) => sent.push(mail) }));
    userId = await newUser('payeur');
  });

  const newUser = (prefix: string) => createUser(test.db, { email: `${prefix}${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  const sessionOf = (url: string) => new URL(url, 'https://contrechamp.example').pathname.split('/').pop()!;

  async function pay(buyer: string, values: Record<string, string>, gift?: Record<string, string>) {
    const placed = await placeOrder(deps, buyer, basketOf(values), undefined, form(), gift as never);
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    return placed.orderId;
  }
  const numbers = async (series: string) =>
    (await test.db.selectFrom('billing_documents').select('number').where('series', '=', series).execute()).map((r) => Number(r.number)).sort((a, b) => a - b);

  it('every paid subscription gets an invoice and every donation a receipt, with the PDF stored once; the mail links it', async () => {
    const sub = await pay(userId, { formule: 'mensuel' });
    const don = await pay(userId, { don: '2000', frequence: 'unique' });
    const { documents } = await listUserDocuments(test.db, userId);
    expect(documents.map((d) => [d.kind, d.totalCents, d.vatCents])).toEqual(
      expect.arrayContaining([
        ['invoice', 700, 14],
        ['receipt', 2000, 0],
      ]),
    );
    const invoice = documents.find((d) => d.kind === 'invoice')!;
    const stored = await test.db.selectFrom('billing_pdfs').select(['document_id', 'sha256']).execute();
    expect(stored.map((r) => r.document_id)).toEqual(expect.arrayContaining(documents.map((d) => d.id)));
    const pdf = await userDocumentPdf(deps, userId, invoice.id);
    expect(Buffer.from(pdf!.bytes).subarray(0, 5).toString()).toBe('%PDF-');
    expect(sent.some((m) => m.text.includes(`/mon-compte/mes-factures/${invoice.id}`))).toBe(true);
    expect([sub, don]).toHaveLength(2);
  });

  it('another reader, an unknown id or garbage never reach a document', async () => {
    await pay(userId, { formule: 'mensuel' });
    const [doc] = (await listUserDocuments(test.db, userId)).documents;
    const other = await newUser('autre');
    expect(await userDocumentPdf(deps, other, doc!.id)).toBeUndefined();
    expect(await userDocumentPdf(deps, userId, randomUUID())).toBeUndefined();
    expect(await userDocumentPdf(deps, userId, "' or 1=1 --")).toBeUndefined();
    expect((await listUserDocuments(test.db, other)).documents).toEqual([]);
  });

  it('100 concurrent payments with injected failures give invoice numbers 1..N exactly, one per paid order', async () => {
    const before = (await numbers('F')).length;
    const buyers: string[] = [];
    for (let i = 0; i < 5; i++) buyers.push(await newUser('lot'));
    // A second connection pool on PostgreSQL: transactions really run side by side.
    const second = kind === 'postgres' ? openDatabase(test.config) : undefined;
    const orders: string[] = [];
    for (let i = 0; i < 100; i++) {
      const { order } = await insertOrder(
        test.db,
        {
          userId: buyers[i % 5]!,
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
          attemptKey: `lot:${randomUUID()}`,
          billingName: 'Lot',
          billingAddress: null,
          status: 'paid',
          paidAt: clock.now(),
        },
        clock.now(),
      );
      orders.push(order.id);
    }
    const { writeTransaction } = await import('../db/transaction');
    const { findOrder } = await import('../orders/repository');
    const { issueForPayment } = await import('./documents');
    const failing = new Set(orders.filter((_, i) => i % 7 === 3));
    const results = await Promise.allSettled(
      orders.map((id, i) =>
        writeTransaction(i % 2 && second ? second.db : test.db, async (trx) => {
          const order = (await findOrder(trx, id))!;
          await issueForPayment(trx, deps.siteUrl, order, { methodLabel: 'Carte', now: clock.now() });
          // The process "dies" after the number is taken and the invoice written: all of it rolls back.
          if (failing.has(id)) throw new Error('injected failure');
        }),
      ),
    );
    await second?.close();
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(failing.size);
    const after = await numbers('F');
    expect(after).toEqual(Array.from({ length: after.length }, (_, i) => i + 1));
    expect(after.length - before).toBe(100 - failing.size);
    const invoiced = await test.db.selectFrom('billing_documents').select('order_id').where('kind', '=', 'invoice').where('order_id', 'in', orders).execute();
    expect(new Set(invoiced.map((r) => r.order_id)).size).toBe(invoiced.length);
    // The failed ones are paid orders without an invoice, as after a crash: the sweep gives them one, once.
    expect(await sweepMissingDocuments(deps)).toBeGreaterThanOrEqual(failing.size);
    expect(await sweepMissingDocuments(deps)).toBe(0);
    const final = await numbers('F');
    expect(final).toEqual(Array.from({ length: final.length }, (_, i) => i + 1));
  });

  it('a transaction that fails after taking a number gives it back', async () => {
    const { writeTransaction } = await import('../db/transaction');
    const start = (await numbers('AV')).length;
    await expect(
      writeTransaction(test.db, async (trx) => {
        await allotNumber(trx, 'AV');
        throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    const row = await test.db.selectFrom('document_counters').select('last_number').where('series', '=', 'AV').executeTakeFirst();
    expect(Number(row?.last_number ?? 0)).toBe(start);
  });

  it('documents and their PDFs can be neither changed nor deleted', async () => {
    await pay(userId, { formule: 'mensuel' });
    const [doc] = (await listUserDocuments(test.db, userId)).documents;
    await expect(
      test.db
        .updateTable('billing_documents')
        .set({ buyer_name: 'Autre' } as never)
        .where('id', '=', doc!.id)
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(test.db.deleteFrom('billing_documents').where('id', '=', doc!.id).execute()).rejects.toThrow(/append-only/);
    await expect(test.db.deleteFrom('billing_pdfs').where('document_id', '=', doc!.id).execute()).rejects.toThrow(/append-only/);
  });

  it('the January statements: one per donor with the donations of the Paris year, mailed once, next year scheduled', async () => {
    const donor = await newUser('donateur');
    const at = (iso: string, cents: number, status: 'paid' | 'refunded' = 'paid') =>
      insertOrder(
        test.db,
        {
          userId: donor,
          purpose: 'donation',
          reason: 'initial',
          offerId: 'don',
          description: 'Don ponctuel',
          interval: null,
          amountCents: cents,
          vatRateBp: 0,
          vatCents: 0,
          source: null,
          method: 'card',
          provider: 'simulated',
          subscriptionId: null,
          attemptKey: `don:${randomUUID()}`,
          status,
          paidAt: new Date(iso),
        },
        new Date(iso),
      );
    await at('2025-12-31T23:30:00Z', 1000); // 1 January 2026, 0:30 in Paris
    await at('2025-12-31T22:30:00Z', 500); // still 31 December 2025 in Paris
    await at('2026-06-01T10:00:00Z', 2000);
    await at('2026-07-01T10:00:00Z', 9900, 'refunded');
    await at('2026-12-31T23:30:00Z', 3000); // 1 January 2027 in Paris
    clock.set(new Date('2027-01-05T08:00:00Z'));
    sent = [];
    await sendYearlyStatements(deps, 2026);
    await deps.flush();
    const statements = await test.db.selectFrom('billing_documents').selectAll().where('kind', '=', 'statement').where('owner_id', '=', donor).execute();
    expect(statements).toHaveLength(1);
    expect(statements[0]!.total_cents).toBe(3000);
    expect(sent.filter((m) => m.to === `donateur${n}@exemple.fr` && /Vos dons à Contrechamp en 2026/.test(m.subject))).toHaveLength(1);
    await sendYearlyStatements(deps, 2026);
    await deps.flush();
    expect(await test.db.selectFrom('billing_documents').select('id').where('kind', '=', 'statement').where('owner_id', '=', donor).execute()).toHaveLength(1);
    expect(sent.filter((m) => /Vos dons à Contrechamp en 2026/.test(m.subject) && m.to === `donateur${n}@exemple.fr`)).toHaveLength(1);
    expect(await test.db.selectFrom('jobs').select('run_at').where('unique_key', '=', 'billing.yearly-statements:2027').executeTakeFirst()).toMatchObject({
      run_at: '2028-01-05T08:00:00.000Z',
    });
  });

  async function refund(orderId: string) {
    const order = await test.db.selectFrom('orders').select(['payment_ref', 'amount_cents']).where('id', '=', orderId).executeTakeFirstOrThrow();
    await provider.refund({ paymentRef: order.payment_ref!, amountCents: order.amount_cents, idempotencyKey: `refund:${orderId}` });
    await deps.flush();
  }
  const subscriptionOf = async (orderId: string) => {
    const { subscription_id } = await test.db.selectFrom('orders').select('subscription_id').where('id', '=', orderId).executeTakeFirstOrThrow();
    return test.db.selectFrom('subscriptions').selectAll().where('id', '=', subscription_id!).executeTakeFirstOrThrow();
  };

  it('refunding the running period of a subscription ends it, with a credit note and a mail; a monthly donation refunded keeps running, its receipt marked cancelled', async () => {
    const subOrder = await pay(userId, { formule: 'mensuel' });
    const donOrder = await pay(userId, { don: '1000', frequence: 'mensuel' });
    sent = [];
    await refund(subOrder);
    const sub = await subscriptionOf(subOrder);
    expect(sub.status).toBe('canceled');
    expect(
      await test.db.selectFrom('subscription_events').select('type').where('subscription_id', '=', sub.id).where('type', '=', 'ended-refunded').execute(),
    ).toHaveLength(1);
    expect(sent.map((m) => m.subject.replace(/\s/g, ' '))).toEqual(
      expect.arrayContaining(['Remboursement de 7 € effectué', 'Votre abonnement à Contrechamp a pris fin']),
    );
    expect(sent.find((m) => m.subject.includes('a pris fin'))!.text.replace(/\s+/g, ' ')).toContain('remboursé le paiement de la période en cours');

    sent = [];
    await refund(donOrder);
    expect((await subscriptionOf(donOrder)).status).toBe('active');
    const mail = sent.find((m) => m.subject.replace(/\s/g, ' ').startsWith('Remboursement de 10 €'))!;
    const { documents } = await listUserDocuments(test.db, userId);
    const receipt = documents.find((d) => d.kind === 'receipt')!;
    expect(mail.text.replace(/\s+/g, ' ')).toContain(`Le reçu de don n° ${receipt.label} est annulé`);
    expect(receipt.canceled).toBe(true);
    expect(documents.filter((d) => d.kind === 'credit_note')).toHaveLength(1);
    expect(documents.find((d) => d.kind === 'invoice')!.related).toBe(documents.find((d) => d.kind === 'credit_note')!.label);

    // No renewal of the subscription comes after: the renewal job of its period does nothing.
    clock.set(new Date(sub.current_period_end!));
    await deps.flush();
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', '=', sub.id).execute()).toHaveLength(1);
  });

  it('refunding an earlier period leaves the subscription running', async () => {
    const first = await pay(userId, { formule: 'mensuel' });
    const sub = await subscriptionOf(first);
    clock.set(new Date(sub.current_period_end!));
    await deps.flush();
    expect(await test.db.selectFrom('orders').select('status').where('subscription_id', '=', sub.id).where('reason', '=', 'renewal').execute()).toEqual([
      { status: 'paid' },
    ]);
    await refund(first);
    expect((await subscriptionOf(first)).status).toBe('active');
  });

  it('a renewal paid after its subscription ended is refunded without anyone asking', async () => {
    const first = await pay(userId, { formule: 'mensuel' });
    const sub = await subscriptionOf(first);
    clock.set(new Date(sub.current_period_end!));
    // The renewal is charged; before the provider's confirmation arrives, the team ends the subscription.
    await renew(deps, sub.id, sub.current_period_end!);
    expect(await cancelNowForReader(deps, sub.id, 'Demande par courrier')).toEqual({ ok: true });
    sent = [];
    await deps.flush();
    const renewal = await test.db
      .selectFrom('orders')
      .select(['id', 'status'])
      .where('subscription_id', '=', sub.id)
      .where('reason', '=', 'renewal')
      .executeTakeFirstOrThrow();
    expect(renewal.status).toBe('refunded');
    const causes = (await test.db.selectFrom('order_events').select('cause').where('order_id', '=', renewal.id).execute()).map((e) => e.cause);
    expect(causes).toEqual(
      expect.arrayContaining(['Remboursement demandé automatiquement : paiement reçu pour un abonnement déjà terminé', 'Remboursement effectué']),
    );
    expect(sent.filter((m) => m.subject.replace(/\s/g, ' ') === 'Remboursement de 7 € effectué')).toHaveLength(1);
    expect((await subscriptionOf(first)).status).toBe('canceled');
  });

  const giftInput = (over: Record<string, string> = {}) => ({
    destinataire_nom: 'Camille Lefèvre',
    remise: 'email',
    destinataire_email: 'camille@exemple.fr',
    message: 'Bon anniversaire !',
    date_envoi: '2026-12-24',
    ...over,
  });
  const codeFrom = (mail: OutgoingMail) => /Code cadeau\s*:\s*([0-9A-Z-]{19})/.exec(mail.text)![1]!;

  it('a gift for a chosen day: invoice, buyer mail with the card; the recipient mail on the day, once, even after a restart', async () => {
    const orderId = await pay(userId, { cadeau: 'cadeau-6-mois' }, giftInput());
    const invoice = await test.db.selectFrom('billing_documents').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ kind: 'invoice', total_cents: 4000 });
    const buyerMail = sent.find((m) => /Votre abonnement offert/.test(m.subject))!;
    expect(buyerMail.attachments?.[0]).toMatchObject({ contentType: 'application/pdf' });
    expect(Buffer.from(buyerMail.attachments![0]!.content).subarray(0, 5).toString()).toBe('%PDF-');
    expect(buyerMail.text).toContain(`/mon-compte/mes-factures/${invoice.id}`);
    const code = codeFrom(buyerMail);
    // Nothing in the database shows the code.
    const row = await test.db.selectFrom('gifts').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code.replace(/-/g, ''));
    expect(JSON.stringify(await test.db.selectFrom('jobs').selectAll().execute())).not.toContain(code.replace(/-/g, ''));
    expect(sent.filter((m) => m.to === 'camille@exemple.fr')).toHaveLength(0);

    clock.set(new Date('2026-12-24T06:59:00Z'));
    await deps.flush();
    expect(sent.filter((m) => m.to === 'camille@exemple.fr')).toHaveLength(0);
    clock.set(new Date('2026-12-24T07:00:00Z'));
    await deps.flush();
    await deps.flush();
    const received = sent.filter((m) => m.to === 'camille@exemple.fr');
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toContain(code);
    expect(received[0]!.text).toContain('Bon anniversaire !');
    const [bought] = await listBoughtGifts(deps, userId);
    expect(bought!.state).toMatch(/^Envoyé le 24 décembre 2026/);
    clock.advance(DAY);
    expect(await resendGift(deps, userId, bought!.id)).toMatchObject({ ok: true, to: 'camille@exemple.fr' });
    await deps.flush();
    expect(sent.filter((m) => m.to === 'camille@exemple.fr')).toHaveLength(2);
    // The card is the buyer's only.
    const other = await newUser('curieux');
    expect(await boughtGiftCard(deps, other, bought!.id)).toBeUndefined();
    expect(await resendGift(deps, other, bought!.id)).toMatchObject({ ok: false, status: 404 });
    expect(
      Buffer.from((await boughtGiftCard(deps, userId, bought!.id))!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('a past or far delivery day, a missing e-mail or an unknown offer is refused and nothing is placed', async () => {
    const count = async () => (await test.db.selectFrom('orders').select('id').where('user_id', '=', userId).execute()).length;
    for (const over of [{ date_envoi: '2026-11-22' }, { date_envoi: '2028-01-01' }, { destinataire_email: 'pas-une-adresse' }, { date_envoi: '2026-02-31' }]) {
      const placed = await placeOrder(
        deps,
        userId,
        basketOf({ cadeau: 'cadeau-1-an' }),
        undefined,
        form(),
        giftInput(over as unknown as Record<string, string>) as never,
      );
      expect(placed).toMatchObject({ ok: false, status: 422 });
    }
    expect(parseBasket({ cadeau: 'cadeau-10-ans' })).toMatchObject({ ok: false, status: 422 });
    expect(await count()).toBe(0);
  });

  it('ten activations of one code at once: exactly one wins; the code then says it was used', async () => {
    await pay(userId, { cadeau: 'cadeau-6-mois' }, giftInput({ remise: 'moi-meme', destinataire_email: '' }));
    const code = codeFrom(sent.find((m) => /Votre abonnement offert/.test(m.subject))!);
    const recipients: string[] = [];
    for (let i = 0; i < 10; i++) recipients.push(await newUser('destinataire'));
    const second = kind === 'postgres' ? openDatabase(test.config) : undefined;
    const results = await Promise.all(
      recipients.map((r, i) => activateGift(i % 2 && second ? { ...deps, db: second.db } : deps, r, code.toLowerCase(), `client-${i}`)),
    );
    await second?.close();
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((x) => !x.ok))
      expect(r).toMatchObject({ status: 409, message: expect.stringMatching(/déjà été utilisé|vient d’être utilisé/) });
    const subs = await test.db.selectFrom('subscriptions').selectAll().where('kind', '=', 'gift').where('user_id', 'in', recipients).execute();
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({ status: 'active', current_period_end: '2027-05-23T09:00:00.000Z' }); // six months later in Paris (summer time)
  });

  it('a subscriber who activates gets the months after the paid period; a gift subscription ends with an invitation', async () => {
    const subscriber = await newUser('abonne');
    await pay(subscriber, { formule: 'mensuel' });
    const paid = await test.db.selectFrom('subscriptions').selectAll().where('user_id', '=', subscriber).executeTakeFirstOrThrow();
    expect(paid.current_period_end).toBe('2026-12-23T10:00:00.000Z');
    await pay(userId, { cadeau: 'cadeau-6-mois' }, giftInput({ remise: 'moi-meme', destinataire_email: '' }));
    const code = codeFrom(sent.filter((m) => /Votre abonnement offert/.test(m.subject)).at(-1)!);
    expect(await activateGift(deps, subscriber, code, 'c1')).toMatchObject({ ok: true, mode: 'after_paid' });
    const moved = await test.db.selectFrom('subscriptions').selectAll().where('id', '=', paid.id).executeTakeFirstOrThrow();
    expect(moved.current_period_end).toBe('2027-06-23T09:00:00.000Z');
    // The old renewal date charges nothing; the new one does.
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', '=', paid.id).execute()).toHaveLength(1);

    // A new reader: a gift subscription of its own, invited 14 days before its end, ended at it.
    await pay(userId, { cadeau: 'cadeau-6-mois' }, giftInput({ remise: 'moi-meme', destinataire_email: '' }));
    const second = codeFrom(sent.filter((m) => /Votre abonnement offert/.test(m.subject)).at(-1)!);
    const reader = await newUser('lectrice');
    const activated = await activateGift(deps, reader, second, 'c2');
    expect(activated).toMatchObject({ ok: true, mode: 'new' });
    if (!activated.ok) return;
    // The activation is told at once, to the reader and to the buyer.
    sent = [];
    await deps.flush();
    expect(sent.map((m) => m.subject.replace(/\s/g, ' ')).sort()).toEqual([
      'Abonnement offert activé : 6 mois de Contrechamp',
      'Votre cadeau pour Camille Lefèvre a été activé',
    ]);
    sent = [];
    clock.set(new Date(activated.endsAt.getTime() - 14 * DAY + 1000));
    await deps.flush();
    expect(sent.map((m) => m.subject.replace(/\s/g, ' '))).toEqual([expect.stringContaining('Votre abonnement offert se termine le')]);
    clock.set(new Date(activated.endsAt.getTime() + 1000));
    await deps.flush();
    expect(await test.db.selectFrom('subscriptions').select('status').where('id', '=', activated.subscriptionId).executeTakeFirst()).toEqual({
      status: 'expired',
    });
    expect(sent.map((m) => m.subject)).toContain('Votre abonnement offert est terminé');
  });

  it('wrong, mistyped, used, expired and revoked codes get their own French message and change nothing; guessing is limited', async () => {
    const reader = await newUser('essai');
    expect(await activateGift(deps, reader, 'K7MX-4QPD-9TRW-2HN0', 'c')).toMatchObject({ ok: false, status: 422 });
    await pay(userId, { cadeau: 'cadeau-6-mois' }, giftInput({ remise: 'moi-meme', destinataire_email: '' }));
    const code = codeFrom(sent.filter((m) => /Votre abonnement offert/.test(m.subject)).at(-1)!);
    const typo = code.slice(0, 2) + (code[2] === 'A' ? 'B' : 'A') + code.slice(3);
    expect(await activateGift(deps, reader, typo, 'c')).toMatchObject({ ok: false, status: 422, message: expect.stringContaining('mal saisi') });
    clock.set(new Date('2027-11-24T10:00:00Z'));
    expect(await activateGift(deps, reader, code, 'c')).toMatchObject({ ok: false, message: expect.stringContaining('a expiré le 23 novembre 2027') });
    expect(await test.db.selectFrom('subscriptions').select('id').where('user_id', '=', reader).execute()).toEqual([]);
    const guesser = await newUser('devin');
    const { newGiftCode } = await import('../gifts/codes');
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await activateGift(deps, guesser, newGiftCode(), `devin-${i}`));
    expect(answers.slice(0, 10).every((a) => !a.ok && a.status === 404)).toBe(true);
    expect(answers[10]).toMatchObject({ ok: false, status: 429, message: expect.stringContaining('Trop de codes essayés') });
  });
});
