/**
 * The account: what a signed-in person does with everything the site holds about them, across
 * domains. It owns no table; it composes the auth domain (identity, profile) with the others
 * (newsletter today; subscriptions, invoices and shares next) through their service functions,
 * in one transaction where the changes belong together.
 */
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { log } from '../core/log';
import { toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor } from '../mail/layout';
import type { User } from '../auth/public';
import { checkCurrentPassword, confirmEmailChange as confirmAddress, eraseUser, findUser, updateProfile as updateIdentity } from '../auth/service';
import { followAddress, isSubscribed, setSubscription } from '../newsletter/service';
import { accountDeletedMail } from './mails';
import { ACCOUNT_PARTS } from './parts';
import { sharesBlockDeletion } from '../shares/service';

/** The profile page's data: the user and whether their address gets the newsletter. */
export async function profileOf(deps: Pick<ServerDeps, 'db'>, user: User) {
  return { user, newsletter: await isSubscribed(deps.db, user.email) };
}

/** Name and postal address, and the newsletter when it is given (the API sends them together). */
export async function updateProfile(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { userId: string; givenName: string; familyName: string; address: User['address']; newsletter?: boolean | undefined },
): Promise<Result> {
  const now = deps.clock.now();
  const done = await writeTransaction(deps.db, async (trx) => {
    const user = await findUser(trx, input.userId);
    if (!user) return false;
    await updateIdentity(trx, { ...input, now });
    if (input.newsletter !== undefined) await setSubscription(trx, { email: user.email, subscribed: input.newsletter, now });
    return true;
  });
  return done ? { ok: true } : fail(401, 'Vous n’êtes plus connecté.');
}

/** The newsletter, on its own: subscribes the account's (proven) address at once, or unsubscribes it. */
export async function setNewsletter(deps: Pick<ServerDeps, 'db' | 'clock'>, input: { userId: string; subscribed: boolean }): Promise<Result> {
  const now = deps.clock.now();
  const done = await writeTransaction(deps.db, async (trx) => {
    const user = await findUser(trx, input.userId);
    if (!user) return false;
    await setSubscription(trx, { email: user.email, subscribed: input.subscribed, now });
    return true;
  });
  return done ? { ok: true } : fail(401, 'Vous n’êtes plus connecté.');
}

/** Confirms a new address from its link; the newsletter subscription follows it. */
export function confirmEmailChange(deps: ServerDeps, input: { token: string; client: string }) {
  return confirmAddress(deps, input, (trx, change) => followAddress(trx, change));
}

/** Everything the site holds about a user, as JSON (RGPD art. 15 and 20), one key per domain. */
export async function exportData(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<({ exported_at: string } & Record<string, unknown>) | null> {
  const user = await findUser(deps.db, userId);
  if (!user) return null;
  const parts: Record<string, unknown> = {};
  for (const part of ACCOUNT_PARTS) parts[part.name] = await part.export(deps.db, user);
  return { exported_at: toTimestamp(deps.clock.now()), ...parts };
}

/**
 * Deletes the account after checking the password (when it has one): every domain erases or
 * detaches its part in one transaction, then the user row goes with its sessions and tokens.
 */
export async function deleteAccount(deps: ServerDeps, input: { userId: string; password: string }): Promise<Result> {
  const checked = await checkCurrentPassword(deps, input);
  if (!checked.ok) return checked;
  const user = checked.user;
  const blocked = await sharesBlockDeletion(deps, user.id);
  if (blocked) return fail(409, blocked);
  const now = deps.clock.now();
  await writeTransaction(deps.db, async (trx) => {
    for (const part of ACCOUNT_PARTS) await part.erase(trx, user, now);
    await eraseUser(trx, user.id);
    // The acknowledgement leaves with the deletion, or not at all.
    await schedule(deps, trx, SEND_MAIL, mailFor(user, accountDeletedMail({ siteUrl: deps.siteUrl })));
  });
  deps.jobs.wake();
  log.info('account deleted', { userId: user.id });
  return { ok: true };
}
