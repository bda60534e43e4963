/**
 * The podcasts domain's tables (migration 2026-12-02-201-podcast-feeds), as Kysely sees them;
 * `db/database.ts` composes them into the `Database`.
 */
import type { Immutable, Timestamp } from '../db/column-types';

/** A supporter's personal feed. Kept when support ends: the same address works again on resuming. */
export interface PodcastFeedsTable {
  user_id: Immutable<string>;
  /** SHA-256 (hex) of the address's secret; the secret itself is never stored. */
  secret_hash: string;
  /** The `podcast-feed` key version the secret is derived with (a key rotation keeps old addresses). */
  key_version: number;
  /** Bumped by each reset: part of what the secret is derived from. */
  generation: number;
  created_at: Immutable<Timestamp>;
  reset_at: Timestamp | null;
}

/** One network (a keyed hash of its /24 or /64) that fetched a feed on a Paris day. */
export interface PodcastFeedFetchesTable {
  user_id: Immutable<string>;
  day: Immutable<string>;
  network: Immutable<string>;
}

export type FlagResolution = 'reset' | 'dismissed';

/** A feed fetched from more networks in a day than `SHARING_NETWORKS_PER_DAY`. */
export interface PodcastFeedFlagsTable {
  id: Immutable<string>;
  user_id: Immutable<string>;
  day: Immutable<string>;
  /** How many networks, when flagged (raised as more come, the same day). */
  networks: number;
  flagged_at: Immutable<Timestamp>;
  resolution: FlagResolution | null;
  resolved_by: string | null;
  resolved_at: Timestamp | null;
}

export interface PodcastTables {
  podcast_feeds: PodcastFeedsTable;
  podcast_feed_fetches: PodcastFeedFetchesTable;
  podcast_feed_flags: PodcastFeedFlagsTable;
}
