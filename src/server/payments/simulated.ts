/**
 * The simulated provider: the default, with no network and no account anywhere. It behaves like
 * a real one from the site's side — its own payment page (served by the site at
 * /paiement-simule/{session}), saved customers and methods, charges, refunds, idempotency keys,
 * and signed webhooks that reach the site late, twice or out of order when the tester asks.
 *
 * Its tables (`simulated_*`) stand for the provider's side: the site's own records never read
 * them. Webhooks are delivered by a durable job that signs the body when it runs and hands it to
 * the same entry point as `/api/payments/webhooks/simulated` (`deliver`, given by the runtime):
 * the delivery survives a restart and is retried like a real provider's, and it verifies the
 * signature exactly as an HTTP delivery would.
 *
 * Test numbers: simulated-methods.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Clock } from '../core/clock';
import { subkey } from '../core/keys';
import { fail, type Result } from '../core/result';
import { type BillingInterval, type Database, newId, type PaymentMethodKind, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import type { PaymentEvent, PaymentProvider } from './provider';
import { findTestMethod, methodLabel, type TestMethod } from './simulated-methods';

export const SIMULATED_SIGNATURE_HEADER = 'simulated-signature';
/** A notification signed longer ago than this is refused (a replay of an old capture). */
const SIGNATURE_TOLERANCE_S = 300;
/** The second copy of a notification sent "twice" comes this much later. */
const DUPLICATE_GAP_MS = 2_000;

export interface SimulatedDeps {
  db: Kysely<Database>;
  clock: Clock;
  siteUrl: URL;
  jobs: { wake(): void };
}

export interface SimulatedOptions {
  /** How long a SEPA debit stays pending before the bank's answer (20 s in demo, 0 in tests). */
  sepaDelayMs: number;
  /** The signing key; the process's `payment-webhook` subkey by default. */
  signingKey?: Buffer;
}

/** How the tester wants the notifications delivered. */
export interface Delivery {
  twice: boolean;
  /** Milliseconds before the first notification. */
  lateMs: number;
  /** The outcome before the intermediate step (a SEPA success before its "pending"). */
  reversed: boolean;
}
export const PROMPT_DELIVERY: Delivery = { twice: false, lateMs: 0, reversed: false };

// ---------------------------------------------------------------------------------------------
// Wire format of the notifications

const iso = z.iso.datetime().transform((v) => new Date(v));
const wireEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('payment.succeeded'),
    orderId: z.string(),
    paymentRef: z.string(),
    methodLabel: z.string(),
    amountCents: z.number().int().positive().optional(),
  }),
  z.object({ type: z.literal('payment.processing'), orderId: z.string(), methodLabel: z.string() }),
  z.object({ type: z.literal('payment.failed'), orderId: z.string(), reason: z.string() }),
  z.object({ type: z.literal('refund.succeeded'), paymentRef: z.string(), amountCents: z.number().int().positive() }),
  z.object({
    type: z.literal('payment_method.updated'),
    customerRef: z.string(),
    methodLabel: z.string(),
    changeRef: z.string().optional(),
    method: z.enum(['card', 'sepa_debit']).optional(),
  }),
]);
type WireData = z.infer<typeof wireEvent>;
const envelope = z.object({ id: z.string().min(1).max(100), created: iso, data: wireEvent });

export const SIMULATED_WEBHOOK = jobType({
  kind: 'payments.simulated-webhook',
  schema: z.object({ body: z.string().min(2) }),
  // A real provider retries for days; a few minutes of retries is plenty for a simulation.
  maxAttempts: 10,
});

function signatureOf(key: Buffer, timestamp: number, body: string): string {
  return createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex');
}

/** The header a delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signSimulated(key: Buffer, body: string, now: Date): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${signatureOf(key, t, body)}`;
}

// ---------------------------------------------------------------------------------------------

export interface SimulatedProvider extends PaymentProvider {
  readonly name: 'simulated';
  /** The job handler that delivers notifications to `deliver` (the site's webhook entry). */
  jobs(deliver: (rawBody: Uint8Array, headers: Headers) => Promise<Result<object>>): ReturnType<typeof handle>[];
  /** Signs a body as a delivery would (tests, the benchmark). */
  sign(body: string, now?: Date): string;
}

