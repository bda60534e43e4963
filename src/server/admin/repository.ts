/**
 * The back-office's read-only queries: search by e-mail across orders, subscriptions and their
 * histories, and the sums of the revenue report. The back-office reads these tables for its
 * lists (one query with a join rather than one per person); it never writes them: every change
 * goes through the domain that owns the table (see service.ts).
 *
 * Portable SQL only: `like … escape`, `substr`, `count`, `sum`, `group by` behave the same on
 * SQLite and PostgreSQL. PostgreSQL answers `count` and `sum` as strings (bigint, numeric):
 * they are read through `Number`.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, OrderStatus } from '../db/database';
import { type Order, type OrderEvent, toOrder } from '../orders/public';
import { type Subscription, type SubscriptionEvent, toSubscription } from '../subscriptions/public';

/** Whom an order or a subscription belongs to, as the back-office shows it. */
export interface Person {
  id: string;
  email: string;
  name: string;
}

/** `%` and `_` typed in a search are letters, not wildcards. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/** Addresses are stored lower-cased: a lower-cased prefix finds them whatever the case typed. */
const emailStartsWith = (prefix: string) => sql<boolean>`users.email like ${`${escapeLike(prefix.toLowerCase())}%`} escape '\\'`;

const personOf = (row: { user_id: string | null; user_email: string | null; user_given_name: string | null; user_family_name: string | null }): Person => ({
  id: row.user_id ?? '',
  email: row.user_email ?? '',
  name: [row.user_given_name, row.user_family_name].filter(Boolean).join(' '),
});

/** One order and its owner (none once the account is deleted: the billing name stands in). */
export async function orderById(db: Kysely<Database>, orderId: string): Promise<{ order: Order; person: Person } | undefined> {
  const row = await db
    .selectFrom('orders')
    .leftJoin('users', 'users.id', 'orders.user_id')
    .selectAll('orders')
    .select(['users.email as user_email', 'users.given_name as user_given_name', 'users.family_name as user_family_name'])
    .where('orders.id', '=', orderId)
    .executeTakeFirst();
  if (!row) return undefined;
  const person = personOf(row);
  return { order: toOrder(row), person: person.name ? person : { ...person, name: row.billing_name } };
}

/** The order with this reference (as `parseOrderReference` answers it), if any. */
export async function orderByReference(db: Kysely<Database>, reference: string): Promise<{ order: Order; person: Person } | undefined> {
  const row = await db.selectFrom('orders').select('id').where('reference', '=', reference).executeTakeFirst();
  return row ? orderById(db, row.id) : undefined;
}

/** Orders of the people whose address starts with `prefix`, newest first. */
export async function ordersByEmail(db: Kysely<Database>, prefix: string, limit: number): Promise<{ order: Order; person: Person }[]> {
  const rows = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .selectAll('orders')
    .select(['users.email as user_email', 'users.given_name as user_given_name', 'users.family_name as user_family_name'])
    .where(emailStartsWith(prefix))
    .orderBy('orders.created_at', 'desc')
    .orderBy('orders.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ order: toOrder(row), person: personOf(row) }));
}

/** Subscriptions of the people whose address starts with `prefix`, newest first. */
export async function subscriptionsByEmail(db: Kysely<Database>, prefix: string, limit: number): Promise<{ subscription: Subscription; person: Person }[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .selectAll('subscriptions')
    .select(['users.email as user_email', 'users.given_name as user_given_name', 'users.family_name as user_family_name'])
    .where(emailStartsWith(prefix))
    .orderBy('subscriptions.created_at', 'desc')
    .orderBy('subscriptions.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ subscription: toSubscription(row), person: personOf(row) }));
}

/** The histories of these orders, oldest line first, by order. */
export async function orderHistories(db: Kysely<Database>, orderIds: string[]): Promise<Map<string, OrderEvent[]>> {
  const histories = new Map<string, OrderEvent[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return histories;
  const rows = await db.selectFrom('order_events').selectAll().where('order_id', 'in', orderIds).orderBy('at').orderBy('id').execute();
  for (const r of rows) histories.get(r.order_id)?.push({ from: r.from_status, to: r.to_status, cause: r.cause, at: new Date(r.at) });
  return histories;
}

/** The histories of these subscriptions, oldest line first, by subscription. */
export async function subscriptionHistories(db: Kysely<Database>, subscriptionIds: string[]): Promise<Map<string, SubscriptionEvent[]>> {
  const histories = new Map<string, SubscriptionEvent[]>(subscriptionIds.map((id) => [id, []]));
  if (subscriptionIds.length === 0) return histories;
  const rows = await db.selectFrom('subscription_events').selectAll().where('subscription_id', 'in', subscriptionIds).orderBy('at').orderBy('id').execute();
  for (const r of rows) histories.get(r.subscription_id)?.push({ type: r.type, from: r.from_status, to: r.to_status, detail: r.detail, at: new Date(r.at) });
  return histories;
}

export type Settled = Extract<OrderStatus, 'paid' | 'refunded'>;

export interface Sum {
  status: Settled;
  count: number;
  cents: number;
}

/**
 * Orders paid (and those refunded since), summed by UTC hour of payment (`2026-11-30T23`).
 * The hour is the finest grain the report needs: Paris is a whole number of hours from UTC and
 * changes offset on the hour, so every instant of a UTC hour falls in the same Paris month. The
 * months are made from these sums (service.ts) without reading each order.
 */
export async function settledByHour(db: Kysely<Database>): Promise<(Sum & { hour: string })[]> {
  // Literals, not parameters: PostgreSQL matches the grouped expression with the selected one.
  const hour = sql<string>`substr(paid_at, 1, 13)`;
  const rows = await db
    .selectFrom('orders')
    .select((eb) => [hour.as('hour'), 'status', eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('amount_cents').as('cents')])
    .where('status', 'in', ['paid', 'refunded'])
    .where('paid_at', 'is not', null)
    .groupBy([hour, 'status'])
    .execute();
  return rows.map((r) => ({ hour: r.hour, status: r.status as Settled, count: Number(r.n), cents: Number(r.cents) }));
}

/** Orders paid (and those refunded since), summed by campaign source (null: none). */
export async function settledBySource(db: Kysely<Database>): Promise<(Sum & { source: string | null })[]> {
  const rows = await db
    .selectFrom('orders')
    .select((eb) => ['source', 'status', eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('amount_cents').as('cents')])
    .where('status', 'in', ['paid', 'refunded'])
    .where('paid_at', 'is not', null)
    .groupBy(['source', 'status'])
    .execute();
  return rows.map((r) => ({ source: r.source, status: r.status as Settled, count: Number(r.n), cents: Number(r.cents) }));
}
