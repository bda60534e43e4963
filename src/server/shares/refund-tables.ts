/**
 * The refunds by bank transfer (migration 2026-11-30-002-refund-transfers), as Kysely sees them;
 * `db/database.ts` composes them into the `Database`.
 */
import type { ColumnType } from 'kysely';

type Timestamp = string;
type Immutable<T> = ColumnType<T, T, never>;

export type RefundTransferStatus = 'awaiting_iban' | 'to_make' | 'made';
export type RefundTransferCause = 'renunciation' | 'refusal' | 'withdrawal' | 'overpayment';

export interface ShareRefundTransfersTable {
  id: Immutable<string>;
  /** « RBT-2026-0007 », gapless per year. */
  reference: Immutable<string>;
  source_key: Immutable<string>;
  cause: Immutable<RefundTransferCause>;
  user_id: string | null;
  member_id: Immutable<string | null>;
  bulletin_id: Immutable<string | null>;
  withdrawal_id: Immutable<string | null>;
  amount_cents: Immutable<number>;
  iban: string | null;
  account_holder: string | null;
  iban_given_at: Timestamp | null;
  status: RefundTransferStatus;
  made_on: string | null;
  made_by: string | null;
  made_at: Timestamp | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface ShareRefundTables {
  share_refund_transfers: ShareRefundTransfersTable;
}