export function createSimulatedProvider(deps: SimulatedDeps, options: SimulatedOptions): SimulatedProvider {
  const key = () => options.signingKey ?? subkey('payment-webhook');
  const now = () => deps.clock.now();

  async function insertOnce<T extends 'simulated_sessions' | 'simulated_customers' | 'simulated_charges'>(
    table: T,
    row: Record<string, unknown> & { idempotency_key: string },
  ): Promise<string> {
    // The idempotency key is unique: the same request twice returns the first answer.
    await deps.db
      .insertInto(table)
      .values(row as never)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
    const found = await (deps.db as Kysely<any>)
      .selectFrom(table as string)
      .select('id')
      .where('idempotency_key', '=', row.idempotency_key)
      .executeTakeFirstOrThrow();
    return found.id as string;
  }

  const provider: SimulatedProvider = {
    name: 'simulated',
    runsRenewals: false,

    ensureCustomer: (user, idempotencyKey) =>
      insertOnce('simulated_customers', { id: `cus_sim_${newId()}`, idempotency_key: idempotencyKey, email: user.email, created_at: toTimestamp(now()) }),

    async startCheckout(request) {
      const id = await insertOnce('simulated_sessions', {
        id: `cs_sim_${newId()}`,
        idempotency_key: request.idempotencyKey,
        kind: 'payment',
        order_id: request.orderId,
        customer_ref: request.customerRef,
        amount_cents: request.amountCents,
        description: request.description,
        interval: request.recurring?.interval ?? null,
        method: request.method,
        return_url: request.returnUrl,
        status: 'open',
        created_at: toTimestamp(now()),
        updated_at: toTimestamp(now()),
      });
      return { checkoutRef: id, url: new URL(`/paiement-simule/${id}`, deps.siteUrl).href };
    },

    async checkoutStatus(checkoutRef) {
      const row = await deps.db.selectFrom('simulated_sessions').select('status').where('id', '=', checkoutRef).executeTakeFirst();
      if (!row || row.status === 'expired') return 'expired';
      return row.status === 'complete' || row.status === 'failed' ? 'complete' : 'open';
    },

    async chargeRenewal(charge) {
      const customer = await deps.db.selectFrom('simulated_customers').selectAll().where('id', '=', charge.customerRef).executeTakeFirst();
      const behaviour = customer?.method_behaviour ?? '';
      const at = now();
      await writeTransaction(deps.db, async (trx) => {
        const inserted = await trx
          .insertInto('simulated_charges')
          .values({
            id: `ch_sim_${newId()}`,
            idempotency_key: charge.idempotencyKey,
            customer_ref: charge.customerRef,
            order_id: charge.orderId,
            amount_cents: charge.amountCents,
            status: 'pending',
            created_at: toTimestamp(at),
          })
          .onConflict((oc) => oc.column('idempotency_key').doNothing())
          .returning('id')
          .executeTakeFirst();
        // Already charged under this key: the notifications went out the first time.
        if (!inserted) return;
        const label = customer?.method_label ?? '';
        if (behaviour === 'succeed' || behaviour === 'challenge') {
          await notify(trx, [
            { type: 'payment.succeeded', orderId: charge.orderId, paymentRef: inserted.id, methodLabel: label, amountCents: charge.amountCents },
          ]);
        } else if (behaviour === 'sepa-succeed' || behaviour === 'sepa-fail') {
          await notifySepa(trx, charge.orderId, inserted.id, label, behaviour, PROMPT_DELIVERY);
        } else {
          await notify(trx, [
            {
              type: 'payment.failed',
              orderId: charge.orderId,
              reason: customer ? 'Votre banque a refusé le paiement.' : 'Aucun moyen de paiement enregistré.',
            },
          ]);
        }
      });
      deps.jobs.wake();
    },

    // The site runs the renewals of this provider: there is no subscription on its side to change.
    updateSubscription: async () => {},
    cancelSubscriptionNow: async () => {},
    // The site runs this provider's renewals: the gift moves the site's renewal job instead.
    postponeRenewal: async () => {},

    async refund({ paymentRef, amountCents, idempotencyKey }) {
      await writeTransaction(deps.db, async (trx) => {
        // The refund's key is recorded as a charge of its own, so that a retried refund does nothing twice.
        const first = await trx
          .insertInto('simulated_charges')
          .values({
            id: `re_sim_${newId()}`,
            idempotency_key: idempotencyKey,
            customer_ref: '',
            order_id: paymentRef,
            amount_cents: amountCents,
            status: 'refund',
            created_at: toTimestamp(now()),
          })
          .onConflict((oc) => oc.column('idempotency_key').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!first) return;
        await trx
          .updateTable('simulated_charges')
          .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', amountCents) }))
          .where('id', '=', paymentRef)
          .execute();
        await notify(trx, [{ type: 'refund.succeeded', paymentRef, amountCents }]);
      });
      deps.jobs.wake();
    },

    async paymentMethodUrl({ customerRef, subscriptionId, returnUrl, idempotencyKey }) {
      const candidate = `seti_sim_${newId()}`;
      // Back on the site with the session's id, as Stripe's {CHECKOUT_SESSION_ID}: the page reads
      // what it saved (`paymentMethodChange`) before its notification arrives.
      const back = new URL(returnUrl);
      back.searchParams.set('changement', candidate);
      const id = await insertOnce('simulated_sessions', {
        id: candidate,
        idempotency_key: idempotencyKey,
        kind: 'setup',
        order_id: null,
        customer_ref: customerRef,
        amount_cents: 0,
        description: `Moyen de paiement (${subscriptionId})`,
        interval: null,
        method: 'card',
        return_url: back.href,
        status: 'open',
        created_at: toTimestamp(now()),
        updated_at: toTimestamp(now()),
      });
      return new URL(`/paiement-simule/${id}`, deps.siteUrl).href;
    },

    async paymentMethodChange({ customerRef, changeRef }) {
      if (!changeRef) return null;
      // Only this customer's own setup, once saved: another's session id reads as nothing.
      const session = await deps.db
        .selectFrom('simulated_sessions')
        .select(['id'])
        .where('id', '=', changeRef)
        .where('kind', '=', 'setup')
        .where('customer_ref', '=', customerRef)
        .where('status', '=', 'complete')
        .executeTakeFirst();
      if (!session) return null;
      const customer = await deps.db.selectFrom('simulated_customers').select('method_label').where('id', '=', customerRef).executeTakeFirst();
      if (!customer?.method_label) return null;
      return { changeRef: session.id, methodLabel: customer.method_label, method: 'card' };
    },

    parseWebhook(rawBody, headers) {
      const header = headers.get(SIMULATED_SIGNATURE_HEADER) ?? '';
      const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
      const t = Number(parts.t);
      const given = Buffer.from(parts.v1 ?? '', 'hex');
      const body = Buffer.from(rawBody).toString('utf8');
      const expected = Buffer.from(signatureOf(key(), t, body), 'hex');
      if (!Number.isInteger(t) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return fail(400, 'Signature de notification invalide.');
      }
      if (Math.abs(now().getTime() / 1000 - t) > SIGNATURE_TOLERANCE_S) return fail(400, 'Notification trop ancienne : signature expirée.');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return fail(400, 'Notification illisible.');
      }
      const parsed = envelope.safeParse(json);
      if (!parsed.success) return fail(400, 'Notification d’un type inconnu ou incomplète.');
      return { ok: true, events: [{ id: parsed.data.id, ...parsed.data.data } as PaymentEvent] };
    },

    jobs: (deliver) => [
      handle(SIMULATED_WEBHOOK, async ({ payload }) => {
        const headers = new Headers({ 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signSimulated(key(), payload.body, now()) });
        const answer = await deliver(new TextEncoder().encode(payload.body), headers);
        // A refusal is retried like a real provider would, and shows in the jobs table.
        if (!answer.ok) throw new Error(`webhook refused: ${answer.status} ${answer.message}`);
      }),
    ],

    sign: (body, at = now()) => signSimulated(key(), body, at),
  };

  /** Schedules the notifications of `events`, in this order, in the caller's transaction. */
  async function notify(trx: Kysely<Database>, events: WireData[], delivery: Delivery = PROMPT_DELIVERY, spacingMs: number[] = []): Promise<void> {
    const ordered = events.map((data, i) => ({ data, offset: spacingMs[i] ?? 0 }));
    const timed = delivery.reversed ? ordered.map((e, i) => ({ data: e.data, offset: ordered[ordered.length - 1 - i]?.offset ?? 0 })).reverse() : ordered;
    for (const { data, offset } of timed) {
      const body = JSON.stringify({ id: `evt_sim_${newId()}`, created: toTimestamp(now()), data });
      const first = new Date(now().getTime() + delivery.lateMs + offset);
      await schedule(deps, trx, SIMULATED_WEBHOOK, { body }, { runAt: first });
      if (delivery.twice) await schedule(deps, trx, SIMULATED_WEBHOOK, { body }, { runAt: new Date(first.getTime() + DUPLICATE_GAP_MS) });
    }
  }

  async function notifySepa(
    trx: Kysely<Database>,
    orderId: string,
    paymentRef: string,
    label: string,
    behaviour: 'sepa-succeed' | 'sepa-fail',
    delivery: Delivery,
  ): Promise<void> {
    const outcome: WireData =
      behaviour === 'sepa-succeed'
        ? { type: 'payment.succeeded', orderId, paymentRef, methodLabel: label }
        : { type: 'payment.failed', orderId, reason: 'Votre banque a rejeté le prélèvement SEPA.' };
    // "Reversed" delivers the outcome first; the pending notice then arrives after it.
    await notify(trx, [{ type: 'payment.processing', orderId, methodLabel: label }, outcome], delivery, [0, options.sepaDelayMs]);
  }

  simulatedInternals.set(provider, { deps, notify, notifySepa });
  return provider;
}

