/**
 * The contact domain's tables (the messages to the newsroom), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Immutable, Timestamp } from '../db/column-types';

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

export interface ContactTables {
  contact_messages: ContactMessagesTable;
}
