/** POST /api/contact: a message to the address of its subject (stored, mailed, rate-limited, honeypot). */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../server/http/json';
import { jsonRequest } from '../../server/http/json-request';
import { contactInput, sendContactMessage } from '../../server/contact/service';
import { CONTACT_ACKNOWLEDGEMENTS } from '../../config/contact';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const req = await jsonRequest(context, contactInput, { maxBytes: 32 * 1024 });
  if (!req.ok) return req.response;
  const { deps, client } = req;
  const result = await sendContactMessage(deps, { ...req.body, client });
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ ok: true, message: CONTACT_ACKNOWLEDGEMENTS[req.body.subject] });
};
