/**
 * Billing benchmark, on a fresh SQLite file in a temporary folder, with the simulated provider
 * and the server's own job handlers (mails go nowhere):
 *
 *   npm run bench:invoices -- [payments=500] [donors=10000] [statementPdfs=200]
 *
 * 1. Invoices through the real payment path: `payments` members each place an order (a monthly
 *    subscription), pay on the simulated provider's page with 4242…, and its signed webhook is
 *    delivered by the job worker: order paid, subscription started, invoice numbered and stored,
 *    mails composed. Then the `billing.render-pdf` jobs render and store every invoice's PDF.
 *    Prints each phase, invoices per second without and with their PDFs.
 * 2. The January statements: `donors` donors with 1 to 12 donations each in the past year
 *    (bulk SQL), then `sendYearlyStatements` timed (one transaction per donor: statement, render
 *    job, mail job); the statement mail jobs run by their handler, timed; and `statementPdfs` of
 *    the render jobs run the same way and timed, extrapolated to all (rendering 10,000 takes
 *    more than twenty minutes here).
 *
 * Prints figures only; it checks nothing but the numbering (a gap would make the figures moot).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDER_PDF, sendYearlyStatements } from '../../src/server/billing/service';
import { parseBasket } from '../../src/server/catalog/basket';
import { placeOrder } from '../../src/server/checkout/service';
import { systemClock } from '../../src/server/core/clock';
import type { ServerDeps } from '../../src/server/core/deps';
import { openDatabase } from '../../src/server/db/client';
import { newId, toTimestamp } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { createJobWorker, type JobDefinition } from '../../src/server/jobs';
import type { Mailer } from '../../src/server/mail/transport';
import { newOrderReference } from '../../src/server/orders/references';
import { createSimulatedProvider, PROMPT_DELIVERY, submitSimulatedSession } from '../../src/server/payments/simulated';
import { jobHandlers } from '../../src/server/runtime';

const payments = Number(process.argv[2] ?? 500);
const donors = Number(process.argv[3] ?? 10_000);
const statementPdfs = Number(process.argv[4] ?? 200);

const dir = mkdtempSync(join(tmpdir(), 'bench-invoices-'));
const handle = openDatabase({ kind: 'sqlite', path: join(dir, 'bench.db') });
const db = handle.db;
await migrateToLatest(db);
let mailsSent = 0;
const mailer: Mailer = {
  send: async () => {
    mailsSent++;
    return { messageId: 'bench' };
  },
};
const base = { db, mailer, clock: systemClock, siteUrl: new URL('https://contrechamp.media'), jobs: { wake() {} } };
const deps = { ...base } as ServerDeps;
const provider = createSimulatedProvider(base, { sepaDelayMs: 60_000, signingKey: Buffer.alloc(32, 7) });
deps.payments = provider;
const now = new Date();

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (count: number, ms: number) => `${(count / (ms / 1000)).toFixed(1)}/s`;
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const value = await fn();
  return [value, performance.now() - t];
};

/** Runs the due jobs of these kinds (every kind but those in `except` when `only` is empty) until none is left. */
async function runJobs(options: { only?: string[]; except?: string[] }): Promise<number> {
  const handlers = (jobHandlers(deps) as JobDefinition[]).filter((h) => (options.only ? options.only.includes(h.kind) : !options.except?.includes(h.kind)));
  const worker = createJobWorker({ db, handlers, clock: systemClock, retryDelay: () => 0, logger: { info() {}, warn() {}, error() {} } as never });
  let total = 0;
  for (;;) {
    const ran = await worker.runDue();
    total += ran;
    if (ran === 0) break;
  }
  await worker.stop({ graceMs: 0 });
  return total;
}

async function users(count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
      const id = newId();
      ids.push(id);
      return {
        id,
        email: `${prefix}${start + i}@exemple.fr`,
        password_hash: null,
        given_name: 'Camille',
        family_name: `Lectrice ${start + i}`,
        address_line1: '3 rue du Port',
        postal_code: '44000',
        city: 'Nantes',
        email_verified_at: null,
        created_at: toTimestamp(now),
        updated_at: toTimestamp(now),
      };
    });
    await db.insertInto('users').values(rows).execute();
  }
  return ids;
}

console.log(`bench:invoices on ${cpus().length} CPU(s), Node ${process.version}, SQLite in ${dir}`);

// ---------------------------------------------------------------------------------------------
// 1. Invoices through the payment path.

