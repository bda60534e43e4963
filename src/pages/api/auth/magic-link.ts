/** POST /api/auth/magic-link {email}: mails a sign-in link if the address has an account. */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/api';
import { requestContext } from '../../../server/auth/endpoint';
import { readJsonBody } from '../../../server/auth/request-guards';
import { emailInput } from '../../../server/auth/schema';
import { requestMagicLink } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, emailInput);
  if (!body.ok) return apiError(body.status, body.message);
  const { deps, client } = await requestContext(context);
  const result = await requestMagicLink(deps, { email: body.data.email, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  // The same answer whether or not the address has an account.
  return json({ ok: true, message: 'Si un compte existe à cette adresse, un lien de connexion vient d’y être envoyé. Il est valable 15 minutes.' });
};
