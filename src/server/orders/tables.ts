/**
 * The orders domain's tables (orders and their append-only events), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Immutable, Timestamp } from '../db/column-types';
import type { PaymentMethodKind, ProviderName } from '../payments/tables';

export type BillingInterval = 'month' | 'year';

/** What an order pays for. Gifts (`gift`) and shares (`shares`) plug in with their own purpose. */
export type OrderPurpose = 'subscription' | 'donation' | 'gift' | 'shares';

/** `initial`: bought on the support path; `renewal`: one period of a running subscription. */
export type OrderReason = 'initial' | 'renewal';

export type OrderStatus = 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded';

export interface OrdersTable {
  id: Immutable<string>;
  /** What a person reads and types (`orders/references.ts`), unique; the id stays the key and the link. */
  reference: Immutable<string>;
  /** Null once the account is deleted: the order stays, as an accounting record, with its billing name. */
  user_id: string | null;
  purpose: Immutable<OrderPurpose>;
  reason: Immutable<OrderReason>;
  /** Plan id, gift offer id, 'don' or 'parts': what the catalogue priced. */
  offer_id: Immutable<string>;
  /** The line as the reader saw it ("Abonnement Mensuel", "Don mensuel"). */
  description: Immutable<string>;
  interval: Immutable<BillingInterval | null>;
  quantity: Immutable<number>;
  /** All taxes included, from the catalogue (or the donor's amount, checked against its bounds). */
  amount_cents: Immutable<number>;
  vat_rate_bp: Immutable<number>;
  vat_cents: Immutable<number>;
  currency: Immutable<'EUR'>;
  source: Immutable<string | null>;
  status: OrderStatus;
  method: PaymentMethodKind | null;
  provider: Immutable<ProviderName>;
  /** The provider's checkout (session) of this order, once asked for. */
  checkout_ref: string | null;
  /** The provider's payment (for a refund), once paid. */
  payment_ref: string | null;
  subscription_id: Immutable<string | null>;
  /** Unique: the same form sent twice, or the same provider invoice, makes one order. */
  attempt_key: Immutable<string>;
  billing_name: Immutable<string>;
  /** JSON of the postal address given at payment. */
  billing_address: Immutable<string>;
  terms_accepted_at: Immutable<Timestamp | null>;
  /** The reader asked to start at once and acknowledged losing the 14-day withdrawal right. */
  immediate_start_at: Immutable<Timestamp | null>;
  period_start: Timestamp | null;
  period_end: Timestamp | null;
  failure_reason: string | null;
  /** A SEPA debit handed to the bank: confirmed up to 14 business days later. */
  submitted_at: Timestamp | null;
  paid_at: Timestamp | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface OrderEventsTable {
  id: Immutable<string>;
  order_id: Immutable<string>;
  from_status: Immutable<OrderStatus | null>;
  /** The status after the event (the same as before for a note that changes nothing). */
  to_status: Immutable<OrderStatus>;
  cause: Immutable<string>;
  provider_event_id: Immutable<string | null>;
  at: Immutable<Timestamp>;
}

export interface OrderTables {
  orders: OrdersTable;
  order_events: OrderEventsTable;
}
