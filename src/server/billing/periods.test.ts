/**
 * The service period printed on invoices: consecutive periods meet without sharing a day
 * (« du 1er novembre au 30 novembre », then « du 1er décembre … »), for monthly and yearly plans,
 * across a short month (31 January → February), whatever the hour of the payment, and after the
 * months of a gift. First the computation alone, then through the real payment path (simulated
 * provider, renewals run by the site's jobs) down to the text of the PDF the subscriber downloads.
 *
 * poppler-utils (pdftotext) is required, as for ./pdf/pdf.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addMonths, addYears } from 'date-fns';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { TEST_WEBHOOK_KEY, withJobs } from '../../../tests/helpers/jobs';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { type CheckoutInput, placeOrder } from '../checkout/service';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { createSimulatedProvider, PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { activateGift } from '../gifts/service';
import type { DocumentContent } from './content';
import { periodOf } from './documents';
import { userDocumentPdf } from './service';

vi.setConfig({ testTimeout: 120_000 });

type Period = { start: string; end: string };
const nextDay = (day: string): string => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

/** Each period ends on or after its start, and the next one starts the day after it ends. */
function expectContiguous(periods: Period[]): void {
  for (const p of periods) expect(p.end >= p.start, `${p.start} → ${p.end}`).toBe(true);
  for (let i = 1; i < periods.length; i++) expect(periods[i]!.start, `after ${periods[i - 1]!.end}`).toBe(nextDay(periods[i - 1]!.end));
}

/** A renewal's order: its period [start, end) as the subscription counts it. */
const renewal = (start: Date, end: Date) => ({ purpose: 'subscription' as const, interval: 'month' as const, periodStart: start, periodEnd: end });

