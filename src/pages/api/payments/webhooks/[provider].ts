/**
 * The payment provider's notifications (`/api/payments/webhooks/{provider}`): POST only, from
 * the provider's servers, so cross-site and without any Origin to check. What is believed is the
 * signature over the raw body (checked by the provider adapter), so the body is read as bytes,
 * with a size limit, and handed over untouched. A bad signature, a body that is not an event or
 * an unknown provider is a 4xx with a French message, never a 5xx; an event ahead of what it is
 * about (a refund before its payment is known) is a 409, nothing recorded, which the provider
 * retries until it applies; a fault of ours (the database down) is a 500, which it retries too.
 * Every answer is JSON, the 500 included (src/middleware.ts).
 */
import type { APIRoute } from 'astro';
import { handlePaymentWebhook } from '../../../../server/checkout/service';
import { apiError, json } from '../../../../server/http/json';
import { readBytes } from '../../../../server/http/request-guards';
import { services } from '../../../../server/runtime';

export const prerender = false;

/** Stripe's largest events (an invoice with many lines) stay well under this. */
const MAX_BYTES = 256 * 1024;

export const POST: APIRoute = async ({ params, request }) => {
  const read = await readBytes(request, MAX_BYTES);
  if (!read.ok) return apiError(read.status, read.message);
  const deps = await services();
  const result = await handlePaymentWebhook(deps, params.provider ?? '', read.bytes, request.headers);
  if (!result.ok) return apiError(result.status, result.message, result.retryAfterSeconds);
  return json({ received: true });
};

export const ALL: APIRoute = () => {
  const answer = apiError(405, 'Cette adresse ne reçoit que les notifications du prestataire de paiement (POST).');
  answer.headers.set('Allow', 'POST');
  return answer;
};
