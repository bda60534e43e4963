/** POST /api/account/password: change the password (the current one is required). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/api';
import { memberRequest } from '../../../server/auth/json-request';
import { setSessionCookies } from '../../../server/auth/cookies';
import { changePasswordInput } from '../../../server/auth/schema';
import { changePassword } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await memberRequest(context, changePasswordInput);
  if (!req.ok) return req.response;
  const persistent = (await req.deps.db.selectFrom('sessions').select('persistent').where('id_hash', '=', req.sessionHash).executeTakeFirst())?.persistent === 1;
  const result = await changePassword(req.deps, { userId: req.user.id, currentPassword: req.body.current_password, newPassword: req.body.new_password, persistent, userAgent: req.userAgent });
  if (!result.ok) return apiError(result.status, result.message);
  setSessionCookies(context.cookies, result.session, req.deps.siteUrl);
  return json({ ok: true, message: 'Votre mot de passe est modifié. Vos autres sessions sont fermées.' });
};
