/** POST /api/auth/token {token}: signs in with a sign-in link's token (SPEC §7). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { jsonRequest } from '../../../server/http/json-request';
import { setSessionCookies } from '../../../server/auth/cookies';
import { publicUser, sessionToken } from '../../../server/auth/request';
import { tokenInput } from '../../../server/auth/schema';
import { redeemMagicLink } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await jsonRequest(context, tokenInput);
  if (!req.ok) return req.response;
  const { deps, client, userAgent } = req;
  const result = await redeemMagicLink(deps, { token: req.body.token, userAgent, client, previousToken: sessionToken(context) });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  setSessionCookies(context.cookies, result.session, deps.siteUrl);
  return json(publicUser(result.user));
};
