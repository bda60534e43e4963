/** POST /api/auth/login {email, password, rememberMe} → the user (SPEC §7). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { jsonRequest } from '../../../server/http/json-request';
import { knownDeviceCookie, setKnownDeviceCookie, setSessionCookies } from '../../../server/auth/cookies';
import { publicUser, sessionToken } from '../../../server/auth/request';
import { loginInput } from '../../../server/auth/schema';
import { login } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await jsonRequest(context, loginInput);
  if (!req.ok) return req.response;
  const { deps, client, userAgent } = req;
  // The session the browser had before (if any) ends: a new one is issued.
  const result = await login(deps, { ...req.body, userAgent, client, previousToken: sessionToken(context), knownDevice: knownDeviceCookie(context.cookies) });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  setSessionCookies(context.cookies, result.session, deps.siteUrl);
  setKnownDeviceCookie(context.cookies, result.device, deps.siteUrl);
  return json(publicUser(result.user));
};
