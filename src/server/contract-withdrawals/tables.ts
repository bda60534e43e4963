/**
 * The withdrawals (migration 2026-12-01-003-contract-withdrawals), as Kysely sees them;
 * `db/database.ts` composes them into the `Database`.
 */
import type { ColumnType } from 'kysely';

type Timestamp = string;
type Immutable<T> = ColumnType<T, T, never>;

export type ContractKind = 'subscription' | 'gift' | 'shares';
export type WithdrawalChannel = 'account' | 'mailed_link';

/** Append-only: every column is set once, but `user_id`, cleared on an account's deletion. */
export interface ContractWithdrawalsTable {
  id: Immutable<string>;
  /** `order:<id>` or `bulletin:<id>`: unique, one withdrawal per contract. */
  contract_key: Immutable<string>;
  contract_kind: Immutable<ContractKind>;
  order_id: Immutable<string | null>;
  bulletin_id: Immutable<string | null>;
  /** Set to null, and only so, when the account is deleted (a trigger refuses anything else). */
  user_id: ColumnType<string | null, string | null, null>;
  channel: Immutable<WithdrawalChannel>;
  refund_cents: Immutable<number>;
  refund_key: Immutable<string>;
  withdrawn_at: Immutable<Timestamp>;
  created_at: Immutable<Timestamp>;
}

export interface ContractWithdrawalTables {
  contract_withdrawals: ContractWithdrawalsTable;
}
