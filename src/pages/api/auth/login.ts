/** POST /api/auth/login {email, password, rememberMe} → the user (SPEC §7). */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/api';
import { setSessionCookies } from '../../../server/auth/cookies';
import { publicUser, requestContext } from '../../../server/auth/endpoint';
import { readJsonBody } from '../../../server/auth/request-guards';
import { loginInput } from '../../../server/auth/schema';
import { login } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, loginInput);
  if (!body.ok) return apiError(body.status, body.message);
  const { deps, client, userAgent } = await requestContext(context);
  const result = await login(deps, { ...body.data, userAgent, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  setSessionCookies(context.cookies, result.session, deps.siteUrl);
  return json(publicUser(result.user));
};
