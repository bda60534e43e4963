/**
 * The database, declared once: every table as Kysely sees it, with its snake_case columns.
 * Repositories map these rows to their camelCase domain types; nothing else should.
 *
 * One code path for SQLite and PostgreSQL, hence three storage rules:
 * - timestamps are ISO-8601 UTC strings from `Date#toISOString()` (`2026-11-21T10:00:00.000Z`).
 *   That form has a fixed width, so comparing the text (`expires_at > :now`) compares the times;
 *   write them with `toTimestamp()` only, never with a hand-made string;
 * - booleans are integers 0/1 (`toFlag()` / `fromFlag()`);
 * - ids are text UUIDs (`newId()`), except where a hash of a secret is the key.
 *
 * Profile text fields that a person may not have given yet are stored as '' rather than null,
 * so that they read as strings everywhere.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { NewsletterStatus, NewsletterSubscribersTable, NewsletterTables } from '../newsletter/tables';
import type { ShareRefundTables } from '../shares/refund-tables';
import type { ContractWithdrawalTables } from '../contract-withdrawals/tables';

export type { NewsletterStatus, NewsletterSubscribersTable };

/** ISO-8601 UTC text, as written by `toTimestamp()`. */
export type Timestamp = string;
/** A boolean stored as an integer. */
export type Flag = 0 | 1;
/** A column set once at insertion and never updated. */
type Immutable<T> = ColumnType<T, T, never>;

/**
 * Staff roles only. Being a subscriber or a sociétaire is never stored as a role: it is derived
 * from subscriptions and from the share register, so that one person can be both.
 */
export type UserRole = 'reader' | 'editor' | 'admin';
export type TokenPurpose = 'magic_link' | 'password_reset' | 'email_change' | 'newsletter_confirm' | 'signup_confirm';

export interface UsersTable {
  id: Immutable<string>;
  /** Unique; stored lower-cased (a CHECK enforces it for ASCII letters). */
  email: string;
  /** Null for an account that has only ever signed in by magic link. */
  password_hash: string | null;
  given_name: Generated<string>;
  family_name: Generated<string>;
  address_line1: Generated<string>;
  address_line2: Generated<string>;
  postal_code: Generated<string>;
  city: Generated<string>;
  /** ISO 3166-1 alpha-2, 'FR' by default. */
  country: Generated<string>;
  role: Generated<UserRole>;
  // `newsletter` (0/1) still exists in the table but is neither read nor written: the newsletter
  // domain owns subscriptions (newsletter_subscribers). SQLite cannot drop a column under a
  // CHECK constraint without rebuilding the table, which is not worth it for a dead flag.
  email_verified_at: Timestamp | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** sha-256 hex of the session token; the token itself is never stored. */
  id_hash: Immutable<string>;
  user_id: Immutable<string>;
  /** 1: "Se souvenir de moi" (persistent cookie); 0: browser-session cookie. */
  persistent: Generated<Flag>;
  created_at: Immutable<Timestamp>;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  user_agent: string | null;
}

