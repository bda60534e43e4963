/**
 * The account created at the support path's account step (/soutenir/mon-compte): the site has
 * no other sign-up, accounts come with a first subscription, donation or share (CGV art. 4).
 *
 * Composed from the auth domain's service functions — `createUser` (documented for the
 * checkout), then `login`, which opens the session with its own rate limits — rather than a new
 * auth use case, because src/server belongs to the core. Candidate to move into
 * src/server/auth/service.ts as `createAccount`.
 *
 * An address that already has an account is refused with a message that says so: an account
 * step has to tell the reader to sign in instead. Attempts are rate-limited per client so that
 * the page cannot be used to test many addresses.
 */
import type { AstroGlobal } from 'astro';
import { z } from 'zod';
import { setSessionCookies } from '../../server/auth/cookies';
import { sessionToken } from '../../server/auth/request';
import { failWith, FIELD_LABELS, readForm, type FormValues } from '../../server/http/forms';
import { redirectWithFlash } from '../../server/http/flash';
import { pageRequest } from '../../server/http/page-context';
import { createUser, findUserByEmail, login, type NewSession } from '../../server/auth/service';
import { PasswordHashingBusy, validateNewPassword } from '../../server/auth/passwords';
import type { ServerDeps } from '../../server/core/deps';
import { fail, type Result } from '../../server/core/result';
import { limit, MINUTE, type RateLimitRule } from '../../server/rate-limit/rate-limit';

/** Accounts created from one client: enough for a household, not for probing addresses. */
export const NEW_ACCOUNT_BY_CLIENT: RateLimitRule = { name: 'signup:client', limit: 10, windowMs: 60 * MINUTE };

export const ACCOUNT_TAKEN = 'Un compte existe déjà avec cette adresse e-mail : connectez-vous pour continuer, avec votre mot de passe ou un lien de connexion.';

export const newAccountForm = z.object({
  form: z.literal('compte'),
  email: z.string().trim().max(254, 'Adresse e-mail trop longue.').pipe(z.email('Adresse e-mail invalide.')),
  given_name: z.string().trim().min(1, 'Indiquez votre prénom.').max(100, 'Prénom : 100 caractères au plus.'),
  family_name: z.string().trim().min(1, 'Indiquez votre nom.').max(100, 'Nom : 100 caractères au plus.'),
  password: z.string().max(1024, 'Mot de passe trop long.'),
});
export type NewAccountInput = z.infer<typeof newAccountForm>;

const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test(error instanceof Error ? error.message : String(error));

/** Creates the account and signs it in (a browser session, as without « Se souvenir de moi »). */
export async function createAccountAndSignIn(
  deps: ServerDeps,
  input: NewAccountInput,
  request: { client: string; userAgent: string | null; previousToken: string | undefined },
): Promise<Result<{ session: NewSession }>> {
  const limited = await limit(deps, [[NEW_ACCOUNT_BY_CLIENT, request.client]]);
  if (limited) return limited;
  const weak = validateNewPassword(input.password);
  if (weak) return fail(400, weak);
  if (await findUserByEmail(deps.db, input.email)) return fail(409, ACCOUNT_TAKEN);
  try {
    await createUser(deps.db, { email: input.email, password: input.password, givenName: input.given_name, familyName: input.family_name, now: deps.clock.now() });
  } catch (error) {
    // The same address sent twice at once: the second finds it taken.
    if (isUniqueViolation(error)) return fail(409, ACCOUNT_TAKEN);
    if (error instanceof PasswordHashingBusy) return fail(503, 'Le service est très sollicité. Réessayez dans quelques secondes.', 5);
    throw error;
  }
  const signedIn = await login(deps, { email: input.email, password: input.password, rememberMe: false, userAgent: request.userAgent, client: request.client, previousToken: request.previousToken });
  return signedIn.ok ? { ok: true, session: signedIn.session } : signedIn;
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
  const created = await createAccountAndSignIn(deps, form.data, { client, userAgent, previousToken: sessionToken(astro) });
  if (!created.ok) return { error: failWith(astro.response, created).message, values: form.values };
  setSessionCookies(astro.cookies, created.session, deps.siteUrl);
  return { redirect: redirectWithFlash(astro.cookies, next, { kind: 'success', message }) };
}
