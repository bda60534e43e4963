/**
 * Checkout benchmark, against the production build on a throwaway data folder, with the
 * simulated provider:
 *
 *  1. concurrent checkouts: N members each post the payment form (a monthly subscription), then
 *     pay on the simulated provider's page with the test card; the provider's webhooks reach the
 *     site through its job worker. Prints the latency of each step (p50, p99) and paid orders per
 *     second, from the first form to the last order paid.
 *  2. a webhook burst: M more orders left pending, then their `payment.succeeded` notifications
 *     posted to /api/payments/webhooks/simulated three times each, shuffled, C at a time.
 *     Prints notifications per second and p99.
 *
 * Then checks the books: every order paid exactly once (one `paid` transition, one charge), no
 * order lost, no event applied twice. Any discrepancy sets a non-zero exit code.
 *
 *   npm run bench:checkout                 (builds first if needed; scripts/bench/server.ts)
 *   npm run bench:checkout -- 100 300 50   (checkouts, burst orders, burst concurrency)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyring } from '../../src/server/core/keys';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { toTimestamp } from '../../src/server/db/database';
import { createUser } from '../../src/server/auth/service';
import { insertSession } from '../../src/server/auth/repository';
import { hashSecret, newSecret, sessionExpiresAt } from '../../src/server/auth/tokens';
import { SIMULATED_SIGNATURE_HEADER, signSimulated } from '../../src/server/payments/simulated';
import { freePort, startServer } from './server.ts';

const checkouts = Number(process.argv[2] ?? 100);
const burstOrders = Number(process.argv[3] ?? 300);
const concurrency = Number(process.argv[4] ?? 50);

const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-bench-checkout-'));
const port = await freePort();
const siteUrl = `http://localhost:${port}`;
const appSecret = randomBytes(32).toString('base64url');
const webhookKey = createKeyring({ env: { APP_SECRET: appSecret }, dataDir }).subkey('payment-webhook');

const members = checkouts + burstOrders;
const handle = openDatabase({ kind: 'sqlite', path: join(dataDir, 'contrechamp.db') });
await migrateToLatest(handle.db);
const cookies: string[] = [];
const now = new Date();
for (let i = 0; i < members; i++) {
  const userId = await createUser(handle.db, { email: `bench-${i}@exemple.fr`, givenName: `Membre ${i}`, now });
  const token = newSecret();
  await insertSession(handle.db, {
    id_hash: hashSecret(token),
    user_id: userId,
    persistent: 1,
    created_at: toTimestamp(now),
    last_seen_at: toTimestamp(now),
    expires_at: toTimestamp(sessionExpiresAt('persistent', now)),
    user_agent: 'bench',
  });
  cookies.push(`cc_session=${token}`);
}
await handle.close();

// npm start (scripts/bench/server.ts) on the data folder written above.
const server = await startServer({
  dataDir,
  port,
  host: 'localhost',
  env: { SITE_URL: siteUrl, APP_MODE: 'production', PAYMENT_PROVIDER: 'simulated', APP_SECRET: appSecret, LOG_LEVEL: 'warn' },
}).catch((error: unknown) => {
  rmSync(dataDir, { recursive: true, force: true });
  throw error;
});

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function timed<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    samples.push(performance.now() - started);
  }
}

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const billing = {
  given_name: 'Camille',
  family_name: 'Martin',
  address_line1: '1 place de la Mairie',
  address_line2: '',
  postal_code: '93100',
  city: 'Montreuil',
  country: 'FR',
};

/** Posts the payment form; answers the provider page's path. */
async function placeOrder(cookie: string): Promise<string> {
  const answer = await fetch(`${siteUrl}/soutenir/paiement?formule=mensuel`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: siteUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ ...billing, formule: 'mensuel', methode: 'card', cgv: 'on', demarrage_immediat: 'on', tentative: randomUUID() }),
  });
  const location = answer.headers.get('location') ?? '';
  if (answer.status !== 303 || !location.includes('/paiement-simule/')) throw new Error(`payment form answered ${answer.status} ${location}`);
  return new URL(location, siteUrl).pathname;
}

