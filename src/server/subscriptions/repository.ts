/** Queries of the subscriptions domain; each takes the database (or a transaction) first. */
import type { Kysely, Updateable } from 'kysely';
import {
  type BillingInterval,
  type Database,
  newId,
  type ProviderName,
  type SubscriptionKind,
  type SubscriptionRow,
  type SubscriptionStatus,
  type SubscriptionsTable,
  fromFlag,
  toFlag,
  toTimestamp,
} from '../db/database';
import { compiledQuery } from '../db/compiled';

export interface Subscription {
  id: string;
  userId: string | null;
  kind: SubscriptionKind;
  planId: string | null;
  amountCents: number;
  interval: BillingInterval;
  vatRateBp: number;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  nextPlanId: string | null;
  nextAmountCents: number | null;
  paymentMethod: string;
  /** The provider's reference of the last method change applied. */
  paymentMethodRef: string | null;
  /** The SEPA mandate's reference (RUM), while it is paid by SEPA debit. */
  mandateRef: string | null;
  provider: ProviderName;
  providerRef: string | null;
  source: string | null;
  failedAttempts: number;
  createdAt: Date;
  endedAt: Date | null;
}

export interface SubscriptionEvent {
  type: string;
  from: SubscriptionStatus | null;
  to: SubscriptionStatus;
  detail: string;
  at: Date;
}

const date = (value: string | null): Date | null => (value ? new Date(value) : null);

export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    userId: row.user_id,
    kind: row.kind,
    planId: row.plan_id,
    amountCents: row.amount_cents,
    interval: row.interval,
    vatRateBp: row.vat_rate_bp,
    status: row.status,
    cancelAtPeriodEnd: fromFlag(row.cancel_at_period_end),
    currentPeriodStart: date(row.current_period_start),
    currentPeriodEnd: date(row.current_period_end),
    nextPlanId: row.next_plan_id,
    nextAmountCents: row.next_amount_cents,
    paymentMethod: row.payment_method,
    paymentMethodRef: row.payment_method_ref,
    mandateRef: row.mandate_ref,
    provider: row.provider,
    providerRef: row.provider_ref,
    source: row.source,
    failedAttempts: row.failed_attempts,
    createdAt: new Date(row.created_at),
    endedAt: date(row.ended_at),
  };
}

export async function insertSubscription(
  db: Kysely<Database>,
  input: {
    userId: string;
    kind: SubscriptionKind;
    planId: string | null;
    amountCents: number;
    interval: BillingInterval;
    vatRateBp: number;
    provider: ProviderName;
    source: string | null;
    status?: SubscriptionStatus;
  },
  now: Date,
): Promise<string> {
  const id = newId();
  const at = toTimestamp(now);
  const status = input.status ?? 'incomplete';
  await db
    .insertInto('subscriptions')
    .values({
      id,
      user_id: input.userId,
      kind: input.kind,
      plan_id: input.planId,
      amount_cents: input.amountCents,
      interval: input.interval,
      vat_rate_bp: input.vatRateBp,
      status,
      current_period_start: null,
      current_period_end: null,
      next_plan_id: null,
      next_amount_cents: null,
      provider: input.provider,
      provider_ref: null,
      source: input.source,
      created_at: at,
      updated_at: at,
      ended_at: null,
    })
    .execute();
  await insertSubscriptionEvent(db, { subscriptionId: id, type: 'created', from: null, to: status, detail: '' }, now);
  return id;
}

