/** POST /api/auth/logout: ends the session on the server and clears the cookies (SPEC §7). */
import type { APIRoute } from 'astro';
import { guardStateChange, json } from '../../../server/http/json';
import { clearSessionCookies } from '../../../server/auth/cookies';
import { requestContext } from '../../../server/http/context';
import { sessionToken } from '../../../server/auth/request';
import { logout } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  // No body is expected: the origin check alone guards it.
  const refused = guardStateChange(context.request, { jsonBody: false });
  if (refused) return refused;
  const { deps } = await requestContext(context);
  await logout(deps, sessionToken(context));
  clearSessionCookies(context.cookies);
  return json({ ok: true });
};
