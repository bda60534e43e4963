/** POST /api/mailinglist/confirm {token}: confirms a subscription from its mailed link. */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { jsonRequest } from '../../../server/http/json-request';
import { tokenInput } from '../../../server/auth/schema';
import { confirm } from '../../../server/newsletter/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await jsonRequest(context, tokenInput);
  if (!req.ok) return req.response;
  const { deps } = req;
  const result = await confirm(deps, { token: req.body.token });
  if (!result.ok) return apiError(result.status, result.message);
  return json({ ok: true, message: 'C’est confirmé : vous recevrez les lettres d’information que vous avez choisies.' });
};
