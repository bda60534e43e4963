/**
 * Invoices, credit notes, receipts and statements through the real payment path, on both
 * databases: the provider's signed notifications go through the webhook entry (signature,
 * event record, the composed fulfilments with billing first), with faults injected inside the
 * payment's transaction after the document's number is taken.
 *
 * - 100 concurrent payments (several connection pools on PostgreSQL) with some transactions
 *   failing: invoice and receipt numbers are exactly 1..N, one per paid order, none without one;
 *   the provider's retry of the failed ones fills 1..100. The same for credit notes under
 *   concurrent refunds.
 * - A crash after `allotNumber` leaves the counter as it was; a paid order without its document
 *   gets it from the sweep, once.
 * - Documents and PDFs refuse UPDATE and DELETE.
 * - The January statements across the Paris new year, with one-off and monthly donations and a
 *   refund: the right donations and totals per donor, mailed once, nothing on a rerun, next
 *   year's run scheduled.
 * - Contents: a business buyer's terms, VAT lines that add up, a credit note and its invoice.
 * - Every document of one member is out of reach of another (service level; the HTTP level is in
 *   tests/e2e/invoices.spec.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { TEST_WEBHOOK_KEY, withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { catalog, giftOffers } from '../../config/catalog';
import { deleteAccount, exportData } from '../account/service';
import { adminDocumentPdf, searchDocuments } from '../admin/billing';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { placeOrder, type CheckoutInput, fulfilments } from '../checkout/service';
import { fakeClock } from '../core/clock';
import { openDatabase } from '../db/client';
import type { DialectName } from '../db/client';
import { toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import type { OutgoingMail } from '../mail/transport';
import { applyOrderEvent, type Fulfilments } from '../orders/service';
import { insertOrder } from '../orders/repository';
import { PROMPT_DELIVERY, SIMULATED_SIGNATURE_HEADER, signSimulated, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { receiveWebhook } from '../payments/webhooks';
import { applySubscriptionEvent } from '../subscriptions/service';
import type { DocumentContent } from './content';
import { allotNumber } from './numbering';
import { findUserDocument, listUserDocuments, sendYearlyStatements, statementsDueAt, sweepMissingDocuments, userDocumentPdf } from './service';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const SITE = new URL('https://contrechamp.example');
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
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** The services of a test, with a mailer that keeps what it sends and the simulated provider. */
function servicesOn(test: TestDatabase, clock: ReturnType<typeof fakeClock>, sent: OutgoingMail[]) {
  const { deps, provider } = revenueWorld(test.db, { clock, onMail: (mail) => sent.push(mail), siteUrl: SITE });
  return { deps, provider };
}

const numbersOf = async (test: TestDatabase, series: string) =>
  (await test.db.selectFrom('billing_documents').select('number').where('series', '=', series).execute()).map((r) => Number(r.number)).sort((a, b) => a - b);

// ---------------------------------------------------------------------------------------------

