/**
 * The mail relay's bounce and complaint reports (`/api/newsletter/webhooks/{generic|mailgun}`,
 * docs/newsletter-webhooks.md): POST only, from the relay's servers, so cross-site and without any
 * Origin to check. What is believed is the signature (src/server/newsletter/relay-webhooks.ts),
 * so the body is read as bytes, with a size limit, and verified as it came. A provider without a
 * configured key does not exist here (404). A refusal is a 4xx with a French message, never a 5xx
 * (which the relay would retry for hours); a fault of ours (the database down) is a 500, which it
 * should retry: events already applied are then found as duplicates.
 */
import type { APIRoute } from 'astro';
import { config } from '../../../../server/core/config';
import { log } from '../../../../server/core/log';
import { apiError, json } from '../../../../server/http/json';
import { UNREADABLE_BODY, readBytes } from '../../../../server/http/request-guards';
import { MAX_BODY_BYTES, type RelayProvider, verifyGenericWebhook, verifyMailgunWebhook } from '../../../../server/newsletter/relay-webhooks';
import { applyRelayEvent } from '../../../../server/newsletter/suppression';
import { services } from '../../../../server/runtime';

export const prerender = false;

const isProvider = (name: string | undefined): name is RelayProvider => name === 'generic' || name === 'mailgun';

export const POST: APIRoute = async ({ params, request }) => {
  const provider = params.provider;
  const secret = isProvider(provider) ? config().newsletter.webhooks[provider] : undefined;
  if (!isProvider(provider) || !secret) return apiError(404, 'Adresse inconnue.');
  const read = await readBytes(request, MAX_BODY_BYTES[provider]);
  if (!read.ok) return apiError(read.status, read.message);
  let raw: string;
  try {
    // The BOM is kept: the signature is over the bytes as sent.
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(read.bytes);
  } catch {
    return apiError(400, UNREADABLE_BODY);
  }
  const deps = await services();
  const verdict =
    provider === 'generic' ? verifyGenericWebhook(raw, request.headers, secret, deps.clock.now()) : verifyMailgunWebhook(raw, secret, deps.clock.now());
  if (!verdict.ok) {
    // Only our own sentence: the body may carry addresses.
    log.warn('newsletter relay webhook refused', { provider, status: verdict.status, reason: verdict.message });
    return apiError(verdict.status, verdict.message);
  }
  let applied = 0;
  for (const event of verdict.events) {
    if ((await applyRelayEvent(deps, event)) === 'applied') applied++;
  }
  return json({ ok: true, applied });
};

export const ALL: APIRoute = () => {
  const answer = apiError(405, 'Cette adresse ne reçoit que les notifications du relais de messagerie (POST).');
  answer.headers.set('Allow', 'POST');
  return answer;
};
