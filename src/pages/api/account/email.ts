/** POST /api/account/email: start a change of address (confirmed from the new address). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../../server/http/json';
import { userRequest } from '../../../server/auth/request';
import { changeEmailInput } from '../../../server/auth/schema';
import { requestEmailChange } from '../../../server/auth/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await userRequest(context, changeEmailInput);
  if (!req.ok) return req.response;
  const result = await requestEmailChange(req.deps, { userId: req.user.id, newEmail: req.body.new_email, password: req.body.password, client: req.client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ ok: true, message: `Pour confirmer, cliquez sur le lien envoyé à ${req.body.new_email}. Il est valable 24 heures.` });
};
