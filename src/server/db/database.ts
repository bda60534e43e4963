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
export type TokenPurpose = 'magic_link' | 'password_reset' | 'email_change' | 'newsletter_confirm';
export type NewsletterStatus = 'pending' | 'confirmed' | 'unsubscribed';

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

export interface NewsletterSubscribersTable {
  id: Immutable<string>;
  /** Unique; stored lower-cased, like users.email. */
  email: string;
  status: Generated<NewsletterStatus>;
  /** sha-256 hex of the token in unsubscribe links; unique when set. */
  unsubscribe_hash: string | null;
  created_at: Immutable<Timestamp>;
  confirmed_at: Timestamp | null;
  unsubscribed_at: Timestamp | null;
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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  rate_limits: RateLimitsTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  contact_messages: ContactMessagesTable;
  jobs: JobsTable;
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

/** A new row id. */
export const newId = (): string => crypto.randomUUID();

/** The one way to write a time: ISO-8601 in UTC with milliseconds, sortable as text. */
export const toTimestamp = (date: Date): Timestamp => date.toISOString();

export const toFlag = (value: boolean): Flag => (value ? 1 : 0);
export const fromFlag = (value: number): boolean => value === 1;
