/** POST /api/account/password: change the password (the current one is required). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { userRequest } from '../../../server/auth/request';
import { setSessionCookies } from '../../../server/auth/cookies';
import { changePasswordInput } from '../../../server/auth/schema';
import { changePassword } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await userRequest(context, changePasswordInput);
  if (!req.ok) return req.response;
  // The new session keeps the kind of the one it replaces (“Se souvenir de moi” or not).
  const result = await changePassword(req.deps, {
    userId: req.user.id,
    currentPassword: req.body.current_password,
    newPassword: req.body.new_password,
    persistent: req.persistent,
    userAgent: req.userAgent,
  });
  if (!result.ok) return apiError(result.status, result.message);
  setSessionCookies(context.cookies, result.session, req.deps.siteUrl);
  return json({ ok: true, message: 'Votre mot de passe est modifié. Vos autres sessions sont fermées.' });
};
