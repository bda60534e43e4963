/**
 * Reader revenue: orders and their history, subscriptions (plans and monthly donations) and
 * their history, the provider events already applied, the provider's customer of each user, and
 * the simulated provider's own tables (what a real provider would keep on its side).
 *
 * Portable like every migration: text ids and ISO-UTC text times written by the application,
 * integer cents, no CHECK on statuses (a new value would need a table rebuild on SQLite). The
 * histories (`order_events`, `subscription_events`) are only ever inserted into.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_customers')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('customer_ref', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_customers_pk', ['user_id', 'provider'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('plan_id', 'text')
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('current_period_start', 'text')
    .addColumn('current_period_end', 'text')
    .addColumn('next_plan_id', 'text')
    .addColumn('next_amount_cents', 'integer')
    .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text', (c) => c.unique())
    .addColumn('source', 'text')
    .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').column('user_id').execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('offer_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('interval', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('vat_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('checkout_ref', 'text')
    .addColumn('payment_ref', 'text')
    .addColumn('subscription_id', 'text')
    .addColumn('attempt_key', 'text', (c) => c.notNull().unique())
    .addColumn('billing_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('billing_address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('terms_accepted_at', 'text')
    .addColumn('immediate_start_at', 'text')
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('submitted_at', 'text')
    .addColumn('paid_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_user_idx').on('orders').column('user_id').execute();
  await db.schema.createIndex('orders_subscription_idx').on('orders').column('subscription_id').execute();
  await db.schema.createIndex('orders_status_paid_at_idx').on('orders').columns(['status', 'paid_at']).execute();
  await db.schema.createIndex('orders_payment_ref_idx').on('orders').column('payment_ref').execute();

  await db.schema
    .createTable('order_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('provider_event_id', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_events_order_idx').on('order_events').columns(['order_id', 'at']).execute();

  await db.schema
    .createTable('subscription_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscription_events_sub_idx').on('subscription_events').columns(['subscription_id', 'at']).execute();

  await db.schema
    .createTable('provider_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_events_pk', ['provider', 'event_id'])
    .execute();

  // The simulated provider's side: its checkouts, customers (with the saved test method) and charges.
  await db.schema
    .createTable('simulated_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('customer_ref', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('interval', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('simulated_customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('method_label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('method_behaviour', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('simulated_charges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('customer_ref', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'simulated_charges',
    'simulated_customers',
    'simulated_sessions',
    'provider_events',
    'subscription_events',
    'order_events',
    'orders',
    'subscriptions',
    'payment_customers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
