/**
 * The newsletter domain's tables, as Kysely sees them; `db/database.ts` composes them into the
 * `Database`. Storage rules are the database's (ISO text times, 0/1 flags, text UUIDs).
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = string;
type Flag = 0 | 1;
type Immutable<T> = ColumnType<T, T, never>;

/** The address as a whole: `confirmed` while it receives at least one newsletter. */
export type NewsletterStatus = 'pending' | 'confirmed' | 'unsubscribed';

/** One address, whatever it receives. Never deleted: an unsubscription must be remembered. */
export interface NewsletterSubscribersTable {
  id: Immutable<string>;
  /** Unique; stored lower-cased, like users.email. */
  email: string;
  /** Summary of its subscriptions, kept by the service: confirmed if one is. */
  status: Generated<NewsletterStatus>;
  /** sha-256 hex of the token in unsubscribe links sent before the signed tokens; unique when set. */
  unsubscribe_hash: string | null;
  created_at: Immutable<Timestamp>;
  confirmed_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
  /** Soft bounces in a row since the last mail that went through; suppressed at the limit. */
  soft_bounces: Generated<number>;
}

/** One address's choice of one newsletter (double opt-in per choice). */
export interface NewsletterSubscriptionsTable {
  subscriber_id: Immutable<string>;
  newsletter: Immutable<string>;
  status: NewsletterStatus;
  /** When it was asked for, last: a new request after an unsubscription starts its 30 days again. */
  created_at: Timestamp;
  confirmed_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
}

export type IssueStatus = 'draft' | 'scheduled' | 'sending' | 'sent' | 'cancelled';
export type Segment = 'all' | 'supporters' | 'non_supporters' | 'shareholders';

/**
 * One issue of a newsletter. Editable while `draft` or `scheduled`; from `sending` on, what was
 * mailed is frozen in `mail_*` and the row is a record (a trigger refuses any change once `sent`,
 * and any deletion once `sending`).
 */
export interface NewsletterIssuesTable {
  id: Immutable<string>;
  newsletter: Immutable<string>;
  /** Its number in the newsletter's archive, given when the send starts (gapless per newsletter). */
  number: number | null;
  status: IssueStatus;
  subject: string;
  preheader: string;
  /** Markdown, as the editor wrote it. */
  intro: string;
  /** JSON array of story URLs ("/articles/…"), in the order of the mail. */
  stories: string;
  support_block: Flag;
  segment: Segment;
  /** When the send is due (scheduled), UTC. */
  scheduled_at: Timestamp | null;
  /** Bumped by each scheduling, so that a job of an earlier, cancelled schedule does nothing. */
  schedule_version: Generated<number>;
  created_by: Immutable<string | null>;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
  /** When the send started: the recipients were fixed then. */
  queued_at: Timestamp | null;
  /** When the last delivery was done. */
  sent_at: Timestamp | null;
  /** Recipients fixed when the send started. */
  recipients: number | null;
  /** The mail as sent: the HTML and text parts with per-recipient link placeholders, and the stories as shown. */
  mail_html: string | null;
  mail_text: string | null;
  mail_stories: string | null;
}

/**
 * One recipient of one issue: unique (issue, subscriber), claimed by its batch's job. `queued` →
 * `sending` (claimed) → `sent` | `refused` (the relay said 5xx: a hard bounce) | `failed` (4xx
 * until the last attempt: soft) | `skipped` (unsubscribed, suppressed or gone before its turn).
 * `bounced` / `complained` come later from the relay's webhook.
 */
export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'refused' | 'failed' | 'skipped' | 'bounced' | 'complained';

export interface NewsletterDeliveriesTable {
  id: Immutable<string>;
  issue_id: Immutable<string>;
  subscriber_id: Immutable<string>;
  batch: Immutable<number>;
  status: DeliveryStatus;
  attempts: Generated<number>;
  /** Message-ID of the message, fixed before the first attempt: a resubmission carries the same. */
  message_id: Immutable<string>;
  sent_at: Timestamp | null;
  /** The relay's code when it refused (550, 452…); never its text (it quotes addresses). */
  error: string | null;
  updated_at: Timestamp;
}

export type SuppressionReason = 'hard_bounce' | 'soft_bounce' | 'complaint' | 'manual';

/** Addresses never mailed again by a newsletter: hard bounces, complaints, repeated soft bounces. */
export interface NewsletterSuppressionsTable {
  email: Immutable<string>;
  reason: SuppressionReason;
  /** Where it came from: `relay` (refused at sending), `webhook:generic`, `webhook:mailgun`, `staff`. */
  source: string;
  /** The relay's code or the event's short description, never the message's text. */
  detail: string;
  created_at: Timestamp;
  /** Lifted by staff: mailed again. A new bounce suppresses it again. */
  lifted_at: Timestamp | null;
  lifted_by: string | null;
}

/** Relay events already applied (bounce and complaint webhooks are sent more than once). */
export interface NewsletterRelayEventsTable {
  provider: Immutable<string>;
  event_id: Immutable<string>;
  received_at: Immutable<Timestamp>;
}

export interface NewsletterTables {
  newsletter_subscribers: NewsletterSubscribersTable;
  newsletter_subscriptions: NewsletterSubscriptionsTable;
  newsletter_issues: NewsletterIssuesTable;
  newsletter_deliveries: NewsletterDeliveriesTable;
  newsletter_suppressions: NewsletterSuppressionsTable;
  newsletter_relay_events: NewsletterRelayEventsTable;
}
