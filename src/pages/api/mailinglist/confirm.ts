/** POST /api/mailinglist/confirm {token}: confirms a subscription from its mailed link. */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/api';
import { requestContext } from '../../../server/auth/endpoint';
import { readJsonBody } from '../../../server/auth/request-guards';
import { tokenInput } from '../../../server/auth/schema';
import { confirm } from '../../../server/newsletter/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, tokenInput);
  if (!body.ok) return apiError(body.status, body.message);
  const { deps } = await requestContext(context);
  const result = await confirm(deps, { token: body.data.token });
  if (!result.ok) return apiError(result.status, result.message);
  return json({ ok: true, message: 'C’est confirmé : vous recevrez la lettre d’information chaque vendredi.' });
};