export async function insertSubscriptionEvent(
  db: Kysely<Database>,
  e: { subscriptionId: string; type: string; from: SubscriptionStatus | null; to: SubscriptionStatus; detail: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('subscription_events')
    .values({ id: newId(), subscription_id: e.subscriptionId, type: e.type, from_status: e.from, to_status: e.to, detail: e.detail, at: toTimestamp(now) })
    .execute();
}

export async function findSubscription(db: Kysely<Database>, id: string): Promise<Subscription | undefined> {
  const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

/** The subscription if it belongs to this user; another user's id reads as unknown. */
export async function findUserSubscription(db: Kysely<Database>, userId: string, id: string): Promise<Subscription | undefined> {
  const row = await db.selectFrom('subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

export async function findByProviderRef(db: Kysely<Database>, provider: ProviderName, ref: string): Promise<Subscription | undefined> {
  const row = await db.selectFrom('subscriptions').selectAll().where('provider', '=', provider).where('provider_ref', '=', ref).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

/**
 * Subscriptions that were ever started (an `incomplete` one never paid is not shown to its owner).
 * Compiled once: the reader's pages ask on every request. Sorted by the caller rather than by
 * SQLite, which took 19 µs to read a member's three rows in order and 5.5 µs unordered
 * (docs/performance.md, goal 4).
 */
const userSubscriptionsQuery = compiledQuery((db: Kysely<Database>, userId: string) =>
  db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('status', '!=', 'incomplete'),
);

/** A member's subscriptions, newest first (incomplete checkouts left out). */
export async function listUserSubscriptions(db: Kysely<Database>, userId: string): Promise<Subscription[]> {
  const rows = await userSubscriptionsQuery(db, userId);
  // Timestamps are ISO strings of one length: their order is the order of the dates.
  rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  return rows.map(toSubscription);
}

/** How many events a subscription has had: its version, for the provider's idempotency keys. */
export async function countSubscriptionEvents(db: Kysely<Database>, id: string): Promise<number> {
  const row = await db
    .selectFrom('subscription_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subscription_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function subscriptionEvents(db: Kysely<Database>, id: string): Promise<SubscriptionEvent[]> {
  const rows = await db.selectFrom('subscription_events').selectAll().where('subscription_id', '=', id).orderBy('at').orderBy('id').execute();
  return rows.map((r) => ({ type: r.type, from: r.from_status, to: r.to_status, detail: r.detail, at: new Date(r.at) }));
}

/**
 * Changes a subscription only if it is still in the status the caller read (a conditional
 * update: two events racing cannot both apply), and records the event. False when it had moved.
 */
export async function updateSubscriptionIf(
  db: Kysely<Database>,
  current: Subscription,
  change: { set: Updateable<SubscriptionsTable>; type: string; detail?: string },
  now: Date,
): Promise<boolean> {
  const to = (change.set.status as SubscriptionStatus | undefined) ?? current.status;
  const moved = await db
    .updateTable('subscriptions')
    .set({ ...change.set, updated_at: toTimestamp(now) })
    .where('id', '=', current.id)
    .where('status', '=', current.status)
    .where('cancel_at_period_end', '=', toFlag(current.cancelAtPeriodEnd))
    .where('current_period_end', current.currentPeriodEnd ? '=' : 'is', current.currentPeriodEnd ? toTimestamp(current.currentPeriodEnd) : null)
    .executeTakeFirst();
  if (moved.numUpdatedRows === 0n) return false;
  await insertSubscriptionEvent(db, { subscriptionId: current.id, type: change.type, from: current.status, to, detail: change.detail ?? '' }, now);
  return true;
}

/**
 * The paid subscription a gift's months go after (gifts/service.ts): an active plan whose period
 * runs, the one that renews first if there are several (a plan whose cancellation was asked
 * counts too: its paid period is still running, and the gift's months follow it instead of
 * overlapping it).
 */
export async function livePaidPlan(db: Kysely<Database>, userId: string, now: Date): Promise<Subscription | undefined> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'plan')
    .where('status', '=', 'active')
    .where('current_period_end', '>', toTimestamp(now))
    .orderBy('cancel_at_period_end', 'asc')
    .orderBy('current_period_end', 'asc')
    .execute();
  for (const row of rows) {
    const sub = await findSubscription(db, row.id);
    if (sub?.currentPeriodEnd) return sub;
  }
  return undefined;
}

/** The account's running gift subscription (`kind` gift), which a new gift extends. */
export async function liveGiftSubscription(db: Kysely<Database>, userId: string): Promise<Subscription | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'gift')
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row ? findSubscription(db, row.id) : undefined;
}

/** A gift subscription just inserted gets its one period and its label (« Abonnement offert »). */
export async function setGiftPeriod(db: Kysely<Database>, id: string, start: Date, end: Date): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ current_period_start: toTimestamp(start), current_period_end: toTimestamp(end), payment_method: 'Abonnement offert' })
    .where('id', '=', id)
    .execute();
}
