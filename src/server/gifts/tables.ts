/**
 * The gifts domain's table (`gifts`: one row per gift order, its code stored as a keyed hash and
 * a sealed copy, never in clear), as Kysely sees it; `db/database.ts` composes it into the
 * `Database`. Created by migration `2026-11-24-001-billing-gifts`; storage rules are the
 * database's (ISO text times, text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Immutable, Timestamp } from '../db/column-types';

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

export interface GiftTables {
  gifts: GiftsTable;
}