describe('the printed service period', () => {
  it('two consecutive months: the first ends the day before the second starts, whatever the hour of payment', () => {
    const paid = new Date('2026-11-01T10:00:00Z');
    const first = periodOf({ purpose: 'subscription', interval: 'month', periodStart: null, periodEnd: null }, paid);
    const second = periodOf(renewal(addMonths(paid, 1), addMonths(paid, 2)), addMonths(paid, 1));
    expect([first, second]).toEqual([
      { start: '2026-11-01', end: '2026-11-30' },
      { start: '2026-12-01', end: '2026-12-31' },
    ]);
    // Paid at 00:30 in Paris (23:30 UTC the day before): the days are Paris days.
    const late = new Date('2026-10-31T23:30:00Z');
    expect(periodOf(renewal(late, addMonths(late, 1)), late)).toEqual({ start: '2026-11-01', end: '2026-11-30' });
  });

  it('31 January → February: the first payment (no period stored) and the renewals that follow meet day after day', () => {
    const paid = new Date('2027-01-31T10:00:00Z');
    // The site's own renewals: each period starts where the last ended, one month later (date-fns).
    const site: Period[] = [periodOf({ purpose: 'subscription', interval: 'month', periodStart: null, periodEnd: null }, paid)!];
    let start = addMonths(paid, 1);
    for (let i = 0; i < 13; i++, start = addMonths(start, 1)) site.push(periodOf(renewal(start, addMonths(start, 1)), start)!);
    expect(site.slice(0, 3)).toEqual([
      { start: '2027-01-31', end: '2027-02-27' },
      { start: '2027-02-28', end: '2027-03-27' },
      { start: '2027-03-28', end: '2027-04-27' },
    ]);
    expectContiguous(site);
    // Stripe's: anchored on the 31st, the end it gives for the first period, then the anchor's months.
    const stripe: Period[] = [periodOf({ purpose: 'subscription', interval: 'month', periodStart: null, periodEnd: null }, paid, addMonths(paid, 1))!];
    for (let i = 1; i < 13; i++) stripe.push(periodOf(renewal(addMonths(paid, i), addMonths(paid, i + 1)), addMonths(paid, i))!);
    expect(stripe.slice(0, 3)).toEqual([
      { start: '2027-01-31', end: '2027-02-27' },
      { start: '2027-02-28', end: '2027-03-30' },
      { start: '2027-03-31', end: '2027-04-29' },
    ]);
    expectContiguous(stripe);
  });

  it('a year, and the year after it; nothing for a gift or a donation', () => {
    const paid = new Date('2026-11-23T10:00:00Z');
    const years = [
      periodOf({ purpose: 'subscription', interval: 'year', periodStart: null, periodEnd: null }, paid)!,
      periodOf({ purpose: 'subscription', interval: 'year', periodStart: addYears(paid, 1), periodEnd: addYears(paid, 2) }, addYears(paid, 1))!,
    ];
    expect(years).toEqual([
      { start: '2026-11-23', end: '2027-11-22' },
      { start: '2027-11-23', end: '2028-11-22' },
    ]);
    // A gift's invoice has no period: its months start when the code is activated.
    expect(periodOf({ purpose: 'gift', interval: null, periodStart: null, periodEnd: null }, paid)).toBeNull();
    expect(periodOf({ purpose: 'donation', interval: 'month', periodStart: paid, periodEnd: addMonths(paid, 1) }, paid)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

const billing = {
  given_name: 'Inès',
  family_name: 'Durand',
  address_line1: '3 rue du Port',
  address_line2: '',
  postal_code: '44000',
  city: 'Nantes',
  country: 'FR',
};
const form = (): CheckoutInput => ({ ...billing, methode: 'card', cgv: true, demarrage_immediat: true, tentative: randomUUID() });
const basketOf = (values: Record<string, string>): Basket => {
  const parsed = parseBasket(values);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.basket;
};

describeEachDialect('the periods of a subscriber’s invoices', (kind) => {
  let test: TestDatabase;
  let dir: string;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let n = 0;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
    dir = mkdtempSync(join(tmpdir(), 'periods-'));
  });
  afterAll(async () => {
    await test.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    await test.db.deleteFrom('rate_limits').execute();
    sent = [];
  });

  function start(at: string): void {
    clock = fakeClock(new Date(at));
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
    provider = createSimulatedProvider(deps, { sepaDelayMs: 60_000, signingKey: TEST_WEBHOOK_KEY });
    deps.payments = provider;
  }
  const newUser = () => createUser(test.db, { email: `periodes${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });

  async function pay(buyer: string, values: Record<string, string>, gift?: Record<string, string>): Promise<void> {
    const placed = await placeOrder(deps, buyer, basketOf(values), undefined, form(), gift as never);
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, new URL(placed.url, 'https://contrechamp.example').pathname.split('/').pop()!, {
      action: 'pay',
      number: '4242424242424242',
      delivery: PROMPT_DELIVERY,
    });
    await deps.flush();
  }

  /** Moves the clock to the end of the subscriber's running period: the site renews it (and the simulated provider pays). */
  async function renewOnce(userId: string): Promise<void> {
    const sub = await test.db
      .selectFrom('subscriptions')
      .select('current_period_end')
      .where('user_id', '=', userId)
      .where('kind', '=', 'plan')
      .executeTakeFirstOrThrow();
    clock.set(new Date(sub.current_period_end!));
    await deps.flush();
    await deps.flush();
  }

  /** The subscriber's invoices, in the order they were issued: their period, and the line of the PDF that prints it. */
  async function invoices(userId: string): Promise<{ period: Period; printed: string }[]> {
    const rows = await test.db
      .selectFrom('billing_documents')
      .select(['id', 'content'])
      .where('owner_id', '=', userId)
      .where('kind', '=', 'invoice')
      .orderBy('number')
      .execute();
    const out = [];
    for (const row of rows) {
      const content = JSON.parse(row.content) as DocumentContent;
      const pdf = await userDocumentPdf(deps, userId, row.id);
      const file = join(dir, `${row.id}.pdf`);
      writeFileSync(file, pdf!.bytes);
      const run = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
      if (run.error) throw new Error('pdftotext is missing: install poppler-utils (apt-get install poppler-utils).');
      // The period may wrap in its cell: read as one line.
      const text = run.stdout.replace(/[\u00a0\u202f\u2009\s]+/g, ' ');
      out.push({ period: content.lines[0]!.period!, printed: /Période : du .+? \d{4} au .+? \d{4}/.exec(text)?.[0] ?? '' });
    }
    return out;
  }

  it('a monthly plan from 31 January: the invoices of February and March follow on, never sharing a day', async () => {
    start('2027-01-31T10:00:00Z');
    const userId = await newUser();
    await pay(userId, { formule: 'mensuel' });
    await renewOnce(userId);
    await renewOnce(userId);
    const found = await invoices(userId);
    expect(found.map((i) => i.printed)).toEqual([
      'Période : du 31 janvier 2027 au 27 février 2027',
      'Période : du 28 février 2027 au 27 mars 2027',
      'Période : du 28 mars 2027 au 27 avril 2027',
    ]);
    expectContiguous(found.map((i) => i.period));
  });

  it('a monthly plan from 1 November: « au 30 novembre », then « du 1er décembre »', async () => {
    start('2026-11-01T10:00:00Z');
    const userId = await newUser();
    await pay(userId, { formule: 'mensuel' });
    await renewOnce(userId);
    expect((await invoices(userId)).map((i) => i.printed)).toEqual([
      'Période : du 1er novembre 2026 au 30 novembre 2026',
      'Période : du 1er décembre 2026 au 31 décembre 2026',
    ]);
  });

  it('a yearly plan and its renewal', async () => {
    start('2026-11-23T10:00:00Z');
    const userId = await newUser();
    await pay(userId, { formule: 'annuel' });
    await renewOnce(userId);
    const found = await invoices(userId);
    expect(found.map((i) => i.printed)).toEqual(['Période : du 23 novembre 2026 au 22 novembre 2027', 'Période : du 23 novembre 2027 au 22 novembre 2028']);
    expectContiguous(found.map((i) => i.period));
  });

  it('a gift’s months after the paid period: the renewal’s invoice starts where they end, after the paid period’s last day', async () => {
    start('2026-11-23T10:00:00Z');
    const subscriber = await newUser();
    await pay(subscriber, { formule: 'mensuel' });
    const giver = await newUser();
    await pay(
      giver,
      { cadeau: 'cadeau-6-mois' },
      { destinataire_nom: 'Inès Durand', remise: 'moi-meme', destinataire_email: '', message: 'Bonne lecture !', date_envoi: '2026-12-24' },
    );
    const code = /Code cadeau\s*:\s*([0-9A-Z-]{19})/.exec(sent.filter((m) => /Votre abonnement offert/.test(m.subject)).at(-1)!.text)![1]!;
    expect(await activateGift(deps, subscriber, code, 'periodes')).toMatchObject({ ok: true, mode: 'after_paid' });
    await renewOnce(subscriber);
    expect((await invoices(subscriber)).map((i) => i.printed)).toEqual([
      'Période : du 23 novembre 2026 au 22 décembre 2026',
      // Six offered months (23 December → 23 June), then the paid renewal.
      'Période : du 23 juin 2027 au 22 juillet 2027',
    ]);
  });
});
