/**
 * The rate-limit domain's tables (the fixed-window counters), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Immutable, Timestamp } from '../db/column-types';

export interface RateLimitsTable {
  key: Immutable<string>;
  /** Start of the fixed window, as a timestamp. */
  window_start: Immutable<Timestamp>;
  count: number;
}

export interface RateLimitTables {
  rate_limits: RateLimitsTable;
}
