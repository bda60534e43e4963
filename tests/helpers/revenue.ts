/**
 * Reader revenue for end-to-end tests: a reader's running subscription or monthly donation,
 * written straight into the test server's database as the support path leaves it — a simulated
 * provider's customer with a saved test card, the paid first order and its history, the
 * subscription active for its period — so that a test can start at « Mes abonnements ».
 * (tests/e2e/account-subscriptions.spec.ts also drives the support path itself, once.)
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { addDays, addMonths, addYears } from 'date-fns';
import { load } from 'js-yaml';
import { findUserRowByEmail } from '../../src/server/auth/repository';
import { openDatabase } from '../../src/server/db/client';
import { newId, toTimestamp } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { insertOrder, saveCustomerRef } from '../../src/server/orders/repository';
import { saveSimulatedMethod } from '../../src/server/payments/simulated';
import { insertSubscription, insertSubscriptionEvent } from '../../src/server/subscriptions/repository';

/**
 * The catalogue's plans and VAT, read from its YAML (src/config/catalog.ts imports it through
 * Vite's `?raw`, which Playwright's loader does not know).
 */
const catalog = load(readFileSync(resolve(import.meta.dirname, '../../src/config/catalog.yaml'), 'utf8')) as {
  vat: { cppapRecognised: boolean };
  plans: { id: string; label: string; interval: 'month' | 'year'; priceCents: number }[];
};
const findPlan = (id: string) => catalog.plans.find((p) => p.id === id);
const SUBSCRIPTION_VAT_BP = catalog.vat.cppapRecognised ? 210 : 2000;
const vatIncluded = (amountCents: number, rateBp: number) => Math.round((amountCents * rateBp) / (10_000 + rateBp));

const database = () => resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'contrechamp.db');

export type SeededOffer = { kind: 'plan'; planId: string } | { kind: 'donation'; amountCents: number };

/**
 * A subscription (or monthly donation) of the reader, paid by card 10 days ago and running:
 * its next payment is 20-odd days ahead. Answers its id.
 */
export async function seedSubscription(email: string, offer: SeededOffer, options: { startedDaysAgo?: number } = {}): Promise<string> {
  const handle = openDatabase({ kind: 'sqlite', path: database() });
  const { db } = handle;
  try {
    await migrateToLatest(db);
    const user = await findUserRowByEmail(db, email);
    if (!user) throw new Error(`No reader ${email}`);
    const now = new Date();
    const start = addDays(now, -(options.startedDaysAgo ?? 10));
    const plan = offer.kind === 'plan' ? findPlan(offer.planId) : undefined;
    if (offer.kind === 'plan' && !plan) throw new Error(`No plan ${offer.planId}`);
    const interval = plan?.interval ?? 'month';
    const amountCents = plan?.priceCents ?? (offer.kind === 'donation' ? offer.amountCents : 0);
    const vatRateBp = plan ? SUBSCRIPTION_VAT_BP : 0;
    const periodEnd = interval === 'year' ? addYears(start, 1) : addMonths(start, 1);

    // The provider's side: a customer with the test card 4242 saved, and its link to the reader.
    const customer = `cus_sim_${newId()}`;
    await db
      .insertInto('simulated_customers')
      .values({ id: customer, idempotency_key: `e2e-customer:${customer}`, email, method_label: '', method_behaviour: '', created_at: toTimestamp(start) })
      .execute();
    await saveCustomerRef(db, user.id, 'simulated', customer, start);
    const existing = await db
      .selectFrom('payment_customers')
      .select('customer_ref')
      .where('user_id', '=', user.id)
      .where('provider', '=', 'simulated')
      .executeTakeFirstOrThrow();
    const methodLabel = await saveSimulatedMethod(db, existing.customer_ref, 'card', '4242424242424242');

    const subscriptionId = await insertSubscription(
      db,
      { userId: user.id, kind: offer.kind, planId: plan?.id ?? null, amountCents, interval, vatRateBp, provider: 'simulated', source: null },
      addDays(start, 0),
    );
    const description = plan ? `Abonnement ${plan.label}` : 'Don mensuel';
    const { order } = await insertOrder(
      db,
      {
        userId: user.id,
        purpose: offer.kind === 'plan' ? 'subscription' : 'donation',
        reason: 'initial',
        offerId: plan?.id ?? 'don',
        description,
        interval,
        amountCents,
        vatRateBp,
        vatCents: vatIncluded(amountCents, vatRateBp),
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId,
        attemptKey: `e2e:${subscriptionId}`,
        billingName: `${user.given_name} ${user.family_name}`,
        billingAddress: { line1: '3 rue du Port', line2: '', postalCode: '44000', city: 'Nantes', country: 'FR' },
        termsAcceptedAt: start,
        immediateStartAt: plan ? start : null,
        periodStart: start,
        periodEnd,
        status: 'pending',
      },
      start,
    );
    const paidAt = new Date(start.getTime() + 30_000);
    await db
      .updateTable('orders')
      .set({ status: 'paid', paid_at: toTimestamp(paidAt), payment_ref: `ch_sim_e2e_${order.id}` })
      .where('id', '=', order.id)
      .execute();
    await db
      .insertInto('order_events')
      .values({
        id: newId(),
        order_id: order.id,
        from_status: 'pending',
        to_status: 'paid',
        cause: `Paiement reçu (${methodLabel})`,
        provider_event_id: null,
        at: toTimestamp(paidAt),
      })
      .execute();
    await db
      .updateTable('subscriptions')
      .set({
        status: 'active',
        current_period_start: toTimestamp(start),
        current_period_end: toTimestamp(periodEnd),
        payment_method: methodLabel,
        updated_at: toTimestamp(paidAt),
      })
      .where('id', '=', subscriptionId)
      .execute();
    await insertSubscriptionEvent(
      db,
      { subscriptionId, type: 'started', from: 'incomplete', to: 'active', detail: `Premier paiement reçu (${methodLabel})` },
      paidAt,
    );
    return subscriptionId;
  } finally {
    await handle.close();
  }
}

/** The subscription's row as the database holds it now. */
export async function subscriptionRow(id: string) {
  const handle = openDatabase({ kind: 'sqlite', path: database() });
  try {
    return await handle.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  } finally {
    await handle.close();
  }
}
