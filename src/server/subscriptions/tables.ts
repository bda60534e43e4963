/**
 * The subscriptions domain's tables (subscriptions and monthly donations, gift subscriptions included, with their events), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Flag, Immutable, Timestamp } from '../db/column-types';
import type { BillingInterval } from '../orders/tables';
import type { ProviderName } from '../payments/tables';

/** `plan`: an abonnement; `donation`: a don mensuel; `gift`: an abonnement offert (never renewed). */
export type SubscriptionKind = 'plan' | 'donation' | 'gift';

export type SubscriptionStatus = 'incomplete' | 'active' | 'past_due' | 'canceled' | 'expired';

export interface SubscriptionsTable {
  id: Immutable<string>;
  user_id: string | null;
  kind: Immutable<SubscriptionKind>;
  /** The plan (null for a monthly donation). */
  plan_id: string | null;
  amount_cents: number;
  interval: BillingInterval;
  vat_rate_bp: number;
  status: SubscriptionStatus;
  cancel_at_period_end: Generated<Flag>;
  current_period_start: Timestamp | null;
  current_period_end: Timestamp | null;
  /** A change asked for, applied at the next renewal. */
  next_plan_id: string | null;
  next_amount_cents: number | null;
  /** "Carte •••• 4242", "Prélèvement SEPA •••• 3000". */
  payment_method: Generated<string>;
  provider: Immutable<ProviderName>;
  /** The provider's subscription, when the provider runs the renewals (Stripe). */
  provider_ref: string | null;
  /** The référence unique de mandat (RUM) while it is paid by SEPA debit (subscriptions/sepa.ts); null for a card. Unique. */
  mandate_ref: string | null;
  /** The provider's reference of the last payment-method change applied (applied, and told, once). */
  payment_method_ref: string | null;
  source: Immutable<string | null>;
  /** Failed payments of the current period (past_due), reset when one succeeds. */
  failed_attempts: Generated<number>;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface SubscriptionEventsTable {
  id: Immutable<string>;
  subscription_id: Immutable<string>;
  type: Immutable<string>;
  from_status: Immutable<SubscriptionStatus | null>;
  to_status: Immutable<SubscriptionStatus>;
  detail: Immutable<string>;
  at: Immutable<Timestamp>;
}

export interface SubscriptionTables {
  subscriptions: SubscriptionsTable;
  subscription_events: SubscriptionEventsTable;
}
