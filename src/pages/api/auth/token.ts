/** POST /api/auth/token {token}: signs in with a sign-in link's token (SPEC §7). */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/api';
import { setSessionCookies } from '../../../server/auth/cookies';
import { publicUser, requestContext } from '../../../server/auth/endpoint';
import { readJsonBody } from '../../../server/auth/request-guards';
import { tokenInput } from '../../../server/auth/schema';
import { redeemMagicLink } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, tokenInput);
  if (!body.ok) return apiError(body.status, body.message);
  const { deps, client, userAgent } = await requestContext(context);
  const result = await redeemMagicLink(deps, { token: body.data.token, userAgent, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  setSessionCookies(context.cookies, result.session, deps.siteUrl);
  return json(publicUser(result.user));
};
