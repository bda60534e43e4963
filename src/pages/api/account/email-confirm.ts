/** POST /api/account/email-confirm {token}: confirms a new address from its link. */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/api';
import { requestContext } from '../../../server/auth/endpoint';
import { readJsonBody } from '../../../server/auth/request-guards';
import { tokenInput } from '../../../server/auth/schema';
import { confirmEmailChange } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, tokenInput);
  if (!body.ok) return apiError(body.status, body.message);
  const { deps, client } = await requestContext(context);
  const result = await confirmEmailChange(deps, { token: body.data.token, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ ok: true, message: `C’est fait : ${result.email} est désormais l’adresse de votre compte.` });
};
