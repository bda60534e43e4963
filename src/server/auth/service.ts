/**
 * The auth use cases: sign in and out, sessions, sign-in links, password reset and change,
 * e-mail change. Pages and endpoints stay thin: they parse, call one of these, render.
 *
 * Promises kept here (see CONTEXT.md): answers never tell whether an address has an account;
 * secrets are 256 bits and stored hashed; tokens are single-use, bound to one purpose and
 * expire; a password change or reset ends every session; attempts are rate-limited.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ServerDeps } from '../core/deps';
import { fail, type Failure, type Result } from '../core/result';
import type { Database, UserRow } from '../db/database';
import { newId, toFlag, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { sign } from '../core/keys';
import { SEND_MAIL } from '../mail/jobs';
import { log } from '../core/log';
import {
  emailChangeConfirmMail,
  emailChangeNoticeMail,
  emailChangedMail,
  magicLinkMail,
  passwordChangedMail,
  passwordResetMail,
  signUpConfirmMail,
} from './mails';
import { mailFor, type MailContent } from '../mail/layout';
import { EMAIL_CHANGE_LINK, MAIL_LINK, SIGN_UP_CONFIRM } from './job-types';
import { recordConfirmation } from './sign-up-guard';
import { PasswordHashingBusy, hashPassword, needsRehash, validateNewPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import { emailSubject, hit, limit as limitBy, retryLater, subjectOf, type RateLimitRule } from '../rate-limit/rate-limit';
import { ACCOUNT_UNDER_ATTACK_DELAY_MS, AUTH_LIMITS as RATE_LIMITS } from './rate-limits';
import { knownDeviceOf, markDevice } from './known-devices';
import * as repo from './repository';
import { hashSecret, isWellFormedSecret, newSecret, sessionExpiresAt, tokenExpiresAt, type SessionKind, type TokenPurpose } from './tokens';

export interface NewSession {
  token: string;
  expiresAt: Date;
  persistent: boolean;
}

export const MESSAGES = {
  badCredentials: 'Adresse e-mail ou mot de passe incorrect.',
  tooMany: (seconds: number) => retryLater('Trop de tentatives.', seconds),
  /** Sign-in refusals, saying what was counted: a network or a browser, never the account as a whole. */
  tooManyFromNetwork: 'Trop de tentatives de connexion depuis votre réseau.',
  tooManyOnAccountFromNetwork: 'Trop de tentatives de connexion à ce compte depuis votre réseau.',
  tooManyFromDevice: 'Trop de tentatives de connexion depuis ce navigateur.',
  linkInvalid: 'Ce lien n’est plus valable : il a déjà servi ou il a expiré. Demandez-en un nouveau.',
  wrongPassword: 'Le mot de passe actuel est incorrect.',
  emailTaken: 'Cette adresse e-mail ne peut pas être utilisée.',
  sameEmail: 'C’est déjà l’adresse de votre compte.',
} as const;

/** Password hashing is saturated: answer at once rather than queue without end. */
async function unlessBusy<T>(work: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PasswordHashingBusy) return fail(503, 'Le service est très sollicité. Réessayez dans quelques secondes.', 5);
    throw error;
  }
}

/** Counts an attempt against every rule; the first exceeded one refuses with 429. */
function limit(deps: Pick<ServerDeps, 'db' | 'clock'>, checks: [RateLimitRule, string][]): Promise<Failure | null> {
  return limitBy(deps, checks, 'Trop de tentatives.');
}

/**
 * Schedules a notice (no secret in it) in the caller's transaction: it leaves with the change
 * it tells of, or not at all. Wake the worker after the commit.
 */
function notify(deps: Pick<ServerDeps, 'clock' | 'siteUrl'>, db: Kysely<Database>, to: string, mail: MailContent) {
  return schedule(deps, db, SEND_MAIL, { to, mail });
}