try {
  const db = openDatabase({ kind: 'sqlite', path: join(dataDir, 'contrechamp.db') }).db;
  const paidCount = async () =>
    Number(
      (
        await db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'paid')
          .executeTakeFirstOrThrow()
      ).n,
    );

  // 1. Concurrent checkouts, end to end.
  const formLatency: number[] = [];
  const payLatency: number[] = [];
  const started = performance.now();
  await pool(cookies.slice(0, checkouts), concurrency, async (cookie) => {
    const page = await timed(formLatency, () => placeOrder(cookie));
    const paid = await timed(payLatency, () =>
      fetch(`${siteUrl}${page}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: siteUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ action: 'pay', numero: '4242 4242 4242 4242' }),
      }),
    );
    if (paid.status !== 303) throw new Error(`simulated page answered ${paid.status}`);
  });
  while ((await paidCount()) < checkouts) {
    if (performance.now() - started > 300_000) throw new Error('orders still unpaid after 5 minutes');
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`checkout bench: ${checkouts} checkouts, ${concurrency} at a time (monthly subscription, card 4242, webhooks through the job worker)`);
  console.log(`  payment form → provider page: p50 ${ms(percentile(formLatency, 50))}, p99 ${ms(percentile(formLatency, 99))}`);
  console.log(`  provider page → back to site: p50 ${ms(percentile(payLatency, 50))}, p99 ${ms(percentile(payLatency, 99))}`);
  console.log(`  ${(checkouts / seconds).toFixed(1)} orders paid per second (${seconds.toFixed(1)} s from first form to last order paid)`);

  // 2. Webhook burst: pending orders, each notified three times, shuffled.
  const pending: string[] = [];
  await pool(cookies.slice(checkouts), concurrency, async (cookie) => {
    await placeOrder(cookie);
  });
  const rows = await db.selectFrom('orders').select('id').where('status', '=', 'pending').execute();
  pending.push(...rows.map((r) => r.id));
  const bodies = pending.map((orderId) =>
    JSON.stringify({
      id: `evt_bench_${orderId}`,
      created: new Date().toISOString(),
      data: { type: 'payment.succeeded', orderId, paymentRef: `ch_bench_${orderId}`, methodLabel: 'Carte •••• 4242' },
    }),
  );
  const deliveries = [...bodies, ...bodies, ...bodies].sort(() => Math.random() - 0.5);
  const hookLatency: number[] = [];
  let refused = 0;
  const burstStarted = performance.now();
  await pool(deliveries, concurrency, async (body) => {
    const answer = await timed(hookLatency, () =>
      fetch(`${siteUrl}/api/payments/webhooks/simulated`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signSimulated(webhookKey, body, new Date()) },
        body,
      }),
    );
    if (!answer.ok) refused++;
    await answer.arrayBuffer();
  });
  const burstSeconds = (performance.now() - burstStarted) / 1000;
  console.log(`webhook burst: ${deliveries.length} notifications (${pending.length} orders × 3, shuffled), ${concurrency} at a time`);
  console.log(
    `  ${(deliveries.length / burstSeconds).toFixed(0)} notifications per second; p50 ${ms(percentile(hookLatency, 50))}, p99 ${ms(percentile(hookLatency, 99))}; refused ${refused}`,
  );

  // The books.
  const total = checkouts + pending.length;
  const paid = await paidCount();
  const transitions = await db
    .selectFrom('order_events')
    .select(['order_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('to_status', '=', 'paid')
    .where('from_status', '!=', 'paid')
    .groupBy('order_id')
    .execute();
  const twice = transitions.filter((t) => Number(t.n) !== 1).length;
  const lost = total - paid;
  const events = Number(
    (
      await db
        .selectFrom('provider_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', 'like', 'evt_bench_%')
        .executeTakeFirstOrThrow()
    ).n,
  );
  console.log(`books: ${total} orders, ${paid} paid, ${lost} lost, ${twice} paid twice, ${events} burst events recorded for ${pending.length} distinct`);
  process.exitCode = lost === 0 && twice === 0 && refused === 0 && events === pending.length ? 0 : 1;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
