/**
 * Queries of the auth domain. Every function takes the database handle first, so that a
 * service can run several of them in one transaction. Rows (snake_case) are mapped to
 * domain types (camelCase) here and nowhere else.
 */
import type { Kysely, NotNull } from 'kysely';
import type { Database, NewSessionRow, NewTokenRow, NewUserRow, TokenPurpose, UserRole, UserRow, UserRowUpdate } from '../db/database';
import { toTimestamp } from '../db/database';
import { compiledQuery } from '../db/compiled';

export interface User {
  id: string;
  email: string;
  givenName: string;
  familyName: string;
  address: { line1: string; line2: string; postalCode: string; city: string; country: string };
  role: UserRole;
  hasPassword: boolean;
  emailVerifiedAt: string | null;
  createdAt: string;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    givenName: row.given_name,
    familyName: row.family_name,
    address: { line1: row.address_line1, line2: row.address_line2, postalCode: row.postal_code, city: row.city, country: row.country },
    role: row.role,
    hasPassword: row.password_hash !== null,
    emailVerifiedAt: row.email_verified_at,
    createdAt: row.created_at,
  };
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const findUserRowByEmail = (db: Kysely<Database>, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();

export const findUserRowById = (db: Kysely<Database>, id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const insertUser = (db: Kysely<Database>, row: NewUserRow) => db.insertInto('users').values(row).execute();

export const updateUser = (db: Kysely<Database>, id: string, patch: UserRowUpdate) => db.updateTable('users').set(patch).where('id', '=', id).execute();

export const deleteUser = (db: Kysely<Database>, id: string) => db.deleteFrom('users').where('id', '=', id).execute();

export const insertSession = (db: Kysely<Database>, row: NewSessionRow) => db.insertInto('sessions').values(row).execute();

/**
 * The session and its user, if the session exists (expiry is checked by the caller). Compiled once:
 * every signed-in request asks. The session's columns come from scalar subqueries on its primary
 * key rather than from a join: on SQLite the join took 21 µs and this form 4.4 µs (the same row),
 * on a page that costs its app process about 0.6 ms (docs/performance.md, goal 4). PostgreSQL
 * answers both in one round trip.
 */
const sessionWithUserQuery = compiledQuery((db: Kysely<Database>, idHash: string) => {
  const session = db.selectFrom('sessions').where('sessions.id_hash', '=', idHash);
  return (
    db
      .selectFrom('users')
      .selectAll('users')
      .select([
        session.select('sessions.id_hash').as('id_hash'),
        session.select('sessions.expires_at').as('expires_at'),
        session.select('sessions.last_seen_at').as('last_seen_at'),
        session.select('sessions.persistent').as('persistent'),
      ])
      .where('users.id', '=', session.select('sessions.user_id'))
      // A user is returned only through its session, which one statement reads whole.
      .$narrowType<{ id_hash: NotNull; expires_at: NotNull; last_seen_at: NotNull; persistent: NotNull }>()
  );
});
export const findSessionWithUser = async (db: Kysely<Database>, idHash: string) => (await sessionWithUserQuery(db, idHash))[0];

export const touchSession = (db: Kysely<Database>, idHash: string, lastSeen: Date, expiresAt: Date) =>
  db
    .updateTable('sessions')
    .set({ last_seen_at: toTimestamp(lastSeen), expires_at: toTimestamp(expiresAt) })
    .where('id_hash', '=', idHash)
    .execute();

export const deleteSession = (db: Kysely<Database>, idHash: string) => db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();

/** Ends every session of a user, but the one given (if any). */
export async function deleteUserSessions(db: Kysely<Database>, userId: string, exceptIdHash?: string): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptIdHash) query = query.where('id_hash', '!=', exceptIdHash);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const listUserSessions = (db: Kysely<Database>, userId: string) =>
  db
    .selectFrom('sessions')
    .select(['id_hash', 'created_at', 'last_seen_at', 'expires_at', 'persistent', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .execute();

export const insertToken = (db: Kysely<Database>, row: NewTokenRow) => db.insertInto('tokens').values(row).execute();

/**
 * Uses a single-use token: one statement that marks it used only if it is unused, of the
 * right purpose and not expired. Two requests racing with the same token cannot both get it.
 */
export const consumeToken = (db: Kysely<Database>, idHash: string, purpose: TokenPurpose, now: Date) =>
  db
    .updateTable('tokens')
    .set({ used_at: toTimestamp(now) })
    .where('id_hash', '=', idHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', toTimestamp(now))
    .returningAll()
    .executeTakeFirst();

/** Retires every unused token of a user: after a password reset or change, no older link may act. */
export const retireAllTokens = (db: Kysely<Database>, userId: string, now: Date) =>
  db
    .updateTable('tokens')
    .set({ used_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();

/** Looks a token up without using it (to refuse before expensive work). */
export const findUsableToken = (db: Kysely<Database>, idHash: string, purpose: TokenPurpose, now: Date) =>
  db
    .selectFrom('tokens')
    .select('user_id')
    .where('id_hash', '=', idHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', toTimestamp(now))
    .executeTakeFirst();

/** A token's owner whatever its state (used, expired): to offer a fresh link in place of a spent one. */
export const findTokenOwner = (db: Kysely<Database>, idHash: string, purpose: TokenPurpose, issuedAfter: Date) =>
  db
    .selectFrom('tokens')
    .select('user_id')
    .where('id_hash', '=', idHash)
    .where('purpose', '=', purpose)
    .where('created_at', '>', toTimestamp(issuedAfter))
    .executeTakeFirst();

/** Retires a user's unused tokens of one purpose (a new link replaces the older ones). */
export const retireTokens = (db: Kysely<Database>, userId: string, purpose: TokenPurpose, now: Date) =>
  db
    .updateTable('tokens')
    .set({ used_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