export interface TokensTable {
  /** sha-256 hex of the single-use token sent by e-mail. */
  id_hash: Immutable<string>;
  purpose: Immutable<TokenPurpose>;
  user_id: Immutable<string | null>;
  /** The address the token was sent to (the new one, for an e-mail change). */
  email: Immutable<string | null>;
  /** JSON text, read and validated by the domain that wrote it. */
  payload: Immutable<string | null>;
  created_at: Immutable<Timestamp>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RateLimitsTable {
  key: Immutable<string>;
  /** Start of the fixed window, as a timestamp. */
  window_start: Immutable<Timestamp>;
  count: number;
}

export interface ContactMessagesTable {
  id: Immutable<string>;
  name: Immutable<string>;
  email: Immutable<string>;
  subject: Immutable<string>;
  message: Immutable<string>;
  created_at: Immutable<Timestamp>;
  /** A keyed hash of the sender's IP address (to spot floods); never the address itself. */
  client_hash: Immutable<string | null>;
}

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: Immutable<string>;
  /** Which handler runs it (`JobDefinition.kind`). */
  kind: Immutable<string>;
  /** JSON text, validated by the handler's schema when the job runs. */
  payload: Immutable<string>;
  status: JobStatus;
  /** Due time ("échéance"): the job is not claimed before it. */
  run_at: Timestamp;
  /** Attempts started so far (incremented when a worker claims the job). */
  attempts: Generated<number>;
  max_attempts: Immutable<number>;
  timeout_ms: Immutable<number>;
  /** Worker holding the lease while running; null otherwise. */
  locked_by: string | null;
  /** End of the lease; past it, another worker may take the job again. */
  locked_until: Timestamp | null;
  /** Error name/code and a scrubbed message (no e-mail addresses, tokens or URLs). */
  last_error: string | null;
  /** Unique when set: enqueueing the same key again gives the same job. */
  unique_key: Immutable<string | null>;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

// ---------------------------------------------------------------------------------------------
// Reader revenue (src/server/orders, subscriptions, payments)

export type ProviderName = 'simulated' | 'stripe';
export type PaymentMethodKind = 'card' | 'sepa_debit';
export type BillingInterval = 'month' | 'year';
/** What an order pays for. Gifts (`gift`) and shares (`shares`) plug in with their own purpose. */
export type OrderPurpose = 'subscription' | 'donation' | 'gift' | 'shares';
/** `initial`: bought on the support path; `renewal`: one period of a running subscription. */
export type OrderReason = 'initial' | 'renewal';
export type OrderStatus = 'pending' | 'paid' | 'failed' | 'canceled' | 'refunded';
/** `plan`: an abonnement; `donation`: a don mensuel; `gift`: an abonnement offert (never renewed). */
export type SubscriptionKind = 'plan' | 'donation' | 'gift';
export type SubscriptionStatus = 'incomplete' | 'active' | 'past_due' | 'canceled' | 'expired';

export interface PaymentCustomersTable {
  user_id: Immutable<string>;
  provider: Immutable<ProviderName>;
  customer_ref: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

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

// Billing (src/server/billing) and gifts (src/server/subscriptions/gifts)

/** `invoice` (facture), `credit_note` (avoir), `receipt` (reçu de don), `statement` (récapitulatif annuel des dons). */
export type DocumentKind = 'invoice' | 'credit_note' | 'receipt' | 'statement';

export interface DocumentCountersTable {
  series: Immutable<string>;
  last_number: number;
}

/** Append-only (a trigger refuses UPDATE and DELETE): every column is immutable. */
export interface BillingDocumentsTable {
  id: Immutable<string>;
  kind: Immutable<DocumentKind>;
  series: Immutable<string>;
  number: Immutable<number>;
  /** The number as printed: « F-000042 ». */
  label: Immutable<string>;
  subject_key: Immutable<string>;
  /** The account it belongs to (never shown to anyone else); stays after the account is deleted. */
  owner_id: Immutable<string | null>;
  order_id: Immutable<string | null>;
  /** A credit note's invoice. */
  refers_to_id: Immutable<string | null>;
  /** Calendar year (Europe/Paris) of the issue, or of the donations a statement sums up. */
  year: Immutable<number>;
  issued_at: Immutable<Timestamp>;
  total_cents: Immutable<number>;
  vat_cents: Immutable<number>;
  currency: Immutable<'EUR'>;
  buyer_name: Immutable<string>;
  /** JSON of the document as printed (billing/content.ts). */
  content: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface BillingPdfsTable {
  document_id: Immutable<string>;
  bytes: Immutable<Uint8Array>;
  sha256: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export type GiftActivationMode = 'new' | 'after_paid';

export interface GiftsTable {
  id: Immutable<string>;
  order_id: Immutable<string>;
  /** Null once the buyer's account is deleted. */
  buyer_id: string | null;
  offer_id: Immutable<string>;
  months: Immutable<number>;
  recipient_name: string;
  recipient_email: string | null;
  message: string;
  deliver_on: string;
  deliver_at: Timestamp;
  code_hash: string | null;
  code_sealed: string | null;
  code_hint: string | null;
  issued_at: Timestamp | null;
  expires_at: Timestamp | null;
  delivered_at: Timestamp | null;
  sent_count: Generated<number>;
  last_sent_at: Timestamp | null;
  activated_at: Timestamp | null;
  activated_by: string | null;
  subscription_id: string | null;
  activation_mode: GiftActivationMode | null;
  revoked_at: Timestamp | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

// ---------------------------------------------------------------------------------------------
// The cooperative's shares (migration 2026-11-25-001-shares)

export type ShareBulletinStatus = 'awaiting_payment' | 'paid' | 'admitted' | 'refused' | 'renounced' | 'canceled';
export type SharePaymentMethod = 'card' | 'sepa' | 'transfer';
export type RegisterEntryKind = 'admission' | 'withdrawal' | 'repayment' | 'college' | 'identity' | 'correction';
export type ShareWithdrawalStatus = 'requested' | 'accepted' | 'refused' | 'repaid';

export interface ShareBulletinsTable {
  id: Immutable<string>;
  /** What a person reads and quotes, « B-2026-0042 »: gapless per Paris year of signature (shares/bulletins.ts), unique. */
  number: Immutable<string>;
  /** Null once the subscriber's account is deleted; the bulletin itself is kept. */
  user_id: string | null;
  order_id: Immutable<string | null>;
  college_id: Immutable<string>;
  shares: Immutable<number>;
  nominal_cents: Immutable<number>;
  amount_cents: Immutable<number>;
  /** JSON (shares/identity.ts). */
  identity: Immutable<string>;
  statutes_version: Immutable<string>;
  accepted_at: Immutable<Timestamp>;
  /** The account and client that accepted, as recorded on the bulletin. */
  accepted_from: Immutable<string>;
  fingerprint: Immutable<string>;
  payment_method: Immutable<SharePaymentMethod>;
  transfer_reference: Immutable<string | null>;
  status: ShareBulletinStatus;
  paid_at: Timestamp | null;
  /** For a transfer: the amount the treasurer saw arrive (differs from `amount_cents` only by an explicit override). */
  transfer_received_cents: number | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_note: string | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface ShareMembersTable {
  id: Immutable<string>;
  member_number: Immutable<number>;
  user_id: Immutable<string | null>;
  person: Immutable<'natural' | 'legal'>;
  name: Immutable<string>;
  identity: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface ShareRegisterTable {
  id: Immutable<string>;
  entry_number: Immutable<number>;
  member_id: Immutable<string>;
  kind: Immutable<RegisterEntryKind>;
  college_id: Immutable<string>;
  shares_delta: Immutable<number>;
  nominal_cents: Immutable<number>;
  repaid_cents: Immutable<number>;
  certificate_number: Immutable<number | null>;
  bulletin_id: Immutable<string | null>;
  withdrawal_id: Immutable<string | null>;
  effective_on: Immutable<string>;
  recorded_at: Immutable<Timestamp>;
  recorded_by: Immutable<string | null>;
  note: Immutable<string>;
}

export interface ShareWithdrawalsTable {
  id: Immutable<string>;
  member_id: Immutable<string>;
  user_id: string | null;
  shares: Immutable<number>;
  reason: Immutable<string>;
  requested_at: Immutable<Timestamp>;
  status: ShareWithdrawalStatus;
  effective_on: string | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_note: string | null;
  repaid_at: Timestamp | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

// ---------------------------------------------------------------------------------------------
// General assemblies (migration 2026-11-25-002-assemblies)

export type AssemblyStatus = 'draft' | 'notice_scheduled' | 'convened' | 'closed';
export type AssemblyCall = 'first' | 'second';
export type AttendanceMode = 'present' | 'remote' | 'absent';
export type BallotChoice = 'pour' | 'contre' | 'abstention';
export type ParticipationVia = 'direct' | 'proxy' | 'chair';

export interface AssembliesTable {
  id: Immutable<string>;
  kind: Immutable<'ordinary' | 'extraordinary'>;
  call: Immutable<AssemblyCall>;
  title: string;
  starts_at: Timestamp;
  place: string;
  online_url: string;
  /** JSON array of strings. */
  agenda: string;
  vote_opens_at: Timestamp;
  vote_closes_at: Timestamp;
  /** JSON (shares/assemblies.ts `AssemblyRules`), frozen at creation. */
  rules: Immutable<string>;
  status: AssemblyStatus;
  notice_at: Timestamp | null;
  notice_sent_at: Timestamp | null;
  roll_day: string | null;
  ballots_cast: Generated<number>;
  closed_at: Timestamp | null;
  /** JSON (shares/tally.ts `AssemblyResults`), once closed. */
  results: string | null;
  /** On second call: the first-call assembly that did not reach its quorum (at most one second call each). */
  first_call_id: Immutable<string | null>;
  created_by: Immutable<string | null>;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface AssemblyResolutionsTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  position: Immutable<number>;
  title: string;
  text: string;
  board_proposal: Generated<Flag>;
  created_at: Immutable<Timestamp>;
}

export interface AssemblyDocumentsTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  position: Immutable<number>;
  title: string;
  filename: string;
  content_type: string;
  bytes: Uint8Array | null;
  path: string | null;
  sha256: string | null;
  created_at: Immutable<Timestamp>;
}

/** Append-only. */
export interface AssemblyRollTable {
  assembly_id: Immutable<string>;
  member_id: Immutable<string>;
  member_number: Immutable<number>;
  name: Immutable<string>;
  college_id: Immutable<string>;
  shares: Immutable<number>;
}

export interface AssemblyAttendanceTable {
  assembly_id: Immutable<string>;
  member_id: Immutable<string>;
  mode: AttendanceMode;
  updated_at: Timestamp;
}

export interface AssemblyProxiesTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  grantor_id: Immutable<string>;
  /** Null: the chair. */
  holder_id: Immutable<string | null>;
  slot: Immutable<number | null>;
  given_at: Immutable<Timestamp>;
  revoked_at: Timestamp | null;
}

/** Append-only: who took part (liste d'émargement), never what they voted. */
export interface AssemblyParticipationTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  resolution_id: Immutable<string>;
  member_id: Immutable<string>;
  voted_at: Immutable<Timestamp>;
  via: Immutable<ParticipationVia>;
  proxy_holder_id: Immutable<string | null>;
}

/** Append-only: what was voted (l'urne), never by whom, never when. */
export interface AssemblyBallotsTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  resolution_id: Immutable<string>;
  college_id: Immutable<string>;
  choice: Immutable<BallotChoice>;
  receipt_hash: Immutable<string>;
}

/** Append-only. */
export interface AssemblyMinutesTable {
  assembly_id: Immutable<string>;
  bytes: Immutable<Uint8Array>;
  sha256: Immutable<string>;
  ballots_digest: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

/** Where a build comes from: the CMS's webhook, an editor's button, `npm run rebuild`, or a restart that resumed the queue. */
export type BuildTrigger = 'cms' | 'editor' | 'cli' | 'restart' | 'follow-up';
export type BuildStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** The build queue and its history: at most one `queued` and one `running` row (partial unique indexes). */
export interface SiteBuildsTable {
  id: Immutable<string>;
  status: BuildStatus;
  trigger: Immutable<BuildTrigger>;
  /** The editor who asked first (users.id); null for the CMS and the shell. */
  requested_by: Immutable<string | null>;
  /** Publications merged into this build while it waited. */
  requests: Generated<number>;
  queued_at: Immutable<Timestamp>;
  /** Not started before (the debounce). */
  not_before: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  /** `host:pid` of the process running it. */
  runner: string | null;
  heartbeat_at: Timestamp | null;
  pages: number | null;
  /** Short digest of the content the build was made from. */
  content_version: string | null;
  duration_ms: number | null;
  /** Why it failed, in French, for the editors. */
  error: string | null;
  /** The end of the build's output. */
  log: string | null;
}

/** Append-only: every change of the live build. */
export interface SiteSwitchesTable {
  id: Immutable<string>;
  build_id: Immutable<string>;
  kind: Immutable<'publish' | 'rollback'>;
  user_id: Immutable<string | null>;
  at: Immutable<Timestamp>;
}

/** Each domain that has moved its tables beside it (`<domain>/tables.ts`) is composed here. */
export interface Database extends NewsletterTables, ShareRefundTables, ContractWithdrawalTables {
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  rate_limits: RateLimitsTable;
  contact_messages: ContactMessagesTable;
  jobs: JobsTable;
  payment_customers: PaymentCustomersTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  subscriptions: SubscriptionsTable;
  subscription_events: SubscriptionEventsTable;
  provider_events: ProviderEventsTable;
  simulated_sessions: SimulatedSessionsTable;
  simulated_customers: SimulatedCustomersTable;
  simulated_charges: SimulatedChargesTable;
  document_counters: DocumentCountersTable;
  billing_documents: BillingDocumentsTable;
  billing_pdfs: BillingPdfsTable;
  gifts: GiftsTable;
  share_bulletins: ShareBulletinsTable;
  share_members: ShareMembersTable;
  share_register: ShareRegisterTable;
  share_withdrawals: ShareWithdrawalsTable;
  assemblies: AssembliesTable;
  assembly_resolutions: AssemblyResolutionsTable;
  assembly_documents: AssemblyDocumentsTable;
  assembly_roll: AssemblyRollTable;
  assembly_attendance: AssemblyAttendanceTable;
  assembly_proxies: AssemblyProxiesTable;
  assembly_participation: AssemblyParticipationTable;
  assembly_ballots: AssemblyBallotsTable;
  assembly_minutes: AssemblyMinutesTable;
  site_builds: SiteBuildsTable;
  site_switches: SiteSwitchesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type SessionRowUpdate = Updateable<SessionsTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewTokenRow = Insertable<TokensTable>;
export type TokenRowUpdate = Updateable<TokensTable>;
export type RateLimitRow = Selectable<RateLimitsTable>;
export type NewsletterSubscriberRow = Selectable<NewsletterSubscribersTable>;
export type NewNewsletterSubscriberRow = Insertable<NewsletterSubscribersTable>;
export type NewsletterSubscriberRowUpdate = Updateable<NewsletterSubscribersTable>;
export type ContactMessageRow = Selectable<ContactMessagesTable>;
export type NewContactMessageRow = Insertable<ContactMessagesTable>;
export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;
export type JobRowUpdate = Updateable<JobsTable>;
export type SiteBuildRow = Selectable<SiteBuildsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type NewSubscriptionRow = Insertable<SubscriptionsTable>;

/** A new row id. */
export const newId = (): string => crypto.randomUUID();

/** The one way to write a time: ISO-8601 in UTC with milliseconds, sortable as text. */
export const toTimestamp = (date: Date): Timestamp => date.toISOString();

export const toFlag = (value: boolean): Flag => (value ? 1 : 0);
export const fromFlag = (value: number): boolean => value === 1;