async function createSession(db: Kysely<Database>, userId: string, kind: SessionKind, now: Date, userAgent?: string | null): Promise<NewSession> {
  const token = newSecret();
  const expiresAt = sessionExpiresAt(kind, now);
  await repo.insertSession(db, {
    id_hash: hashSecret(token),
    user_id: userId,
    persistent: toFlag(kind === 'persistent'),
    created_at: toTimestamp(now),
    last_seen_at: toTimestamp(now),
    expires_at: toTimestamp(expiresAt),
    user_agent: userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt, persistent: kind === 'persistent' };
}

async function issueToken(
  db: Kysely<Database>,
  purpose: TokenPurpose,
  now: Date,
  fields: { userId: string | null; email: string; payload?: unknown },
): Promise<string> {
  const token = newSecret();
  await repo.insertToken(db, {
    id_hash: hashSecret(token),
    purpose,
    user_id: fields.userId,
    email: fields.email,
    payload: fields.payload === undefined ? null : JSON.stringify(fields.payload),
    created_at: toTimestamp(now),
    expires_at: toTimestamp(tokenExpiresAt(purpose, now)),
  });
  return token;
}

// ——— Sign in and out ———

export interface LoginInput {
  email: string;
  password: string;
  rememberMe: boolean;
  userAgent?: string | null;
  client: string;
  previousToken?: string | undefined;
  /** The browser's known-device cookie (`cc_device`), if it sent one. */
  knownDevice?: string | undefined;
}

export interface SignedIn {
  user: repo.User;
  session: NewSession;
  /** The known-device cookie to set on this browser (`cc_device`): it now knows this account. */
  device: { value: string; expiresAt: Date };
}

/**
 * Signs in with a password. Attempts are limited so that a stranger cannot lock an account's
 * owner out (CONTEXT.md, rule 9): from a browser that knows the account (a known device), only
 * that browser's own attempts count; from any other, the client's attempts (all accounts) and
 * the client's attempts on this account are limited and refused past their limit, and an
 * account tried from many clients at once gets slower answers, never a refusal.
 */
export function login(deps: ServerDeps, input: LoginInput): Promise<Result<SignedIn>> {
  return unlessBusy(() => loginNow(deps, input));
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function loginNow(deps: ServerDeps, input: LoginInput): Promise<Result<SignedIn>> {
  const row = await repo.findUserRowByEmail(deps.db, input.email);
  const now = deps.clock.now();
  const device = row?.password_hash && input.knownDevice ? knownDeviceOf(input.knownDevice, { userId: row.id, passwordHash: row.password_hash }, now) : null;
  if (device) {
    const limited = await limitBy(deps, [[RATE_LIMITS.loginByKnownDevice, subjectOf('device', device)]], MESSAGES.tooManyFromDevice);
    if (limited) return limited;
  } else {
    // Counted whether or not the address has an account: the answers stay the same.
    const email = repo.normaliseEmail(input.email);
    const limited =
      (await limitBy(deps, [[RATE_LIMITS.loginByClient, input.client]], MESSAGES.tooManyFromNetwork)) ??
      (await limitBy(deps, [[RATE_LIMITS.loginByClientAndEmail, subjectOf('client-email', input.client, email)]], MESSAGES.tooManyOnAccountFromNetwork));
    if (limited) return limited;
    // Many clients at once on one account: slower answers for all but its known devices.
    const account = await hit(deps.db, RATE_LIMITS.loginByEmail, emailSubject(email), now);
    if (!account.allowed) {
      log.warn('sign-in slowed', { rule: RATE_LIMITS.loginByEmail.name });
      await wait(ACCOUNT_UNDER_ATTACK_DELAY_MS);
    }
  }
  // Unknown address or no password: spend the same time as a real check, answer the same.
  if (!row?.password_hash) {
    await verifyAgainstNothing(input.password);
    return fail(401, MESSAGES.badCredentials);
  }
  if (!(await verifyPassword(input.password, row.password_hash))) return fail(401, MESSAGES.badCredentials);
  let passwordHash = row.password_hash;
  if (needsRehash(passwordHash)) {
    passwordHash = await hashPassword(input.password);
    await repo.updateUser(deps.db, row.id, { password_hash: passwordHash, updated_at: toTimestamp(now) });
  }
  // A new session at every sign-in: a session id known before signing in is worth nothing after.
  await logout(deps, input.previousToken);
  const session = await createSession(deps.db, row.id, input.rememberMe ? 'persistent' : 'browser', now, input.userAgent);
  log.info('signed in', { userId: row.id, persistent: session.persistent, knownDevice: device !== null });
  return { ok: true, user: repo.toUser(row), session, device: markDevice(input.knownDevice, { userId: row.id, passwordHash }, now) };
}

/**
 * Opens the first session of an account created in this very request, with the password just
 * set: no second scrypt derivation and none of the sign-in limits, which count guesses (a shared
 * network creating many accounts would otherwise see them created but not signed in). The
 * sign-up has its own limits (sign-up-guard.ts). Like a password sign-in, it marks the browser as
 * a known device of the account (`device`, the cookie `cc_device` to set), so that its owner's
 * later sign-ins from it are not counted with strangers'.
 */
export async function startNewAccountSession(
  deps: ServerDeps,
  input: { userId: string; userAgent?: string | null; previousToken?: string | undefined; knownDevice?: string | undefined },
): Promise<{ session: NewSession; device: SignedIn['device'] | null }> {
  await logout(deps, input.previousToken);
  const now = deps.clock.now();
  const session = await createSession(deps.db, input.userId, 'browser', now, input.userAgent);
  const row = await repo.findUserRowById(deps.db, input.userId);
  const device = row?.password_hash ? markDevice(input.knownDevice, { userId: row.id, passwordHash: row.password_hash }, now) : null;
  log.info('signed in after sign-up', { userId: input.userId });
  return { session, device };
}

export async function logout(deps: ServerDeps, sessionToken: string | undefined): Promise<void> {
  if (sessionToken && isWellFormedSecret(sessionToken)) await repo.deleteSession(deps.db, hashSecret(sessionToken));
}

/** How often a session's last-seen time is written: not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** The user behind a session cookie, or null. Browser sessions slide; persistent ones don't. */
export async function sessionUser(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  sessionToken: string | undefined,
): Promise<{ user: repo.User; sessionHash: string; persistent: boolean } | null> {
  if (!sessionToken || !isWellFormedSecret(sessionToken)) return null;
  const idHash = hashSecret(sessionToken);
  const row = await repo.findSessionWithUser(deps.db, idHash);
  if (!row) return null;
  const now = deps.clock.now();
  if (row.expires_at <= toTimestamp(now)) {
    await repo.deleteSession(deps.db, idHash);
    return null;
  }
  if (now.getTime() - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) {
    const expiresAt = row.persistent ? new Date(row.expires_at) : sessionExpiresAt('browser', now);
    await repo.touchSession(deps.db, idHash, now, expiresAt);
  }
  return { user: repo.toUser(row), sessionHash: idHash, persistent: row.persistent === 1 };
}

// ——— Sign-in links and password reset ———

/**
 * Mails a single-use link for one purpose if the address has an account (a newer link retires
 * the older ones). The answer is the same either way, and so is its timing: the request only
 * schedules a job, for a known address or not; the job looks the address up.
 */
async function mailLinkToAccount(
  deps: ServerDeps,
  input: { email: string; client: string },
  purpose: 'magic_link' | 'password_reset',
): Promise<Result<object>> {
  const byEmail = purpose === 'magic_link' ? RATE_LIMITS.signInLinkByEmail : RATE_LIMITS.resetByEmail;
  const limited = await limit(deps, [
    [RATE_LIMITS.mailByClient, input.client],
    [byEmail, emailSubject(input.email)],
  ]);
  if (limited) return limited;
  await schedule(deps, deps.db, MAIL_LINK, { purpose, email: repo.normaliseEmail(input.email) });
  deps.jobs.wake();
  return { ok: true };
}

/**
 * The job behind a sign-in or reset request: if the address has an account, retire its older
 * links of that purpose, issue a new one and mail it. The token is created here, when the job
 * runs, so that no live secret waits in the jobs table.
 */
export async function sendLinkNow(deps: ServerDeps, input: { email: string; purpose: 'magic_link' | 'password_reset' }): Promise<void> {
  const row = await repo.findUserRowByEmail(deps.db, input.email);
  if (!row) return;
  const now = deps.clock.now();
  const token = await writeTransaction(deps.db, async (trx) => {
    // Writing the user row first takes its lock on PostgreSQL: two jobs for one address (two
    // processes) then run one after the other, and the second retires the first one's link.
    await repo.updateUser(trx, row.id, { updated_at: toTimestamp(now) });
    await repo.retireTokens(trx, row.id, input.purpose, now);
    return issueToken(trx, input.purpose, now, { userId: row.id, email: row.email });
  });
  const mail = input.purpose === 'magic_link' ? magicLinkMail({ siteUrl: deps.siteUrl, token }) : passwordResetMail({ siteUrl: deps.siteUrl, token });
  await deps.mailer.send({ to: row.email, ...mail });
}

/** « l•••@exemple.fr »: enough for its owner to recognise an address, not to learn one. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/**
 * The masked address of the account a still-usable link of that purpose acts for, without
 * spending it: the link's page shows it before the click, so that a link planted by someone
 * else (to sign a reader into the planter's account) is seen for what it is.
 */
export async function maskedLinkTarget(db: Kysely<Database>, secret: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
  if (!isWellFormedSecret(secret)) return null;
  const token = await repo.findUsableToken(db, hashSecret(secret), purpose, now);
  if (!token?.user_id) return null;
  const row = await repo.findUserRowById(db, token.user_id);
  return row ? maskEmail(row.email) : null;
}

/** How long after it was sent a spent sign-in link still offers a fresh one to its account. */
const SPENT_LINK_RENEWABLE_MS = 7 * 24 * 3600 * 1000;

/** The account a sign-in link was sent to, whatever became of the link (used, expired), if recent. */
async function spentLinkOwner(db: Kysely<Database>, secret: string, now: Date): Promise<UserRow | null> {
  if (!isWellFormedSecret(secret)) return null;
  const token = await repo.findTokenOwner(db, hashSecret(secret), 'magic_link', new Date(now.getTime() - SPENT_LINK_RENEWABLE_MS));
  if (!token?.user_id) return null;
  return (await repo.findUserRowById(db, token.user_id)) ?? null;
}

/**
 * Where a sign-in link that no longer works can send a fresh one: the masked address of its
 * account (« l•••@exemple.fr », as the working link's page shows it), or null when the link is
 * unknown, too old, or its account is gone; then the reader types the address.
 */
export async function maskedSpentLinkTarget(db: Kysely<Database>, secret: string, now: Date): Promise<string | null> {
  const row = await spentLinkOwner(db, secret, now);
  return row ? maskEmail(row.email) : null;
}

/**
 * Sends a fresh sign-in link to the account a spent one was for, without the reader typing (or
 * seeing) the address. Limited like any request for a link.
 */
export async function renewMagicLink(deps: ServerDeps, input: { token: string; client: string }): Promise<Result<{ to: string }>> {
  const row = await spentLinkOwner(deps.db, input.token, deps.clock.now());
  if (!row) return fail(400, 'Nous ne retrouvons pas le compte de ce lien. Indiquez votre adresse e-mail pour en recevoir un nouveau.');
  const sent = await mailLinkToAccount(deps, { email: row.email, client: input.client }, 'magic_link');
  return sent.ok ? { ok: true, to: maskEmail(row.email) } : sent;
}

/** Sends a sign-in link (15 minutes) if the address has an account. */
export const requestMagicLink = (deps: ServerDeps, input: { email: string; client: string }) => mailLinkToAccount(deps, input, 'magic_link');

export async function redeemMagicLink(
  deps: ServerDeps,
  input: { token: string; userAgent?: string | null; client: string; previousToken?: string | undefined },
): Promise<Result<{ user: repo.User; session: NewSession }>> {
  const limited = await limit(deps, [[RATE_LIMITS.tokenByClient, input.client]]);
  if (limited) return limited;
  if (!isWellFormedSecret(input.token)) return fail(400, MESSAGES.linkInvalid);
  const now = deps.clock.now();
  const result = await writeTransaction(deps.db, async (trx) => {
    const token = await repo.consumeToken(trx, hashSecret(input.token), 'magic_link', now);
    if (!token?.user_id) return null;
    const row = await repo.findUserRowById(trx, token.user_id);
    if (!row) return null;
    // Following the link proves the address.
    if (!row.email_verified_at) await repo.updateUser(trx, row.id, { email_verified_at: toTimestamp(now), updated_at: toTimestamp(now) });
    const session = await createSession(trx, row.id, 'browser', now, input.userAgent);
    return { user: repo.toUser(row), session };
  });
  if (!result) return fail(400, MESSAGES.linkInvalid);
  // The session the browser had before ends: a link opened in someone else's browser signs that
  // person out rather than leaving their session behind a new one.
  await logout(deps, input.previousToken);
  log.info('signed in by link', { userId: result.user.id });
  return { ok: true, ...result };
}

/** Sends a password-reset link (one hour) if the address has an account. */
export const requestPasswordReset = (deps: ServerDeps, input: { email: string; client: string }) => mailLinkToAccount(deps, input, 'password_reset');

/** Sets a new password from a reset link, and ends every session of the account. */
export function resetPassword(deps: ServerDeps, input: { token: string; newPassword: string; client: string }): Promise<Result<object>> {
  return unlessBusy(() => resetPasswordNow(deps, input));
}

async function resetPasswordNow(deps: ServerDeps, input: { token: string; newPassword: string; client: string }): Promise<Result<object>> {
  const limited = await limit(deps, [[RATE_LIMITS.tokenByClient, input.client]]);
  if (limited) return limited;
  // A refused password must not spend the link.
  const problem = validateNewPassword(input.newPassword);
  if (problem) return fail(400, problem);
  if (!isWellFormedSecret(input.token)) return fail(400, MESSAGES.linkInvalid);
  // No hashing (the costly part) for a link that cannot work.
  if (!(await repo.findUsableToken(deps.db, hashSecret(input.token), 'password_reset', deps.clock.now()))) return fail(400, MESSAGES.linkInvalid);
  const hash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  const email = await writeTransaction(deps.db, async (trx) => {
    const token = await repo.consumeToken(trx, hashSecret(input.token), 'password_reset', now);
    if (!token?.user_id) return null;
    const row = await repo.findUserRowById(trx, token.user_id);
    if (!row) return null;
    await repo.updateUser(trx, row.id, { password_hash: hash, email_verified_at: row.email_verified_at ?? toTimestamp(now), updated_at: toTimestamp(now) });
    await repo.deleteUserSessions(trx, row.id);
    // No link sent before the reset (a change of address, a sign-in link) may act after it.
    await repo.retireAllTokens(trx, row.id, now);
    await notify(deps, trx, row.email, passwordChangedMail({ siteUrl: deps.siteUrl }));
    return row.email;
  });
  if (!email) return fail(400, MESSAGES.linkInvalid);
  deps.jobs.wake();
  return { ok: true };
}

// ——— Signed-in changes ———

/**
 * Changes the password after checking the current one. Every session ends, this one too;
 * the browser gets a fresh session so that it stays signed in.
 */
export function changePassword(
  deps: ServerDeps,
  input: { userId: string; currentPassword: string; newPassword: string; persistent: boolean; userAgent?: string | null },
): Promise<Result<{ session: NewSession }>> {
  return unlessBusy(async () => {
    const row = await repo.findUserRowById(deps.db, input.userId);
    if (!row) return fail(401, 'Vous n’êtes plus connecté.');
    const limited = await limit(deps, [[RATE_LIMITS.passwordCheckByAccount, row.id]]);
    if (limited) return limited;
    if (row.password_hash && !(await verifyPassword(input.currentPassword, row.password_hash))) return fail(403, MESSAGES.wrongPassword);
    const problem = validateNewPassword(input.newPassword);
    if (problem) return fail(400, problem);
    const hash = await hashPassword(input.newPassword);
    const now = deps.clock.now();
    const session = await writeTransaction(deps.db, async (trx) => {
      await repo.updateUser(trx, row.id, { password_hash: hash, updated_at: toTimestamp(now) });
      await repo.deleteUserSessions(trx, row.id);
      await repo.retireAllTokens(trx, row.id, now);
      await notify(deps, trx, row.email, passwordChangedMail({ siteUrl: deps.siteUrl }));
      return createSession(trx, row.id, input.persistent ? 'persistent' : 'browser', now, input.userAgent);
    });
    deps.jobs.wake();
    return { ok: true, session };
  });
}

/** Ends every other session of the account. */
export async function logoutOtherSessions(deps: Pick<ServerDeps, 'db'>, input: { userId: string; sessionHash: string }): Promise<number> {
  return repo.deleteUserSessions(deps.db, input.userId, input.sessionHash);
}

/**
 * Starts a change of e-mail address: the new address confirms by a link (24 h), the old one
 * is told. An address already used by another account gets nothing, and the answer is the same.
 */
export async function requestEmailChange(
  deps: ServerDeps,
  input: { userId: string; newEmail: string; password: string; client: string },
): Promise<Result<object>> {
  const limited = await limit(deps, [
    [RATE_LIMITS.mailByClient, input.client],
    [RATE_LIMITS.emailChangeByEmail, emailSubject(input.newEmail)],
  ]);
  if (limited) return limited;
  const row = await repo.findUserRowById(deps.db, input.userId);
  if (!row) return fail(401, 'Vous n’êtes plus connecté.');
  const checked = await limit(deps, [[RATE_LIMITS.passwordCheckByAccount, row.id]]);
  if (checked) return checked;
  if (row.password_hash && !(await verifyPassword(input.password, row.password_hash))) return fail(403, MESSAGES.wrongPassword);
  const newEmail = repo.normaliseEmail(input.newEmail);
  if (newEmail === row.email) return fail(400, MESSAGES.sameEmail);
  // The pending change is a token row written now, in this transaction: a password reset or
  // change that comes before the job runs retires it like any other link. Its secret is derived
  // from the job's id, so that the job can mail it without a live secret ever sitting in `jobs`.
  // Whether the new address is taken is the job's question: the answer and its timing are the same.
  const now = deps.clock.now();
  await writeTransaction(deps.db, async (trx) => {
    await repo.updateUser(trx, row.id, { updated_at: toTimestamp(now) });
    await repo.retireTokens(trx, row.id, 'email_change', now);
    const job = await schedule(deps, trx, EMAIL_CHANGE_LINK, { userId: row.id, newEmail });
    await repo.insertToken(trx, {
      id_hash: hashSecret(emailChangeSecret(job.id)),
      purpose: 'email_change',
      user_id: row.id,
      email: newEmail,
      payload: JSON.stringify({ from: row.email }),
      created_at: toTimestamp(now),
      expires_at: toTimestamp(tokenExpiresAt('email_change', now)),
    });
  });
  deps.jobs.wake();
  return { ok: true };
}

/** The secret of the change-of-address link scheduled as job `jobId` (43 base64url characters). */
const emailChangeSecret = (jobId: string) => sign('mailed-link', `email-change:${jobId}`);

/**
 * The job behind a change of address. If its link is still usable (no reset, password change or
 * newer request retired it), it tells the old address — always, whether or not the new one is
 * free, so that the notice reveals nothing — and, unless the new address belongs to another
 * account, mails the link to it.
 */
export async function sendEmailChangeLinkNow(deps: ServerDeps, input: { userId: string; newEmail: string }, jobId: string): Promise<void> {
  const token = emailChangeSecret(jobId);
  const now = deps.clock.now();
  if (!(await repo.findUsableToken(deps.db, hashSecret(token), 'email_change', now))) return;
  const row = await repo.findUserRowById(deps.db, input.userId);
  if (!row) return;
  // The notice is its own job: a mailbox that refuses it must not make this one send the link again.
  await schedule(
    deps,
    deps.db,
    SEND_MAIL,
    mailFor({ email: row.email, givenName: row.given_name }, emailChangeNoticeMail({ siteUrl: deps.siteUrl, newEmail: input.newEmail })),
    { uniqueKey: `email-change-notice:${jobId}` },
  );
  deps.jobs.wake();
  if (await repo.findUserRowByEmail(deps.db, input.newEmail)) return;
  await deps.mailer.send({ to: input.newEmail, ...emailChangeConfirmMail({ siteUrl: deps.siteUrl, token, newEmail: input.newEmail }) });
}

export async function confirmEmailChange(
  deps: ServerDeps,
  input: { token: string; client: string },
  /** What other domains do, in the same transaction, when an address changes (the account domain passes the newsletter's). */
  onChanged: (trx: Kysely<Database>, change: { userId: string; oldEmail: string; newEmail: string }) => Promise<void> = async () => {},
): Promise<Result<{ email: string }>> {
  const limited = await limit(deps, [[RATE_LIMITS.tokenByClient, input.client]]);
  if (limited) return limited;
  if (!isWellFormedSecret(input.token)) return fail(400, MESSAGES.linkInvalid);
  const now = deps.clock.now();
  const result = await writeTransaction(deps.db, async (trx) => {
    const token = await repo.consumeToken(trx, hashSecret(input.token), 'email_change', now);
    if (!token?.user_id || !token.email) return null;
    const row = await repo.findUserRowById(trx, token.user_id);
    if (!row) return null;
    // The address may have been taken since the link was sent.
    if (await repo.findUserRowByEmail(trx, token.email)) return 'taken' as const;
    await repo.updateUser(trx, row.id, { email: token.email, email_verified_at: toTimestamp(now), updated_at: toTimestamp(now) });
    // Links sent to the old address (sign-in, reset) must not act for the account any more.
    await repo.retireAllTokens(trx, row.id, now);
    await onChanged(trx, { userId: row.id, oldEmail: row.email, newEmail: token.email });
    await notify(deps, trx, row.email, emailChangedMail({ siteUrl: deps.siteUrl, newEmail: token.email }));
    return { oldEmail: row.email, newEmail: token.email };
  }).catch((error: unknown) => {
    // Two confirmations racing for one address: the unique index decides, the loser is told.
    if (/unique|constraint/i.test(String((error as Error).message))) return 'taken' as const;
    throw error;
  });
  if (result === null) return fail(400, MESSAGES.linkInvalid);
  if (result === 'taken') return fail(409, MESSAGES.emailTaken);
  deps.jobs.wake();
  return { ok: true, email: result.newEmail };
}

// ——— Users ———

/** Creates a user (demo seeds, later the checkout). Returns its id. */
export async function createUser(
  db: Kysely<Database>,
  /** `emailVerified: false` for an account whose address is still to be confirmed (`scheduleSignUpConfirmation`). */
  input: { email: string; password?: string; givenName?: string; familyName?: string; role?: repo.User['role']; now: Date; emailVerified?: boolean },
): Promise<string> {
  const id = newId();
  await repo.insertUser(db, {
    id,
    email: repo.normaliseEmail(input.email),
    password_hash: input.password ? await hashPassword(input.password) : null,
    given_name: input.givenName ?? '',
    family_name: input.familyName ?? '',
    role: input.role ?? 'reader',
    email_verified_at: input.emailVerified === false ? null : toTimestamp(input.now),
    created_at: toTimestamp(input.now),
    updated_at: toTimestamp(input.now),
  });
  return id;
}

// ——— Confirmation of a new account's address ———

/**
 * Mails a new account the link that confirms its address. `origin` is the rate-limit key of the
 * network it was created from: its confirmation lightens that network's sign-up count, if it comes
 * within the hour the account was created in (`recordConfirmation`).
 */
export async function scheduleSignUpConfirmation(deps: ServerDeps, input: { userId: string; origin: string }): Promise<void> {
  await schedule(deps, deps.db, SIGN_UP_CONFIRM, input);
  deps.jobs.wake();
}

/** The job behind it: the token is created here, so that no live secret waits in the jobs table. */
export async function sendSignUpConfirmationNow(deps: ServerDeps, input: { userId: string; origin: string }): Promise<void> {
  const row = await repo.findUserRowById(deps.db, input.userId);
  if (!row || row.email_verified_at) return;
  const now = deps.clock.now();
  const token = await writeTransaction(deps.db, async (trx) => {
    await repo.retireTokens(trx, row.id, 'signup_confirm', now);
    return issueToken(trx, 'signup_confirm', now, { userId: row.id, email: row.email, payload: { origin: input.origin } });
  });
  await deps.mailer.send({ to: row.email, ...signUpConfirmMail({ siteUrl: deps.siteUrl, token }) });
}

/** Confirms a new account's address from its mailed link (on an explicit click). */
export async function confirmSignUp(deps: ServerDeps, input: { token: string; client: string }): Promise<Result<{ email: string }>> {
  const limited = await limit(deps, [[RATE_LIMITS.tokenByClient, input.client]]);
  if (limited) return limited;
  if (!isWellFormedSecret(input.token)) return fail(400, MESSAGES.linkInvalid);
  const now = deps.clock.now();
  const result = await writeTransaction(deps.db, async (trx) => {
    const token = await repo.consumeToken(trx, hashSecret(input.token), 'signup_confirm', now);
    if (!token?.user_id) return null;
    const row = await repo.findUserRowById(trx, token.user_id);
    // The address changed since (and was confirmed then): this link is for an old one.
    if (!row || row.email !== token.email) return null;
    if (!row.email_verified_at) await repo.updateUser(trx, row.id, { email_verified_at: toTimestamp(now), updated_at: toTimestamp(now) });
    const origin = z.object({ origin: z.string().min(1).max(128) }).safeParse(JSON.parse(token.payload ?? 'null'));
    if (origin.success) await recordConfirmation(trx, origin.data.origin, new Date(row.created_at), now);
    return { email: row.email };
  });
  if (!result) return fail(400, MESSAGES.linkInvalid);
  log.info('sign-up confirmed');
  return { ok: true, ...result };
}

/** The user with this id, or undefined (other domains ask here rather than reading `users`). */
export async function findUser(db: Kysely<Database>, userId: string): Promise<repo.User | undefined> {
  const row = await repo.findUserRowById(db, userId);
  return row ? repo.toUser(row) : undefined;
}

/** The user with this address, or undefined. */
export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<repo.User | undefined> {
  const row = await repo.findUserRowByEmail(db, email);
  return row ? repo.toUser(row) : undefined;
}

/** Name and postal address (invoices and share certificates need them). */
export async function updateProfile(
  db: Kysely<Database>,
  input: { userId: string; givenName: string; familyName: string; address: repo.User['address']; now: Date },
): Promise<void> {
  await repo.updateUser(db, input.userId, {
    given_name: input.givenName,
    family_name: input.familyName,
    address_line1: input.address.line1,
    address_line2: input.address.line2,
    postal_code: input.address.postalCode,
    city: input.address.city,
    country: input.address.country,
    updated_at: toTimestamp(input.now),
  });
}

/**
 * Checks the current password of a signed-in user before a grave change (deletion): limited
 * per account. A user without a password (signed in by links only) passes.
 */
export function checkCurrentPassword(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { userId: string; password: string },
): Promise<Result<{ user: repo.User }>> {
  return unlessBusy(async () => {
    const row = await repo.findUserRowById(deps.db, input.userId);
    if (!row) return fail(401, 'Vous n’êtes plus connecté.');
    const limited = await limit(deps, [[RATE_LIMITS.passwordCheckByAccount, row.id]]);
    if (limited) return limited;
    if (row.password_hash && !(await verifyPassword(input.password, row.password_hash))) return fail(403, MESSAGES.wrongPassword);
    return { ok: true, user: repo.toUser(row) };
  });
}

/** What the auth domain holds about a user, for the export of their data (RGPD art. 15 and 20). */
export async function exportUser(db: Kysely<Database>, userId: string) {
  const row = await repo.findUserRowById(db, userId);
  if (!row) return null;
  const user = repo.toUser(row);
  const sessions = await repo.listUserSessions(db, userId);
  return {
    email: user.email,
    given_name: user.givenName,
    family_name: user.familyName,
    address: user.address,
    role: user.role,
    email_verified_at: user.emailVerifiedAt,
    created_at: user.createdAt,
    has_password: user.hasPassword,
    sessions: sessions.map((s) => ({
      created_at: s.created_at,
      last_seen_at: s.last_seen_at,
      expires_at: s.expires_at,
      persistent: s.persistent === 1,
      user_agent: s.user_agent,
    })),
  };
}

/** Deletes the user row; sessions and tokens go with it (foreign keys cascade). */
export async function eraseUser(db: Kysely<Database>, userId: string): Promise<void> {
  await repo.deleteUser(db, userId);
}

// ——— Single-use tokens, for other domains ———

/**
 * Issues a single-use token for another domain's purpose (the newsletter's confirmation): the
 * secret goes in the mail, its hash in `tokens`. Takes the caller's transaction.
 */
export function issueSingleUseToken(
  db: Kysely<Database>,
  purpose: TokenPurpose,
  now: Date,
  fields: { email: string; userId?: string | null },
): Promise<string> {
  return issueToken(db, purpose, now, { userId: fields.userId ?? null, email: fields.email });
}

/** Uses a single-use token of that purpose, in the caller's transaction: the address it was sent to, or null. */
export async function consumeSingleUseToken(
  db: Kysely<Database>,
  secret: string,
  purpose: TokenPurpose,
  now: Date,
): Promise<{ email: string | null; userId: string | null } | null> {
  if (!isWellFormedSecret(secret)) return null;
  const row = await repo.consumeToken(db, hashSecret(secret), purpose, now);
  return row ? { email: row.email, userId: row.user_id } : null;
}
