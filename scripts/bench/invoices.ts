/**
 * Billing benchmark: `npm run bench:invoices -- [payments=300] [donors=10000]`, on a fresh SQLite
 * file in a temporary folder.
 *
 * 1. Invoices: `payments` paid orders each get their invoice in their own write transaction (the
 *    counter row, the content snapshot), then their PDF rendered and stored: invoices per second
 *    without and with the PDF.
 * 2. January statements: `donors` donors with 1 to 12 donations each in the year (bulk SQL), then
 *    `sendYearlyStatements` (one transaction per donor: statement + mail job), and the statements'
 *    PDFs rendered for a sample, to extrapolate the render jobs.
 * Prints figures; asserts only that numbers are gapless.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { newId, toTimestamp } from '../../src/server/db/database';
import { writeTransaction } from '../../src/server/db/transaction';
import { findOrder } from '../../src/server/orders/repository';
import { issueForPayment } from '../../src/server/billing/documents';
import { sendYearlyStatements, storedPdf } from '../../src/server/billing/service';
import { systemClock } from '../../src/server/core/clock';

const payments = Number(process.argv[2] ?? 300);
const donors = Number(process.argv[3] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'bench-invoices-'));
const handle = openDatabase({ kind: 'sqlite', path: join(dir, 'bench.db') });
const db = handle.db;
await migrateToLatest(db);
const siteUrl = new URL('https://contrechamp.media');
const deps = { db, clock: systemClock, siteUrl, jobs: { wake() {} } };
const now = new Date();

async function users(count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
      const id = newId();
      ids.push(id);
      return { id, email: `${prefix}${start + i}@exemple.fr`, password_hash: null, given_name: 'Camille', family_name: `Donatrice ${start + i}`, address_line1: '3 rue du Port', postal_code: '44000', city: 'Nantes', email_verified_at: null, created_at: toTimestamp(now), updated_at: toTimestamp(now) };
    });
    await db.insertInto('users').values(rows).execute();
  }
  return ids;
}

function order(userId: string, purpose: 'subscription' | 'donation', paidAt: Date, amount: number) {
  return {
    id: newId(), user_id: userId, purpose, reason: 'initial' as const, offer_id: purpose === 'donation' ? 'don' : 'mensuel', description: purpose === 'donation' ? 'Don mensuel' : 'Abonnement Mensuel',
    interval: 'month' as const, quantity: 1, amount_cents: amount, vat_rate_bp: purpose === 'donation' ? 0 : 210, vat_cents: purpose === 'donation' ? 0 : 14, currency: 'EUR' as const, source: null,
    status: 'paid' as const, method: 'card' as const, provider: 'simulated' as const, checkout_ref: null, payment_ref: `ch_${newId()}`, subscription_id: null, attempt_key: `bench:${newId()}`,
    billing_name: 'Camille Donatrice', billing_address: JSON.stringify({ line1: '3 rue du Port', line2: '', postalCode: '44000', city: 'Nantes', country: 'FR' }), terms_accepted_at: null,
    immediate_start_at: null, period_start: null, period_end: null, failure_reason: null, submitted_at: null, paid_at: toTimestamp(paidAt), created_at: toTimestamp(paidAt), updated_at: toTimestamp(paidAt),
  };
}

// 1. Invoices.
const buyers = await users(payments, 'abonne');
const orderIds: string[] = [];
for (const id of buyers) {
  const row = order(id, 'subscription', now, 700);
  orderIds.push(row.id);
  await db.insertInto('orders').values(row).execute();
}
let t = performance.now();
const documents: string[] = [];
for (const id of orderIds) {
  const doc = await writeTransaction(db, async (trx) => issueForPayment(trx, siteUrl, (await findOrder(trx, id))!, { methodLabel: 'Carte •••• 4242', now }));
  documents.push(doc!.id);
}
const issueMs = performance.now() - t;
t = performance.now();
for (const id of documents) await storedPdf(db, id, now);
const pdfMs = performance.now() - t;
const numbers = (await db.selectFrom('billing_documents').select('number').where('series', '=', 'F').orderBy('number').execute()).map((r) => Number(r.number));
const gapless = numbers.every((n, i) => n === i + 1);
console.log(`invoices: ${payments} issued in ${(issueMs / 1000).toFixed(2)} s (${(payments / (issueMs / 1000)).toFixed(0)}/s); PDFs rendered and stored in ${(pdfMs / 1000).toFixed(2)} s (${(payments / (pdfMs / 1000)).toFixed(0)}/s, ${(pdfMs / payments).toFixed(1)} ms each); with PDFs ${(payments / ((issueMs + pdfMs) / 1000)).toFixed(0)} invoices/s; numbers gapless: ${gapless}`);

// 2. January statements for `donors` donors.
const year = now.getUTCFullYear() - 1;
const donorIds = await users(donors, 'donateur');
let donations = 0;
for (let start = 0; start < donorIds.length; start += 100) {
  const rows = donorIds.slice(start, start + 100).flatMap((id, i) => Array.from({ length: 1 + ((start + i) % 12) }, (_, m) => order(id, 'donation', new Date(Date.UTC(year, m, 10, 10)), 1000)));
  donations += rows.length;
  await db.insertInto('orders').values(rows).execute();
}
t = performance.now();
const { issued } = await sendYearlyStatements(deps, year);
const statementsMs = performance.now() - t;
const sample = await db.selectFrom('billing_documents').select('id').where('kind', '=', 'statement').limit(200).execute();
t = performance.now();
for (const { id } of sample) await storedPdf(db, id, now);
const samplePdfMs = (performance.now() - t) / Math.max(1, sample.length);
console.log(`statements: ${donors} donors, ${donations} donations of ${year}: ${issued} statements issued with their mail jobs in ${(statementsMs / 1000).toFixed(1)} s; their PDFs ${samplePdfMs.toFixed(1)} ms each (sample of ${sample.length}), about ${((samplePdfMs * issued) / 1000).toFixed(0)} s of render jobs for all`);
await handle.close();
rmSync(dir, { recursive: true, force: true });
