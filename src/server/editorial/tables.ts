/**
 * The editorial domain's tables (the builds of the site and the switches of the live build), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Immutable, Timestamp } from '../db/column-types';

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

export interface EditorialTables {
  site_builds: SiteBuildsTable;
  site_switches: SiteSwitchesTable;
}