// ---------------------------------------------------------------------------------------------
// The simulated payment page

interface Internals {
  deps: SimulatedDeps;
  notify: (trx: Kysely<Database>, events: WireData[], delivery?: Delivery) => Promise<void>;
  notifySepa: (
    trx: Kysely<Database>,
    orderId: string,
    paymentRef: string,
    label: string,
    behaviour: 'sepa-succeed' | 'sepa-fail',
    delivery: Delivery,
  ) => Promise<void>;
}
const simulatedInternals = new WeakMap<SimulatedProvider, Internals>();

export interface SimulatedSessionView {
  id: string;
  kind: 'payment' | 'setup';
  description: string;
  amountCents: number;
  interval: BillingInterval | null;
  method: PaymentMethodKind;
  status: 'open' | 'challenge' | 'complete' | 'failed' | 'expired';
  returnUrl: string;
}

export async function simulatedSession(provider: SimulatedProvider, id: string): Promise<SimulatedSessionView | undefined> {
  const { deps } = internals(provider);
  const row = await deps.db.selectFrom('simulated_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    description: row.description,
    amountCents: row.amount_cents,
    interval: row.interval,
    method: row.method,
    status: row.status,
    returnUrl: row.return_url,
  };
}

export type SimulatedSubmission =
  { action: 'pay'; number: string; delivery: Delivery } | { action: 'challenge'; pass: boolean; delivery: Delivery } | { action: 'cancel' };

