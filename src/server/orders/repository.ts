/** Queries of the orders domain; each takes the database (or a transaction) first. */
import type { Kysely } from 'kysely';
import { newOrderReference } from './references';
import {
  type BillingInterval,
  type Database,
  newId,
  type OrderPurpose,
  type OrderReason,
  type OrderRow,
  type OrderStatus,
  type PaymentMethodKind,
  type ProviderName,
  toTimestamp,
} from '../db/database';

export interface BillingAddress {
  line1: string;
  line2: string;
  postalCode: string;
  city: string;
  country: string;
  /** A business buyer: its name and SIREN, printed on the invoice (Code de commerce L441-9). */
  company?: string;
  siren?: string;
}

export interface Order {
  id: string;
  /** The short reference a person reads (`XXXXX-XXXXX`, see references.ts); never the id. */
  reference: string;
  userId: string | null;
  purpose: OrderPurpose;
  reason: OrderReason;
  offerId: string;
  description: string;
  interval: BillingInterval | null;
  quantity: number;
  amountCents: number;
  vatRateBp: number;
  vatCents: number;
  source: string | null;
  status: OrderStatus;
  method: PaymentMethodKind | null;
  provider: ProviderName;
  checkoutRef: string | null;
  paymentRef: string | null;
  subscriptionId: string | null;
  billingName: string;
  billingAddress: BillingAddress | null;
  termsAcceptedAt: Date | null;
  immediateStartAt: Date | null;
  periodStart: Date | null;
  periodEnd: Date | null;
  failureReason: string | null;
  submittedAt: Date | null;
  paidAt: Date | null;
  createdAt: Date;
}

export interface OrderEvent {
  from: OrderStatus | null;
  to: OrderStatus;
  cause: string;
  at: Date;
}

const date = (value: string | null): Date | null => (value ? new Date(value) : null);

function parseAddress(text: string): BillingAddress | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as BillingAddress;
  } catch {
    return null;
  }
}

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    reference: row.reference,
    userId: row.user_id,
    purpose: row.purpose,
    reason: row.reason,
    offerId: row.offer_id,
    description: row.description,
    interval: row.interval,
    quantity: row.quantity,
    amountCents: row.amount_cents,
    vatRateBp: row.vat_rate_bp,
    vatCents: row.vat_cents,
    source: row.source,
    status: row.status,
    method: row.method,
    provider: row.provider,
    checkoutRef: row.checkout_ref,
    paymentRef: row.payment_ref,
    subscriptionId: row.subscription_id,
    billingName: row.billing_name,
    billingAddress: parseAddress(row.billing_address),
    termsAcceptedAt: date(row.terms_accepted_at),
    immediateStartAt: date(row.immediate_start_at),
    periodStart: date(row.period_start),
    periodEnd: date(row.period_end),
    failureReason: row.failure_reason,
    submittedAt: date(row.submitted_at),
    paidAt: date(row.paid_at),
    createdAt: new Date(row.created_at),
  };
}

export interface NewOrder {
  userId: string;
  purpose: OrderPurpose;
  reason: OrderReason;
  offerId: string;
  description: string;
  interval: BillingInterval | null;
  quantity?: number;
  amountCents: number;
  vatRateBp: number;
  vatCents: number;
  source: string | null;
  method: PaymentMethodKind | null;
  provider: ProviderName;
  subscriptionId: string | null;
  attemptKey: string;
  billingName?: string;
  billingAddress?: BillingAddress | null;
  termsAcceptedAt?: Date | null;
  immediateStartAt?: Date | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
  status?: OrderStatus;
  paymentRef?: string | null;
  paidAt?: Date | null;
}

/**
 * Inserts the order unless one with the same attempt key exists (a form sent twice, a job run
 * twice, an invoice notified twice): either way returns the one order, and whether it is new.
 */
