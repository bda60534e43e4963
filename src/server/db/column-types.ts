/**
 * The storage types every domain's `tables.ts` declares its columns with (the rules are in
 * `database.ts`): ISO-8601 UTC text for times, 0/1 for booleans, columns set once.
 */
import type { ColumnType } from 'kysely';

/** ISO-8601 UTC text, as written by `toTimestamp()`. */
export type Timestamp = string;
/** A boolean stored as an integer. */
export type Flag = 0 | 1;
/** A column set once at insertion and never updated. */
export type Immutable<T> = ColumnType<T, T, never>;