/**
 * What the tester did on the page. Answers where to send the browser: back to the site
 * (`returnUrl`), or the same page again for the 3-D Secure step. An unknown number changes
 * nothing and says which numbers work.
 */
export async function submitSimulatedSession(provider: SimulatedProvider, id: string, submission: SimulatedSubmission): Promise<Result<{ redirect: string }>> {
  const { deps, notify, notifySepa } = internals(provider);
  const session = await simulatedSession(provider, id);
  if (!session) return fail(404, 'Cette session de paiement n’existe pas.');
  if (session.status === 'complete' || session.status === 'failed' || session.status === 'expired') return { ok: true, redirect: session.returnUrl };
  const at = toTimestamp(deps.clock.now());

  if (submission.action === 'cancel') return { ok: true, redirect: session.returnUrl };

  if (submission.action === 'challenge') {
    if (session.status !== 'challenge') return fail(409, 'Aucune authentification n’est en attente pour ce paiement.');
    const customer = await deps.db
      .selectFrom('simulated_customers')
      .selectAll()
      .where('id', '=', (await sessionRow(deps.db, id)).customer_ref)
      .executeTakeFirstOrThrow();
    await writeTransaction(deps.db, async (trx) => {
      const moved = await trx
        .updateTable('simulated_sessions')
        .set({ status: submission.pass ? 'complete' : 'failed', updated_at: at })
        .where('id', '=', id)
        .where('status', '=', 'challenge')
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) return;
      if (!submission.pass) {
        if (session.kind === 'payment')
          await notify(
            trx,
            [{ type: 'payment.failed', orderId: (await sessionRow(trx, id)).order_id ?? '', reason: 'L’authentification 3-D Secure a échoué.' }],
            submission.delivery,
          );
        return;
      }
      await settle(trx, session, customer.id, customer.method_label, submission.delivery);
    });
    deps.jobs.wake();
    return { ok: true, redirect: submission.pass || session.kind === 'payment' ? session.returnUrl : `/paiement-simule/${id}` };
  }

  const method = findTestMethod(session.method, submission.number);
  if (!method) {
    return fail(
      422,
      session.method === 'card'
        ? 'Ce numéro n’est pas une carte de test : utilisez par exemple 4242 4242 4242 4242 (voir le tableau).'
        : 'Cet IBAN n’est pas un IBAN de test : utilisez par exemple FR14 2004 1010 0505 0001 3M02 606 (voir le tableau).',
    );
  }
  // Changing the saved method: a refused card leaves the page open for another one.
  if (method.behaviour === 'decline' && session.kind === 'setup') return fail(422, method.declineReason ?? 'Carte refusée.');
  const row = await sessionRow(deps.db, id);
  await writeTransaction(deps.db, async (trx) => {
    // One submission wins: a second click finds the session no longer open and does nothing.
    const next = method.behaviour === 'challenge' ? 'challenge' : method.behaviour === 'decline' ? 'failed' : 'complete';
    const moved = await trx
      .updateTable('simulated_sessions')
      .set({ status: next, updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return;
    if (method.behaviour === 'decline') {
      if (session.kind === 'payment')
        await notify(trx, [{ type: 'payment.failed', orderId: row.order_id ?? '', reason: method.declineReason ?? 'Paiement refusé.' }], submission.delivery);
      return;
    }
    // The method is saved on the customer as soon as it is authorised, for the next periods.
    await trx
      .updateTable('simulated_customers')
      .set({ method_label: methodLabel(method), method_behaviour: method.behaviour })
      .where('id', '=', row.customer_ref)
      .execute();
    if (method.behaviour === 'challenge') return;
    await settle(trx, session, row.customer_ref, methodLabel(method), submission.delivery, method);
  });
  deps.jobs.wake();
  if (method.behaviour === 'challenge') return { ok: true, redirect: `/paiement-simule/${id}` };
  return { ok: true, redirect: session.returnUrl };

  async function settle(
    trx: Kysely<Database>,
    view: SimulatedSessionView,
    customerRef: string,
    label: string,
    delivery: Delivery,
    typed?: TestMethod,
  ): Promise<void> {
    const current = await sessionRow(trx, view.id);
    if (view.kind === 'setup') {
      await notify(trx, [{ type: 'payment_method.updated', customerRef, methodLabel: label, changeRef: view.id, method: 'card' }], delivery);
      return;
    }
    const orderId = current.order_id ?? '';
    const chargeId = `ch_sim_${newId()}`;
    await trx
      .insertInto('simulated_charges')
      .values({
        id: chargeId,
        idempotency_key: `session:${view.id}`,
        customer_ref: customerRef,
        order_id: orderId,
        amount_cents: view.amountCents,
        status: 'succeeded',
        created_at: at,
      })
      .execute();
    const behaviour = typed?.behaviour;
    if (behaviour === 'sepa-succeed' || behaviour === 'sepa-fail') await notifySepa(trx, orderId, chargeId, label, behaviour, delivery);
    else await notify(trx, [{ type: 'payment.succeeded', orderId, paymentRef: chargeId, methodLabel: label, amountCents: view.amountCents }], delivery);
  }
}

function sessionRow(db: Kysely<Database>, id: string) {
  return db.selectFrom('simulated_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function internals(provider: SimulatedProvider): Internals {
  const found = simulatedInternals.get(provider);
  if (!found) throw new Error('Not a simulated provider created by createSimulatedProvider');
  return found;
}

export const isSimulated = (provider: PaymentProvider): provider is SimulatedProvider =>
  provider.name === 'simulated' && simulatedInternals.has(provider as SimulatedProvider);

/** Demo data only: saves a test method on a simulated customer, as if it had paid once. */
export async function saveSimulatedMethod(db: Kysely<Database>, customerRef: string, kind: PaymentMethodKind, number: string): Promise<string> {
  const method = findTestMethod(kind, number);
  if (!method) throw new Error(`Not a test number: ${number}`);
  await db
    .updateTable('simulated_customers')
    .set({ method_label: methodLabel(method), method_behaviour: method.behaviour })
    .where('id', '=', customerRef)
    .execute();
  return methodLabel(method);
}
