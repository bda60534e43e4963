/** POST /api/auth/magic-link {email}: mails a sign-in link if the address has an account. */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { jsonRequest } from '../../../server/http/json-request';
import { emailInput } from '../../../server/auth/schema';
import { requestMagicLink } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await jsonRequest(context, emailInput);
  if (!req.ok) return req.response;
  const { deps, client } = req;
  const result = await requestMagicLink(deps, { email: req.body.email, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  // The same answer whether or not the address has an account.
  return json({ ok: true, message: 'Si un compte existe à cette adresse, un lien de connexion vient d’y être envoyé. Il est valable 15 minutes.' });
};
