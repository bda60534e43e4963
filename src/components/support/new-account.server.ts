/**
 * The account created at the support path's account step (/soutenir/mon-compte): the site has
 * no other sign-up, accounts come with a first subscription, donation or share (CGV art. 4).
 *
 * Composed from the auth domain's service functions — `createUser` (documented for the
 * checkout), then `startNewAccountSession` (the password was set in this request: no sign-in
 * limit, no second derivation) — rather than a new
 * auth use case, because src/server belongs to the core. Candidate to move into
 * src/server/auth/service.ts as `createAccount`.
 *
 * An address that already has an account is refused with a message that says so: an account
 * step has to tell the reader to sign in instead. Sign-ups from one network go through
 * `auth/sign-up-guard.ts`: free while its accounts confirm their address, then a challenge
 * (embedded in the form before it is sent, `signUpChallenge`), then refused; probing addresses
 * counts as evidence against the network, and so does an address the newsletters' suppression
 * list knows to bounce (`knownBounce`: the address, or its domain, takes no mail; evidence only,
 * never a refusal by itself). The sign-up is counted before the password is hashed
 * (`reserveSignUp`) and given back if no account comes of it, so that forms sent at once cannot
 * all slip under the limits.
 */
import type { AstroGlobal } from 'astro';
import { z } from 'zod';
import { knownDeviceCookie, setKnownDeviceCookie, setSessionCookies } from '../../server/auth/cookies';
import { sessionToken } from '../../server/auth/request';
import { failWith, FIELD_LABELS, readForm, type FormValues } from '../../server/http/forms';
import { redirectWithFlash } from '../../server/http/flash';
import { pageRequest } from '../../server/http/page-context';
import { createUser, findUserByEmail, scheduleSignUpConfirmation, startNewAccountSession, type NewSession } from '../../server/auth/service';
import { PasswordHashingBusy, validateNewPassword } from '../../server/auth/passwords';
import {
  checkAnswer,
  offerChallenge,
  recordEvidence,
  refusalMessage,
  reserveSignUp,
  signUpVerdict,
  spendChallenge,
  SIGN_UP_LIMITS,
  SIGN_UP_MESSAGES,
  type Challenge,
  type Verdict,
} from '../../server/auth/sign-up-guard';
import type { ServerDeps } from '../../server/core/deps';
import { fail, type Result } from '../../server/core/result';
import { limit } from '../../server/rate-limit/rate-limit';
import { knownBounce } from '../../server/newsletter/suppression';

export const ACCOUNT_TAKEN =
  'Un compte existe déjà avec cette adresse e-mail : connectez-vous pour continuer, avec votre mot de passe ou un lien de connexion.';

export const newAccountForm = z.object({
  form: z.literal('compte'),
  email: z.string().trim().max(254, 'Adresse e-mail trop longue.').pipe(z.email('Adresse e-mail invalide.')),
  given_name: z.string().trim().min(1, 'Indiquez votre prénom.').max(100, 'Prénom : 100 caractères au plus.'),
  family_name: z.string().trim().min(1, 'Indiquez votre nom.').max(100, 'Nom : 100 caractères au plus.'),
  password: z.string().max(1024, 'Mot de passe trop long.'),
  /** The challenge embedded in the form, when the network has to answer one, and its answer. */
  defi: z.string().max(200).optional(),
  preuve: z.string().max(32).optional(),
});
export type NewAccountInput = z.infer<typeof newAccountForm>;

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test(error instanceof Error ? error.message : String(error));

/** The challenge a sign-up form from this network must carry now, if any. */
export async function signUpChallenge(deps: Pick<ServerDeps, 'db' | 'clock'>, client: string): Promise<Challenge | null> {
  const now = deps.clock.now();
  const verdict = await signUpVerdict(deps.db, client, now);
  return verdict.kind === 'challenge' ? offerChallenge(deps.db, client, verdict, now) : null;
}

/**
 * Creates the account and signs it in (a browser session, as without « Se souvenir de moi »), then
 * mails the link that confirms its address. `device` is the known-device cookie to set, as after
 * a password sign-in.
 */
