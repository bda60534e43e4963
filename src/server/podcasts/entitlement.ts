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

/**
 * Does this account support the newspaper at `now`? Each owning domain's query narrowed to the
 * one account (indexed on the account), so that the answer costs the same at 10 or 100,000
 * supporters: every hourly poll of every personal feed asks it.
 */
export async function isSupportingUser(db: Kysely<Database>, userId: string, now: Date): Promise<boolean> {
  const subscription = await supportingUserIds(db).where('subscriptions.user_id', '=', userId).limit(1).executeTakeFirst();
  if (subscription) return true;
  const today = formatInTimeZone(now, TIME_ZONE, 'yyyy-MM-dd');
  return (await shareholderUserIds(db, today).where('share_members.user_id', '=', userId).executeTakeFirst()) !== undefined;
}
