/**
 * The auth domain's tables (accounts, sessions and single-use tokens), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Flag, Immutable, Timestamp } from '../db/column-types';

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

export interface AuthTables {
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
}
