/**
 * What « Mes podcasts » and the back-office do with personal feeds: show a supporter their feed
 * (made on the first visit), reset its address, and reset a shared feed from the back-office,
 * telling its supporter by mail in the same transaction.
 */
import { findUser } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { mailFor } from '../mail/layout';
import { SEND_MAIL } from '../mail/jobs';
import { isSupportingUser } from './entitlement';
import { feedResetByStaffMail } from './mails';
import { ensureFeed, findFeed, resetFeed, type PersonalFeed } from './personal-feeds';
import { listSharingFlags, resolveFlag, type SharingFlag } from './sharing';

export type PodcastsPage =
  /** Supporting: the feed, made on the first visit. */
  | { state: 'supporting'; feed: PersonalFeed }
  /** Not supporting (any more): the feed if one was made, which shows the « support ended » notice. */
  | { state: 'not-supporting'; feed: PersonalFeed | null };

export async function podcastsPage(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<PodcastsPage> {
  const now = deps.clock.now();
  if (await isSupportingUser(deps.db, userId, now)) return { state: 'supporting', feed: await ensureFeed(deps.db, userId, now) };
  return { state: 'not-supporting', feed: await findFeed(deps.db, userId) };
}

export const NO_FEED_MESSAGE =
  'Votre compte n’a pas de flux personnel : il est créé quand un soutien est en cours (abonnement, don mensuel ou parts de sociétaire).';

/** A new address for the session user's own feed; the old one stops at once. */
export async function resetOwnFeed(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<Result<{ feed: PersonalFeed }>> {
  if (!(await findFeed(deps.db, userId))) return fail(404, NO_FEED_MESSAGE);
  return { ok: true, feed: await resetFeed(deps.db, userId, deps.clock.now()) };
}

/** The sharing flags, for an administrator only (checked here again: a page that forgot its guard shows nothing). */
export async function sharingFlagsForAdmin(deps: Pick<ServerDeps, 'db'>, adminUserId: string): Promise<SharingFlag[] | undefined> {
  if ((await findUser(deps.db, adminUserId))?.role !== 'admin') return undefined;
  return listSharingFlags(deps.db);
}

export const FLAG_GONE_MESSAGE = 'Ce signalement n’existe pas ou a déjà été traité.';

/**
 * Staff's answer to a sharing flag: `reset` gives the feed a new address and mails its supporter
 * (the same transaction); `dismissed` closes the flag and changes nothing else.
 */
export async function resolveSharingFlag(
  deps: ServerDeps,
  input: { flagId: string; staffId: string; resolution: 'reset' | 'dismissed' },
): Promise<Result<{ email: string }>> {
  if ((await findUser(deps.db, input.staffId))?.role !== 'admin') return fail(404, FLAG_GONE_MESSAGE);
  const now = deps.clock.now();
  const done = await writeTransaction(deps.db, async (trx) => {
    const flag = await trx.selectFrom('podcast_feed_flags').select(['day', 'networks']).where('id', '=', input.flagId).executeTakeFirst();
    const userId = flag ? await resolveFlag(trx, { ...input, now }) : null;
    if (!flag || !userId) return null;
    const user = await findUser(trx, userId);
    if (!user) return null;
    if (input.resolution === 'reset') {
      await resetFeed(trx, userId, now);
      const { to, mail } = mailFor(user, feedResetByStaffMail({ siteUrl: deps.siteUrl, day: flag.day, networks: flag.networks }));
      await schedule(deps, trx, SEND_MAIL, { to, mail }, { uniqueKey: `podcasts.feed-reset:${input.flagId}` });
    }
    return { email: user.email };
  });
  if (!done) return fail(404, FLAG_GONE_MESSAGE);
  deps.jobs.wake();
  return { ok: true, email: done.email };
}
