/** GET /api/auth/me → the signed-in user, or 401 (SPEC §7). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { clearSessionCookies } from '../../../server/auth/cookies';
import { publicUser, requestContext } from '../../../server/http/context';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const { session, token } = await requestContext(context);
  const current = await session();
  if (!current) {
    // A stale cookie: forget it, so that the page stops asking.
    if (token) clearSessionCookies(context.cookies);
    return apiError(401, 'Vous n’êtes pas connecté.');
  }
  return json(publicUser(current.user));
};
