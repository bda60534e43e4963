/** GET /api/auth/me → the signed-in user, or 401 (SPEC §7). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { clearSessionCookies } from '../../../server/auth/cookies';
import { currentUser, publicUser, sessionToken } from '../../../server/auth/request';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const current = await currentUser(context);
  if (!current) {
    // A stale cookie: forget it, so that the page stops asking.
    if (sessionToken(context)) clearSessionCookies(context.cookies);
    return apiError(401, 'Vous n’êtes pas connecté.');
  }
  return json(publicUser(current.user));
};
