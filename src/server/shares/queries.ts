/**
 * What other domains may read of the cooperative, as queries they compose into their own (the
 * newsletter's segments): never through the register's repository.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';

/**
 * The accounts of sociétaires: members of the register who hold at least one share on `today`
 * (YYYY-MM-DD, Paris), by the entries effective by then. A subquery selecting `user_id`.
 */
export function shareholderUserIds(db: Kysely<Database>, today: string) {
  return db
    .selectFrom('share_members')
    .innerJoin('share_register', 'share_register.member_id', 'share_members.id')
    .select('share_members.user_id')
    .where('share_members.user_id', 'is not', null)
    .where('share_register.effective_on', '<=', today)
    .groupBy('share_members.user_id')
    .having((eb) => eb.fn.sum<number>('share_register.shares_delta'), '>', 0);
}