export async function createAccountAndSignIn(
  deps: ServerDeps,
  input: NewAccountInput,
  request: { client: string; userAgent: string | null; previousToken: string | undefined; knownDevice?: string | undefined },
): Promise<Result<{ session: NewSession; device: { value: string; expiresAt: Date } | null }>> {
  const limited = await limit(deps, [[SIGN_UP_LIMITS.attemptsByClient, request.client]], SIGN_UP_MESSAGES.tooMany);
  if (limited) return limited;
  const weak = validateNewPassword(input.password);
  if (weak) return fail(400, weak);
  const now = deps.clock.now();
  const bounced = (await knownBounce(deps.db, input.email)) !== null;
  // Counted now, before the slow hash, and given back if no account comes of it.
  const reservation = await reserveSignUp(deps.db, request.client, input.email, now, { bounced });
  let created: Result<{ userId: string }>;
  try {
    created = await createReserved(deps, input, request.client, reservation.verdict, now);
  } catch (error) {
    await reservation.release();
    throw error;
  }
  if (!created.ok) {
    await reservation.release();
    return created;
  }
  const { userId } = created;
  await scheduleSignUpConfirmation(deps, { userId, origin: request.client });
  const { session, device } = await startNewAccountSession(deps, {
    userId,
    userAgent: request.userAgent,
    previousToken: request.previousToken,
    knownDevice: request.knownDevice,
  });
  return { ok: true, session, device };
}

/** The sign-up once counted: through its verdict, then the account created (or why not). */
async function createReserved(deps: ServerDeps, input: NewAccountInput, client: string, verdict: Verdict, now: Date): Promise<Result<{ userId: string }>> {
  if (verdict.kind === 'refused') return fail(429, refusalMessage(verdict), verdict.retryAfterSeconds);
  if (verdict.kind === 'challenge') {
    const answered = checkAnswer(client, input.defi, input.preuve, now, verdict.bits) && (await spendChallenge(deps.db, input.defi ?? ''));
    // The form shown again carries a fresh challenge (NewAccountForm asks `signUpChallenge`).
    if (!answered) return fail(429, SIGN_UP_MESSAGES.challenged(verdict.waitSeconds), verdict.waitSeconds);
  }
  if (await findUserByEmail(deps.db, input.email)) {
    await recordEvidence(deps.db, client, 'addressTaken', now);
    return fail(409, ACCOUNT_TAKEN);
  }
  try {
    const userId = await createUser(deps.db, {
      email: input.email,
      password: input.password,
      givenName: input.given_name,
      familyName: input.family_name,
      now,
      emailVerified: false,
    });
    return { ok: true, userId };
  } catch (error) {
    // The same address sent twice at once: the second finds it taken.
    if (isUniqueViolation(error)) return fail(409, ACCOUNT_TAKEN);
    if (error instanceof PasswordHashingBusy) return fail(503, 'Le service est très sollicité. Réessayez dans quelques secondes.', 5);
    throw error;
  }
}

/**
 * An account step's « Je crée mon compte » (the support path's, the shares path's): reads the
 * form, creates the account, signs it in, and answers the redirect to `next` with `message`; or
 * the refusal to show on the page again (its status set), with what was typed.
 */
export async function signUpAtAccountStep(
  astro: AstroGlobal,
  next: string,
  message: string,
): Promise<{ redirect: Response } | { error: string; values: FormValues }> {
  const form = await readForm(astro.request, newAccountForm, { labels: FIELD_LABELS });
  if (!form.ok) return { error: failWith(astro.response, form).message, values: form.values };
  const { deps, client, userAgent } = await pageRequest(astro);
  const created = await createAccountAndSignIn(deps, form.data, {
    client,
    userAgent,
    previousToken: sessionToken(astro),
    knownDevice: knownDeviceCookie(astro.cookies),
  });
  if (!created.ok) return { error: failWith(astro.response, created).message, values: form.values };
  setSessionCookies(astro.cookies, created.session, deps.siteUrl);
  if (created.device) setKnownDeviceCookie(astro.cookies, created.device, deps.siteUrl);
  return { redirect: redirectWithFlash(astro.cookies, next, { kind: 'success', message }) };
}
