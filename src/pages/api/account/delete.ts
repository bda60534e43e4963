/** POST /api/account/delete {password, confirmation: 'SUPPRIMER'}: deletes the account. */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { userRequest } from '../../../server/auth/request';
import { clearSessionCookies } from '../../../server/auth/cookies';
import { deleteAccountInput } from '../../../server/auth/schema';
import { deleteAccount } from '../../../server/account/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await userRequest(context, deleteAccountInput);
  if (!req.ok) return req.response;
  const result = await deleteAccount(req.deps, { userId: req.user.id, password: req.body.password });
  if (!result.ok) return apiError(result.status, result.message);
  clearSessionCookies(context.cookies);
  return json({ ok: true, message: 'Votre compte est supprimé.' });
};
