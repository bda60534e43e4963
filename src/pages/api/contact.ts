/** POST /api/contact: a message to the newsroom (stored, mailed, rate-limited, honeypot). */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../server/api';
import { requestContext } from '../../server/auth/endpoint';
import { readJsonBody } from '../../server/auth/request-guards';
import { contactInput, sendContactMessage } from '../../server/contact/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const refused = guardStateChange(context.request);
  if (refused) return refused;
  const body = await readJsonBody(context.request, contactInput, { maxBytes: 32 * 1024 });
  if (!body.ok) return apiError(body.status, body.message);
  const { deps, client } = await requestContext(context);
  const result = await sendContactMessage(deps, { ...body.data, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ ok: true, message: 'Merci, votre message est bien parti. La rédaction vous répond en général sous trois jours ouvrés.' });
};