const buyers = await users(payments, 'abonne');
const basket = parseBasket({ formule: 'mensuel' });
if (!basket.ok) throw new Error(basket.message);
const input = {
  given_name: 'Camille',
  family_name: 'Lectrice',
  address_line1: '3 rue du Port',
  address_line2: '',
  postal_code: '44000',
  city: 'Nantes',
  country: 'FR',
  methode: 'card' as const,
  cgv: true as const,
  demarrage_immediat: true,
};
const [sessions, placeMs] = await timed(async () => {
  const urls: string[] = [];
  for (const buyer of buyers) {
    const placed = await placeOrder(deps, buyer, basket.basket, undefined, { ...input, tentative: randomUUID() });
    if (!placed.ok) throw new Error(placed.message);
    urls.push(new URL(placed.url, base.siteUrl).pathname.split('/').pop()!);
  }
  return urls;
});
const [, payMs] = await timed(async () => {
  for (const session of sessions) await submitSimulatedSession(provider, session, { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
});
const [webhookRuns, deliverMs] = await timed(() => runJobs({ except: [RENDER_PDF.kind] }));
const invoices = Number(
  (
    await db
      .selectFrom('billing_documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'invoice')
      .executeTakeFirstOrThrow()
  ).n,
);
const [renders, renderMs] = await timed(() => runJobs({ only: [RENDER_PDF.kind] }));
const pdfBytes = await db
  .selectFrom('billing_pdfs')
  .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(eb.fn('length', ['bytes'])).as('bytes')])
  .executeTakeFirstOrThrow();
const numbers = (await db.selectFrom('billing_documents').select('number').where('series', '=', 'F').orderBy('number').execute()).map((r) => Number(r.number));
const gapless = numbers.length === payments && numbers.every((n, i) => n === i + 1);
const pathMs = placeMs + payMs + deliverMs;
console.log(`\n1. ${payments} payments through the payment path (place the order, pay on the provider's page, signed webhook by the job worker):`);
console.log(`   place the orders          ${seconds(placeMs)}  (${rate(payments, placeMs)})`);
console.log(`   pay on the provider       ${seconds(payMs)}  (${rate(payments, payMs)})`);
console.log(`   webhooks → paid + invoice ${seconds(deliverMs)}  (${webhookRuns} jobs incl. ${mailsSent} mails; ${rate(invoices, deliverMs)})`);
console.log(
  `   invoice PDFs rendered and stored: ${renders} in ${seconds(renderMs)}  (${(renderMs / Math.max(1, renders)).toFixed(1)} ms each; ${Math.round(Number(pdfBytes.bytes) / Math.max(1, Number(pdfBytes.n)) / 1024)} KiB each)`,
);
console.log(
  `   => ${invoices} invoices: ${rate(invoices, pathMs)} through the whole payment path without PDFs, ${rate(invoices, pathMs + renderMs)} with their PDFs; numbers 1..${numbers.length} gapless: ${gapless}`,
);
if (!gapless) process.exitCode = 1;

// ---------------------------------------------------------------------------------------------
// 2. January statements.

const year = now.getUTCFullYear() - 1;
const donorIds = await users(donors, 'donateur');
const [donations, seedMs] = await timed(async () => {
  let count = 0;
  for (let start = 0; start < donorIds.length; start += 100) {
    const rows = donorIds.slice(start, start + 100).flatMap((userId, i) =>
      Array.from({ length: 1 + ((start + i) % 12) }, (_, m) => {
        const paidAt = toTimestamp(new Date(Date.UTC(year, m, 10, 10)));
        return {
          id: newId(),
          reference: newOrderReference(),
          user_id: userId,
          purpose: 'donation' as const,
          reason: m === 0 ? ('initial' as const) : ('renewal' as const),
          offer_id: 'don',
          description: 'Don mensuel',
          interval: 'month' as const,
          quantity: 1,
          amount_cents: 1000,
          vat_rate_bp: 0,
          vat_cents: 0,
          currency: 'EUR' as const,
          source: null,
          status: 'paid' as const,
          method: 'card' as const,
          provider: 'simulated' as const,
          checkout_ref: null,
          payment_ref: `ch_${newId()}`,
          subscription_id: null,
          attempt_key: `bench:${newId()}`,
          billing_name: 'Camille Lectrice',
          billing_address: '',
          terms_accepted_at: null,
          immediate_start_at: null,
          period_start: null,
          period_end: null,
          failure_reason: null,
          submitted_at: null,
          paid_at: paidAt,
          created_at: paidAt,
          updated_at: paidAt,
        };
      }),
    );
    count += rows.length;
    await db.insertInto('orders').values(rows).execute();
  }
  return count;
});
console.log(`\n2. January statements for ${donors} donors (${donations} donations of ${year}, seeded in ${seconds(seedMs)}):`);
mailsSent = 0;
const [{ issued }, statementsMs] = await timed(() => sendYearlyStatements(deps, year));
console.log(`   sendYearlyStatements      ${seconds(statementsMs)}  (${issued} statements with their render and mail jobs; ${rate(issued, statementsMs)})`);
// The mail and render jobs, run by their own handlers: a worker limited to one kind would walk
// past the 10,000 jobs of the other kind at each claim (the jobs index has no kind), which the
// server's worker, taking every kind in due order, does not.
const handlerOf = (kind: string) => (jobHandlers(deps) as JobDefinition[]).find((h) => h.kind === kind)!;
async function runQueued(kind: string, limit: number): Promise<number> {
  const handler = handlerOf(kind);
  const queued = await db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', kind).where('status', '=', 'pending').limit(limit).execute();
  for (const job of queued) {
    await handler.run({
      payload: handler.schema.parse(JSON.parse(job.payload)),
      job: { id: job.id, kind, attempt: 1, maxAttempts: 10 },
      signal: new AbortController().signal,
    });
  }
  return queued.length;
}
const [mailRuns, mailMs] = await timed(() => runQueued('mail.send', donors));
console.log(
  `   statement mails           ${seconds(mailMs)}  (${mailRuns} mail jobs' handlers, ${mailsSent} mails composed and handed to a discarding transport)`,
);
const [sampleRuns, sampleMs] = await timed(() => runQueued(RENDER_PDF.kind, statementPdfs));
const perPdf = sampleMs / Math.max(1, sampleRuns);
console.log(
  `   statement PDFs            ${perPdf.toFixed(1)} ms each (${sampleRuns} render jobs run), about ${((perPdf * issued) / 60_000).toFixed(1)} min of render jobs for all ${issued}`,
);

await handle.close();
rmSync(dir, { recursive: true, force: true });