describeEachDialect('gapless numbers under concurrent payments and refunds', (kind: DialectName) => {
  let test: TestDatabase;
  let pools: { db: TestDatabase['db']; close(): Promise<void> }[];
  let clock: ReturnType<typeof fakeClock>;
  let sent: OutgoingMail[];
  let deps: ReturnType<typeof withJobs>;
  const orders: { id: string; purpose: 'subscription' | 'donation' }[] = [];
  /** Transactions that failed with their document written: the injected fault came after the number. */
  const failedAfterNumber = new Set<string>();

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    // PostgreSQL: three more pools on the same database, so that transactions really run side by
    // side. SQLite: one connection per process (a second handle in this process would block it).
    pools = kind === 'postgres' ? [0, 1, 2].map(() => openDatabase(test.config)) : [];
    clock = fakeClock(new Date('2026-11-23T10:00:00Z'));
    sent = [];
    ({ deps } = servicesOn(test, clock, sent));
    const buyers: string[] = [];
    for (let i = 0; i < 10; i++) buyers.push(await createUser(test.db, { email: `lot${i}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() }));
    for (let i = 0; i < 100; i++) {
      const donation = i % 4 === 3;
      const placed = await placeOrder(
        deps,
        buyers[i % 10]!,
        basketOf(donation ? { don: String(1000 + i), frequence: 'unique' } : { formule: i % 2 ? 'mensuel' : 'annuel' }),
        undefined,
        form(),
      );
      if (!placed.ok) throw new Error(placed.message);
      orders.push({ id: placed.orderId, purpose: donation ? 'donation' : 'subscription' });
    }
  });
  afterAll(async () => {
    for (const pool of pools) await pool.close();
    await test.close();
  });

  /** Each connection pool's own services: a request handled by another process. */
  const depsOf = (i: number) => (pools.length === 0 ? deps : { ...deps, db: i % (pools.length + 1) === 0 ? test.db : pools[(i % (pools.length + 1)) - 1]!.db });

  /** The real fulfilments, with a fault after billing's part for the orders in `failing`. */
  function faulty(base: Fulfilments, failing: Set<string>, step: 'paid' | 'refunded'): Fulfilments {
    const wrapped: Fulfilments = {};
    for (const [purpose, inner] of Object.entries(base) as [keyof Fulfilments, NonNullable<Fulfilments[keyof Fulfilments]>][]) {
      wrapped[purpose] = {
        ...inner,
        async paid(trx, order, context) {
          await inner.paid(trx, order, context);
          if (step === 'paid' && failing.has(order.id)) await fail(trx, order.id, ['invoice', 'receipt']);
        },
        async refunded(trx, order, context) {
          await inner.refunded?.(trx, order, context);
          if (step === 'refunded' && failing.has(order.id)) await fail(trx, order.id, ['credit_note']);
        },
      };
    }
    return wrapped;
  }
  async function fail(trx: TestDatabase['db'], orderId: string, kinds: ('invoice' | 'receipt' | 'credit_note')[]): Promise<never> {
    // The document is written, its number taken, in this very transaction: then it dies.
    const written = await trx.selectFrom('billing_documents').select('number').where('order_id', '=', orderId).where('kind', 'in', kinds).executeTakeFirst();
    if (written) failedAfterNumber.add(`${kinds.join('|')}:${orderId}`);
    throw new Error('injected failure after the number was allotted');
  }

  /** One signed notification through the webhook entry of pool `i`, applied with `apply`'s fulfilments. */
  function deliver(i: number, data: Record<string, unknown>, id: string, composed: (d: ReturnType<typeof depsOf>) => Fulfilments) {
    const d = depsOf(i);
    const body = JSON.stringify({ id, created: clock.now().toISOString(), data });
    const headers = new Headers({ 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signSimulated(TEST_WEBHOOK_KEY, body, clock.now()) });
    return receiveWebhook(d, d.payments, new TextEncoder().encode(body), headers, async (trx, event) => {
      if (await applyOrderEvent(trx, event, composed(d), clock.now())) return;
      await applySubscriptionEvent(d, trx, event, clock.now(), composed(d));
    });
  }

  const paidEvent = (o: { id: string }) => ({ type: 'payment.succeeded', orderId: o.id, paymentRef: `ch_lot_${o.id}`, methodLabel: 'Carte •••• 4242' });

  it('100 concurrent payments with injected failures: numbers 1..N exactly, one document per paid order; the retries fill the rest', async () => {
    const failing = new Set(orders.filter((_, i) => i % 7 === 2 || i % 11 === 5).map((o) => o.id));
    const results = await Promise.allSettled(
      orders.map((o, i) => deliver(i, paidEvent(o), `evt_pay_${o.id}`, (d) => faulty(fulfilments(d as never), failing, 'paid'))),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(failing.size);
    expect(failedAfterNumber.size).toBe(failing.size);

    const check = async () => {
      const paid = await test.db
        .selectFrom('orders')
        .select(['id', 'purpose'])
        .where(
          'id',
          'in',
          orders.map((o) => o.id),
        )
        .where('status', '=', 'paid')
        .execute();
      const docs = await test.db
        .selectFrom('billing_documents')
        .select(['order_id', 'kind', 'series', 'number'])
        .where('kind', 'in', ['invoice', 'receipt'])
        .execute();
      const paidIds = new Set(paid.map((p) => p.id));
      // Every paid order has exactly one document of its kind; no document without a paid order.
      for (const p of paid) expect(docs.filter((d) => d.order_id === p.id).map((d) => d.kind)).toEqual([p.purpose === 'donation' ? 'receipt' : 'invoice']);
      for (const d of docs) expect(paidIds.has(d.order_id!)).toBe(true);
      const invoices = paid.filter((p) => p.purpose === 'subscription').length;
      expect(await numbersOf(test, 'F')).toEqual(oneToN(invoices));
      expect(await numbersOf(test, 'RD')).toEqual(oneToN(paid.length - invoices));
      return paid.length;
    };
    expect(await check()).toBe(100 - failing.size);
    // The failed transactions left nothing: their orders are still pending, their events unrecorded.
    for (const id of failing)
      expect((await test.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('pending');

    // The provider retries the refused notifications, at once and concurrently again.
    const retried = await Promise.allSettled(
      orders.filter((o) => failing.has(o.id)).map((o, i) => deliver(i, paidEvent(o), `evt_pay_${o.id}`, (d) => fulfilments(d as never))),
    );
    expect(retried.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await check()).toBe(100);
  });

  it('concurrent refunds with injected failures: credit notes 1..M exactly, one per refunded invoice, each referring to it', async () => {
    const refunded = orders.filter((_, i) => i % 3 !== 0);
    const failing = new Set(refunded.filter((_, i) => i % 5 === 1).map((o) => o.id));
    const refund = (o: { id: string }, i: number, failures: Set<string>) =>
      test.db
        .selectFrom('orders')
        .select('amount_cents')
        .where('id', '=', o.id)
        .executeTakeFirstOrThrow()
        .then((row) =>
          deliver(i, { type: 'refund.succeeded', paymentRef: `ch_lot_${o.id}`, amountCents: row.amount_cents }, `evt_refund_${o.id}`, (d) =>
            faulty(fulfilments(d as never), failures, 'refunded'),
          ),
        );
    const results = await Promise.allSettled(refunded.map((o, i) => refund(o, i, failing)));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(failing.size);
    // Donations get no credit note: only refunded subscriptions with an invoice count.
    const failedInvoiced = refunded.filter((o) => failing.has(o.id) && o.purpose === 'subscription').length;
    expect([...failedAfterNumber].filter((k) => k.startsWith('credit_note:'))).toHaveLength(failedInvoiced);

    const check = async () => {
      const notes = await test.db
        .selectFrom('billing_documents as n')
        .innerJoin('billing_documents as i', 'i.id', 'n.refers_to_id')
        .select(['n.order_id', 'i.order_id as invoice_order', 'i.kind as invoice_kind'])
        .where('n.kind', '=', 'credit_note')
        .execute();
      const refundedInvoiced = await test.db.selectFrom('orders').select('id').where('status', '=', 'refunded').where('purpose', '=', 'subscription').execute();
      expect(notes.map((n) => n.order_id).sort()).toEqual(refundedInvoiced.map((r) => r.id).sort());
      for (const n of notes) expect(n).toMatchObject({ invoice_order: n.order_id, invoice_kind: 'invoice' });
      expect(await numbersOf(test, 'AV')).toEqual(oneToN(notes.length));
      return notes.length;
    };
    const invoicedRefunds = refunded.filter((o) => o.purpose === 'subscription').length;
    expect(await check()).toBe(invoicedRefunds - failedInvoiced);
    const retried = await Promise.allSettled(refunded.filter((o) => failing.has(o.id)).map((o, i) => refund(o, i, new Set())));
    expect(retried.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await check()).toBe(invoicedRefunds);
    // Nothing else moved: invoices and receipts are still 1..N.
    expect(await numbersOf(test, 'F')).toEqual(oneToN(orders.filter((o) => o.purpose === 'subscription').length));
  });
});

// ---------------------------------------------------------------------------------------------

describeEachDialect('billing documents', (kind: DialectName) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
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
    clock = fakeClock(new Date('2026-11-23T10:00:00Z'));
    ({ deps, provider } = servicesOn(test, clock, sent));
  });

  const newUser = (prefix: string, role?: 'admin') =>
    createUser(test.db, {
      email: `${prefix}${++n}@exemple.fr`,
      password: 'un mot de passe solide',
      givenName: 'Camille',
      familyName: `Essai ${n}`,
      now: clock.now(),
      ...(role ? { role } : {}),
    });
  const sessionOf = (url: string) => new URL(url, SITE).pathname.split('/').pop()!;
  async function pay(buyer: string, values: Record<string, string>, over: Partial<CheckoutInput> = {}) {
    const placed = await placeOrder(deps, buyer, basketOf(values), undefined, form(over));
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    return placed.orderId;
  }
  const docOf = async (orderId: string, docKind: string) => {
    const row = await test.db
      .selectFrom('billing_documents')
      .selectAll()
      .where('order_id', '=', orderId)
      .where('kind', '=', docKind as never)
      .executeTakeFirstOrThrow();
    return { row, content: JSON.parse(row.content) as DocumentContent };
  };
  const counter = async (series: string) =>
    Number((await test.db.selectFrom('document_counters').select('last_number').where('series', '=', series).executeTakeFirst())?.last_number ?? 0);

  it('a process that dies while writing an invoice leaves the counter as it was', async () => {
    const buyer = await newUser('panne');
    await pay(buyer, { formule: 'mensuel' });
    const before = await counter('F');
    expect(before).toBeGreaterThan(0);
    await expect(
      writeTransaction(test.db, async (trx) => {
        expect(await allotNumber(trx, 'F')).toBe(before + 1);
        throw new Error('the process is killed');
      }),
    ).rejects.toThrow('killed');
    expect(await counter('F')).toBe(before);
    // The next invoice takes the number the dead one had.
    const next = await pay(buyer, { don: '1500', frequence: 'unique' });
    expect((await docOf(next, 'receipt')).row.label).toMatch(/^RD-\d{6}$/);
    const again = await pay(buyer, { formule: 'annuel' });
    expect(Number((await docOf(again, 'invoice')).row.number)).toBe(before + 1);
  });

  it('a paid order without its invoice (a crash, a restore) gets it from the sweep; a second sweep changes nothing', async () => {
    const buyer = await newUser('sans-facture');
    const paidAt = new Date('2026-11-20T09:00:00Z');
    const { order } = await insertOrder(
      test.db,
      {
        userId: buyer,
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
        attemptKey: `crash:${randomUUID()}`,
        billingName: 'Camille Essai',
        status: 'paid',
        paymentRef: `ch_${randomUUID()}`,
        paidAt,
      },
      paidAt,
    );
    const { order: donation } = await insertOrder(
      test.db,
      {
        userId: buyer,
        purpose: 'donation',
        reason: 'initial',
        offerId: 'don',
        description: 'Don ponctuel',
        interval: null,
        amountCents: 2500,
        vatRateBp: 0,
        vatCents: 0,
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: `crash:${randomUUID()}`,
        billingName: 'Camille Essai',
        status: 'paid',
        paymentRef: `ch_${randomUUID()}`,
        paidAt,
      },
      paidAt,
    );
    const before = { F: await counter('F'), RD: await counter('RD') };
    expect(await sweepMissingDocuments(deps)).toBe(2);
    const invoice = await docOf(order.id, 'invoice');
    expect(Number(invoice.row.number)).toBe(before.F + 1);
    expect(invoice.content.payment?.at).toBe(toTimestamp(paidAt));
    // Dated the day it is issued, after every earlier number, never back on the payment's day.
    expect(invoice.row.issued_at).toBe(toTimestamp(clock.now()));
    expect(Number((await docOf(donation.id, 'receipt')).row.number)).toBe(before.RD + 1);
    const snapshot = await test.db.selectFrom('billing_documents').select(['id', 'label']).orderBy('id').execute();
    expect(await sweepMissingDocuments(deps)).toBe(0);
    expect(await test.db.selectFrom('billing_documents').select(['id', 'label']).orderBy('id').execute()).toEqual(snapshot);
    expect(await counter('F')).toBe(before.F + 1);
    // Its PDF is rendered by the job the sweep scheduled.
    await deps.flush();
    expect(await test.db.selectFrom('billing_pdfs').select('document_id').where('document_id', '=', invoice.row.id).execute()).toHaveLength(1);
  });

  it('documents, their PDFs and their content refuse UPDATE and DELETE', async () => {
    const buyer = await newUser('immuable');
    const orderId = await pay(buyer, { formule: 'mensuel' });
    const { row } = await docOf(orderId, 'invoice');
    const attempts = [
      () =>
        test.db
          .updateTable('billing_documents')
          .set({ total_cents: 1 } as never)
          .where('id', '=', row.id)
          .execute(),
      () =>
        test.db
          .updateTable('billing_documents')
          .set({ content: '{}' } as never)
          .execute(),
      () => test.db.deleteFrom('billing_documents').where('id', '=', row.id).execute(),
      () => test.db.deleteFrom('billing_documents').execute(),
      () =>
        test.db
          .updateTable('billing_pdfs')
          .set({ sha256: 'x' } as never)
          .where('document_id', '=', row.id)
          .execute(),
      () =>
        test.db
          .updateTable('billing_pdfs')
          .set({ bytes: new Uint8Array([1]) } as never)
          .execute(),
      () => test.db.deleteFrom('billing_pdfs').where('document_id', '=', row.id).execute(),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/append-only/);
    expect((await docOf(orderId, 'invoice')).row).toEqual(row);
    expect(await test.db.selectFrom('billing_pdfs').select('document_id').where('document_id', '=', row.id).execute()).toHaveLength(1);
  });

  it('an invoice to a business carries its terms; HT + VAT = TTC on every offer; a credit note refers to its invoice and the invoice to it', async () => {
    const buyer = await newUser('entreprise');
    const orderId = await pay(buyer, { formule: 'annuel' }, { company: 'SARL Les Amis du Port', siren: '732829320' });
    const invoice = await docOf(orderId, 'invoice');
    expect(invoice.content.buyer.business).toEqual({ company: 'SARL Les Amis du Port', siren: '732 829 320' });
    expect(invoice.content.businessTerms).toMatchObject({ dueDate: '2026-11-23', latePaymentTerms: expect.stringContaining('40 €') });
    expect(invoice.row.buyer_name).toBe('SARL Les Amis du Port');
    expect(invoice.content.seller).toMatchObject({ siren: '912 345 678', legalForm: expect.stringMatching(/société coopérative/i) });
    // A private buyer: no business terms.
    const privateOrder = await pay(buyer, { formule: 'mensuel' });
    expect((await docOf(privateOrder, 'invoice')).content.businessTerms).toBeNull();

    // Every plan and gift offer: the lines and the totals add up.
    const offers: Record<string, string>[] = [...catalog.plans.map((p) => ({ formule: p.id })), ...giftOffers.map((g) => ({ cadeau: g.id }))];
    for (const values of offers) {
      const gift = values.cadeau ? { destinataire_nom: 'Louis', remise: 'moi-meme', destinataire_email: '', message: '', date_envoi: '2026-12-24' } : undefined;
      const placed = await placeOrder(deps, buyer, basketOf(values), undefined, form(), gift as never);
      if (!placed.ok) throw new Error(placed.message);
      await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
      await deps.flush();
      const { content, row } = await docOf(placed.orderId, 'invoice');
      const t = content.totals;
      expect(t.htCents + t.vatCents, JSON.stringify(values)).toBe(t.ttcCents);
      expect(t.vat.reduce((s, v) => s + v.vatCents, 0)).toBe(t.vatCents);
      expect(t.vat.reduce((s, v) => s + v.baseCents, 0)).toBe(t.htCents);
      for (const line of content.lines) expect(line.htCents + line.vatCents).toBe(line.ttcCents);
      expect(t.vatCents).toBe(Math.round((t.ttcCents * t.vat[0]!.rateBp) / (10_000 + t.vat[0]!.rateBp)));
      expect(row.total_cents).toBe(t.ttcCents);
      expect(row.vat_cents).toBe(t.vatCents);
    }

    // A refund: the credit note cancels the invoice, both ways in Mes factures.
    const paymentRef = (await test.db.selectFrom('orders').select('payment_ref').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_ref!;
    await provider.refund({ paymentRef, amountCents: invoice.row.total_cents, idempotencyKey: `refund:${orderId}` });
    await deps.flush();
    const note = await docOf(orderId, 'credit_note');
    expect(note.row.refers_to_id).toBe(invoice.row.id);
    expect(note.content.refersTo).toEqual({ label: invoice.row.label, issuedAt: invoice.row.issued_at });
    expect(note.content.notes[0]).toContain(`annule la facture n° ${invoice.row.label}`);
    expect(note.content.totals).toEqual(invoice.content.totals);
    expect(note.content.businessTerms).toBeNull();
    const { documents } = await listUserDocuments(test.db, buyer);
    expect(documents.find((d) => d.id === note.row.id)).toMatchObject({ kind: 'credit_note', related: invoice.row.label });
    expect(documents.find((d) => d.id === invoice.row.id)).toMatchObject({ kind: 'invoice', related: note.row.label });
    expect(sent.some((m) => m.text.includes(`/mon-compte/mes-factures/${note.row.id}`) && m.text.includes(note.row.label))).toBe(true);
  });

  it('the January statements: per donor the donations of the Paris year, one-off and monthly, without the refunded one; mailed once; next year scheduled', async () => {
    const donor = (name: string) =>
      createUser(test.db, {
        email: `${name}-${++n}@exemple.fr`,
        password: 'un mot de passe solide',
        givenName: name,
        familyName: 'Donatrice',
        now: clock.now(),
      });
    const [alice, bruno, chloe] = [await donor('alice'), await donor('bruno'), await donor('chloe')];
    const give = (userId: string, iso: string, cents: number, options: { monthly?: boolean; status?: 'paid' | 'refunded' } = {}) =>
      insertOrder(
        test.db,
        {
          userId,
          purpose: 'donation',
          reason: options.monthly ? 'renewal' : 'initial',
          offerId: 'don',
          description: options.monthly ? 'Don mensuel' : 'Don ponctuel',
          interval: options.monthly ? 'month' : null,
          amountCents: cents,
          vatRateBp: 0,
          vatCents: 0,
          source: null,
          method: 'card',
          provider: 'simulated',
          subscriptionId: null,
          attemptKey: `don:${randomUUID()}`,
          status: options.status ?? 'paid',
          paymentRef: `ch_${randomUUID()}`,
          paidAt: new Date(iso),
        },
        new Date(iso),
      );
    // Alice: monthly donations, the first on 31 December 2025 at 23:59 in Paris (still 2025),
    // the next on 1 January 2026 at 0:00:30 in Paris; a one-off in summer; and one on
    // 31 December 2026 at 23:30 in Paris (2026), then 1 January 2027 at 0:30 (2027).
    await give(alice, '2025-12-31T22:59:00Z', 500, { monthly: true });
    await give(alice, '2025-12-31T23:00:30Z', 500, { monthly: true });
    await give(alice, '2026-02-01T10:00:00Z', 500, { monthly: true });
    await give(alice, '2026-07-14T10:00:00Z', 5000);
    await give(alice, '2026-12-31T22:30:00Z', 500, { monthly: true });
    await give(alice, '2026-12-31T23:30:00Z', 500, { monthly: true });
    // Bruno: one donation in 2026, one refunded.
    await give(bruno, '2026-03-10T09:00:00Z', 2000);
    await give(bruno, '2026-04-10T09:00:00Z', 9900, { status: 'refunded' });
    // Chloé: only a refunded donation in 2026, and one in 2025: no statement for 2026.
    await give(chloe, '2026-05-01T09:00:00Z', 3000, { status: 'refunded' });
    await give(chloe, '2025-06-01T09:00:00Z', 3000);
    // Their receipts (the payment path would have issued them).
    await sweepMissingDocuments(deps);

    clock.set(statementsDueAt(2026));
    sent.length = 0;
    expect((await sendYearlyStatements(deps, 2026)).issued).toBeGreaterThanOrEqual(2);
    await deps.flush();
    const statementOf = async (userId: string) => {
      const rows = await test.db.selectFrom('billing_documents').selectAll().where('kind', '=', 'statement').where('owner_id', '=', userId).execute();
      return rows.map((r) => ({ row: r, content: JSON.parse(r.content) as DocumentContent }));
    };
    const [a] = await statementOf(alice);
    expect(a!.row).toMatchObject({ year: 2026, total_cents: 500 + 500 + 5000 + 500 });
    expect(a!.content.statement!.donations.map((d) => [d.date, d.amountCents, d.description])).toEqual([
      ['2026-01-01', 500, 'Don mensuel'],
      ['2026-02-01', 500, 'Don mensuel'],
      ['2026-07-14', 5000, 'Don ponctuel'],
      ['2026-12-31', 500, 'Don mensuel'],
    ]);
    expect(a!.content.statement!.donations.every((d) => /^RD-\d{6}$/.test(d.receiptLabel ?? ''))).toBe(true);
    const [b] = await statementOf(bruno);
    expect(b!.row.total_cents).toBe(2000);
    expect(b!.content.statement!.donations).toHaveLength(1);
    expect(await statementOf(chloe)).toEqual([]);
    const mailsTo = (userId: string) =>
      sent.filter(
        (m) => m.to.startsWith(userId === alice ? 'alice' : userId === bruno ? 'bruno' : 'chloe') && /Vos dons à Contrechamp en 2026/.test(m.subject),
      );
    expect(mailsTo(alice)).toHaveLength(1);
    expect(mailsTo(alice)[0]!.text).toMatch(/65\s€/);
    expect(mailsTo(alice)[0]!.text).toContain(`/mon-compte/mes-factures/${a!.row.id}`);
    expect(mailsTo(bruno)).toHaveLength(1);
    expect(mailsTo(chloe)).toHaveLength(0);
    // Their PDFs were rendered by the jobs.
    expect(await test.db.selectFrom('billing_pdfs').select('document_id').where('document_id', 'in', [a!.row.id, b!.row.id]).execute()).toHaveLength(2);

    // A rerun (a restart on 5 January) issues and mails nothing.
    expect((await sendYearlyStatements(deps, 2026)).issued).toBe(0);
    await deps.flush();
    expect(mailsTo(alice)).toHaveLength(1);
    expect(await statementOf(alice)).toHaveLength(1);
    expect(await test.db.selectFrom('jobs').select(['run_at', 'kind']).where('unique_key', '=', 'billing.yearly-statements:2027').executeTakeFirst()).toEqual({
      run_at: statementsDueAt(2027).toISOString(),
      kind: 'billing.yearly-statements',
    });
    expect(statementsDueAt(2027).toISOString()).toBe('2028-01-05T08:00:00.000Z');
  });

  it('the account export lists the documents; deleting the account keeps them, unchanged, for ten years', async () => {
    const owner = await newUser('depart');
    const orderId = await pay(owner, { formule: 'mensuel' });
    await pay(owner, { don: '1200', frequence: 'unique' });
    const exported = await exportData(deps, owner);
    expect(exported?.documents).toMatchObject({
      conservation: expect.stringContaining('dix ans'),
      documents: expect.arrayContaining([
        expect.objectContaining({
          numero: expect.stringMatching(/^F-\d{6}$/),
          type: 'Facture',
          montant_centimes: 700,
          tva_centimes: 14,
          objet: 'Abonnement Mensuel',
        }),
        expect.objectContaining({ numero: expect.stringMatching(/^RD-\d{6}$/), type: 'Reçu de don', montant_centimes: 1200, tva_centimes: 0 }),
      ]),
    });
    const before = await test.db.selectFrom('billing_documents').selectAll().where('owner_id', '=', owner).orderBy('number').execute();
    expect(await deleteAccount(deps, { userId: owner, password: 'un mot de passe solide' })).toMatchObject({ ok: true });
    expect(await test.db.selectFrom('users').select('id').where('id', '=', owner).execute()).toEqual([]);
    expect(await test.db.selectFrom('billing_documents').selectAll().where('owner_id', '=', owner).orderBy('number').execute()).toEqual(before);
    expect((await docOf(orderId, 'invoice')).content.buyer.name).toBe('Inès Durand');
  });

  it('no reader reaches another reader’s invoice, credit note, receipt or statement; the back-office only opens to administrators', async () => {
    const owner = await newUser('proprietaire');
    const other = await newUser('voisin');
    const editor = await createUser(test.db, { email: `redaction${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'editor', now: clock.now() });
    const admin = await newUser('admin', 'admin');
    const orderId = await pay(owner, { formule: 'mensuel' });
    await pay(owner, { don: '2000', frequence: 'unique' });
    const paymentRef = (await test.db.selectFrom('orders').select('payment_ref').where('id', '=', orderId).executeTakeFirstOrThrow()).payment_ref!;
    await provider.refund({ paymentRef, amountCents: 700, idempotencyKey: `refund:${orderId}` });
    await deps.flush();
    clock.set(statementsDueAt(2026));
    await sendYearlyStatements(deps, 2026);
    const { documents } = await listUserDocuments(test.db, owner);
    expect(documents.map((d) => d.kind).sort()).toEqual(['credit_note', 'invoice', 'receipt', 'statement']);
    for (const doc of documents) {
      expect(await userDocumentPdf(deps, other, doc.id)).toBeUndefined();
      expect(await findUserDocument(test.db, other, doc.id)).toBeUndefined();
      expect(await adminDocumentPdf(deps, other, doc.id)).toBeUndefined();
      expect(await adminDocumentPdf(deps, editor, doc.id)).toBeUndefined();
      expect(await userDocumentPdf(deps, owner, doc.id)).toMatchObject({ filename: `contrechamp-${doc.label}.pdf` });
      expect(
        Buffer.from((await adminDocumentPdf(deps, admin, doc.id))!.bytes)
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    for (const id of [randomUUID(), 'not-a-uuid', '', "' or 1=1 --", '../../etc/passwd']) {
      expect(await userDocumentPdf(deps, owner, id)).toBeUndefined();
      expect(await adminDocumentPdf(deps, admin, id)).toBeUndefined();
    }
    expect((await listUserDocuments(test.db, other)).documents).toEqual([]);
    expect(await searchDocuments(deps, other, { query: '' })).toMatchObject({ ok: false, status: 403 });
    expect(await searchDocuments(deps, editor, { query: '' })).toMatchObject({ ok: false, status: 403 });
  });
});

describe('statements are due on 5 January, 9:00 in Paris', () => {
  it('for every year', () => {
    expect(statementsDueAt(2026).toISOString()).toBe('2027-01-05T08:00:00.000Z');
  });
});
