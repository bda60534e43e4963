/**
 * Who is a supporter (glossary: « soutien »), for the supporters' podcasts: an account with a
 * running subscription (a gift included), a running monthly donation, or shares held today.
 * Read through the owning domains' queries, never their repositories.
 */
import { formatInTimeZone } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { TIME_ZONE } from '../../lib/dates';
import type { Database } from '../db/database';
import { shareholderUserIds } from '../shares/queries';
import { supportingUserIds } from '../subscriptions/queries';

/** Does this account support the newspaper at `now`? */
export async function isSupportingUser(db: Kysely<Database>, userId: string, now: Date): Promise<boolean> {
  const today = formatInTimeZone(now, TIME_ZONE, 'yyyy-MM-dd');
  const row = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.id', '=', userId)
    .where((eb) => eb.or([eb('users.id', 'in', supportingUserIds(db)), eb('users.id', 'in', shareholderUserIds(db, today))]))
    .executeTakeFirst();
  return row !== undefined;
}
