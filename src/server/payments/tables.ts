/**
 * The payments domain's tables (the provider’s customers, its verified events, and the simulated provider’s records), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Immutable, Timestamp } from '../db/column-types';
import type { BillingInterval } from '../orders/tables';

// ---------------------------------------------------------------------------------------------
// Reader revenue (src/server/orders, subscriptions, payments)

export type ProviderName = 'simulated' | 'stripe';

export type PaymentMethodKind = 'card' | 'sepa_debit';

export interface PaymentCustomersTable {
  user_id: Immutable<string>;
  provider: Immutable<ProviderName>;
  customer_ref: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface ProviderEventsTable {
  provider: Immutable<ProviderName>;
  event_id: Immutable<string>;
  type: Immutable<string>;
  received_at: Immutable<Timestamp>;
}

export interface SimulatedSessionsTable {
  id: Immutable<string>;
  idempotency_key: Immutable<string>;
  kind: Immutable<'payment' | 'setup'>;
  order_id: Immutable<string | null>;
  customer_ref: Immutable<string>;
  amount_cents: Immutable<number>;
  description: Immutable<string>;
  interval: Immutable<BillingInterval | null>;
  method: Immutable<PaymentMethodKind>;
  return_url: Immutable<string>;
  status: 'open' | 'challenge' | 'complete' | 'failed' | 'expired';
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface SimulatedCustomersTable {
  id: Immutable<string>;
  idempotency_key: Immutable<string>;
  email: Immutable<string>;
  method_label: Generated<string>;
  /** How the saved test method behaves on later charges (see payments/simulated-methods.ts). */
  method_behaviour: Generated<string>;
  created_at: Immutable<Timestamp>;
}

export interface SimulatedChargesTable {
  id: Immutable<string>;
  idempotency_key: Immutable<string>;
  customer_ref: Immutable<string>;
  order_id: Immutable<string>;
  amount_cents: Immutable<number>;
  refunded_cents: Generated<number>;
  status: string;
  created_at: Immutable<Timestamp>;
}

export interface PaymentTables {
  payment_customers: PaymentCustomersTable;
  provider_events: ProviderEventsTable;
  simulated_sessions: SimulatedSessionsTable;
  simulated_customers: SimulatedCustomersTable;
  simulated_charges: SimulatedChargesTable;
}
