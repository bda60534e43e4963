/** POST /api/account/email-confirm {token}: confirms a new address from its link. */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { jsonRequest } from '../../../server/http/json-request';
import { tokenInput } from '../../../server/auth/schema';
import { confirmEmailChange } from '../../../server/account/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await jsonRequest(context, tokenInput);
  if (!req.ok) return req.response;
  const { deps, client } = req;
  const result = await confirmEmailChange(deps, { token: req.body.token, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ ok: true, message: `C’est fait : ${result.email} est désormais l’adresse de votre compte.` });
};