export async function insertOrder(db: Kysely<Database>, input: NewOrder, now: Date): Promise<{ order: Order; created: boolean }> {
  const at = toTimestamp(now);
  const inserted = await db
    .insertInto('orders')
    .values({
      id: newId(),
      reference: newOrderReference(),
      user_id: input.userId,
      purpose: input.purpose,
      reason: input.reason,
      offer_id: input.offerId,
      description: input.description,
      interval: input.interval,
      quantity: input.quantity ?? 1,
      amount_cents: input.amountCents,
      vat_rate_bp: input.vatRateBp,
      vat_cents: input.vatCents,
      currency: 'EUR',
      source: input.source,
      status: input.status ?? 'pending',
      method: input.method,
      provider: input.provider,
      checkout_ref: null,
      payment_ref: input.paymentRef ?? null,
      subscription_id: input.subscriptionId,
      attempt_key: input.attemptKey,
      billing_name: input.billingName ?? '',
      billing_address: input.billingAddress ? JSON.stringify(input.billingAddress) : '',
      terms_accepted_at: input.termsAcceptedAt ? toTimestamp(input.termsAcceptedAt) : null,
      immediate_start_at: input.immediateStartAt ? toTimestamp(input.immediateStartAt) : null,
      period_start: input.periodStart ? toTimestamp(input.periodStart) : null,
      period_end: input.periodEnd ? toTimestamp(input.periodEnd) : null,
      failure_reason: null,
      submitted_at: null,
      paid_at: input.paidAt ? toTimestamp(input.paidAt) : null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('attempt_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  const row = await db.selectFrom('orders').selectAll().where('attempt_key', '=', input.attemptKey).executeTakeFirstOrThrow();
  if (inserted) await insertOrderEvent(db, { orderId: row.id, from: null, to: row.status, cause: 'Commande créée', providerEventId: null }, now);
  return { order: toOrder(row), created: inserted !== undefined };
}

export async function insertOrderEvent(
  db: Kysely<Database>,
  e: { orderId: string; from: OrderStatus | null; to: OrderStatus; cause: string; providerEventId: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('order_events')
    .values({
      id: newId(),
      order_id: e.orderId,
      from_status: e.from,
      to_status: e.to,
      cause: e.cause,
      provider_event_id: e.providerEventId,
      at: toTimestamp(now),
    })
    .execute();
}

/** How a refund asked of the provider starts in the order's history (and how a second one is recognised). */
export const REFUND_REQUESTED = 'Remboursement demandé';

/** The idempotency key of an order's full refund at the provider: one for every path that refunds an order in full. */
export const orderRefundKey = (orderId: string): string => `refund:${orderId}`;

/**
 * Adds a line to an order's history without moving it (from = to = its status at that moment): a
 * refund asked of the provider, whose outcome comes later as an event — or has already come, the
 * provider being quick: the note is then written in the new status, so that who asked and why is
 * never lost. Not written when a line of the history already starts with `oncePer` (a double
 * click). The check runs after a no-op conditional update of the order, which on PostgreSQL holds
 * the row until the transaction ends: two notes asked at once are written one after the other,
 * and the second sees the first (SQLite serialises write transactions anyway). Run it in a write
 * transaction.
 */
export async function insertOrderNote(
  db: Kysely<Database>,
  note: { orderId: string; cause: string; oncePer?: string },
  now: Date,
): Promise<'noted' | 'already' | 'unknown'> {
  // Read, then hold in that status; an event landing between the two makes the hold miss: read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await db.selectFrom('orders').select('status').where('id', '=', note.orderId).executeTakeFirst();
    if (!current) return 'unknown';
    const held = await db
      .updateTable('orders')
      .set({ updated_at: toTimestamp(now) })
      .where('id', '=', note.orderId)
      .where('status', '=', current.status)
      .executeTakeFirst();
    if (held.numUpdatedRows === 0n) continue;
    if (note.oncePer) {
      const prefix = note.oncePer;
      const causes = await db.selectFrom('order_events').select('cause').where('order_id', '=', note.orderId).execute();
      if (causes.some((row) => row.cause.startsWith(prefix))) return 'already';
    }
    await insertOrderEvent(db, { orderId: note.orderId, from: current.status, to: current.status, cause: note.cause, providerEventId: null }, now);
    return 'noted';
  }
  throw new Error(`Order ${note.orderId} kept moving while a note was being added.`);
}

export async function findOrder(db: Kysely<Database>, orderId: string): Promise<Order | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

/** The order if it belongs to this user; another user's id reads as unknown. */
export async function findUserOrder(db: Kysely<Database>, userId: string, orderId: string): Promise<Order | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', orderId).where('user_id', '=', userId).executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

export async function findOrderByPaymentRef(db: Kysely<Database>, paymentRef: string): Promise<Order | undefined> {
  const row = await db.selectFrom('orders').selectAll().where('payment_ref', '=', paymentRef).executeTakeFirst();
  return row ? toOrder(row) : undefined;
}

export async function listSubscriptionOrders(db: Kysely<Database>, subscriptionId: string): Promise<Order[]> {
  const rows = await db.selectFrom('orders').selectAll().where('subscription_id', '=', subscriptionId).orderBy('created_at', 'desc').execute();
  return rows.map(toOrder);
}

export async function orderEvents(db: Kysely<Database>, orderId: string): Promise<OrderEvent[]> {
  const rows = await db.selectFrom('order_events').selectAll().where('order_id', '=', orderId).orderBy('at').orderBy('id').execute();
  return rows.map((r) => ({ from: r.from_status, to: r.to_status, cause: r.cause, at: new Date(r.at) }));
}

export async function setCheckoutRef(db: Kysely<Database>, orderId: string, checkoutRef: string, now: Date): Promise<void> {
  await db
    .updateTable('orders')
    .set({ checkout_ref: checkoutRef, updated_at: toTimestamp(now) })
    .where('id', '=', orderId)
    .where('checkout_ref', 'is', null)
    .execute();
}

export async function customerRef(db: Kysely<Database>, userId: string, provider: ProviderName): Promise<string | undefined> {
  const row = await db.selectFrom('payment_customers').select('customer_ref').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
  return row?.customer_ref;
}

export async function saveCustomerRef(db: Kysely<Database>, userId: string, provider: ProviderName, ref: string, now: Date): Promise<void> {
  await db
    .insertInto('payment_customers')
    .values({ user_id: userId, provider, customer_ref: ref, created_at: toTimestamp(now) })
    .onConflict((oc) => oc.columns(['user_id', 'provider']).doNothing())
    .execute();
}
