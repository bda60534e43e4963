/**
 * POST /api/mailinglist/ {email, newsletters?}, with the site's public client credential (SPEC
 * §7): starts a double opt-in for the newsletters chosen (ids of newsletters open to all; the
 * default one when none is named). The answer is the same whether the address is new, pending
 * or subscribed.
 */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/http/json';
import { requestContext } from '../../../server/http/context';
import { readJsonBody } from '../../../server/http/request-guards';
import { signupInput } from '../../../server/newsletter/schema';
import { NEWSLETTER_CLIENT_ID, subscribe } from '../../../server/newsletter/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  if (context.request.headers.get('x-client-id') !== NEWSLETTER_CLIENT_ID) return apiError(401, 'Client non autorisé.');
  const body = await readJsonBody(context.request, signupInput);
  if (!body.ok) return apiError(body.status, body.message);
  const { deps, client } = await requestContext(context);
  const result = await subscribe(deps, { email: body.data.email, client, ...(body.data.newsletters ? { newsletters: body.data.newsletters } : {}) });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ ok: true, message: 'Un e-mail de confirmation vient de vous être envoyé.' }, 202);
};
