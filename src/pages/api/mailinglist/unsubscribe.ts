/**
 * POST /api/mailinglist/unsubscribe: from the site's page ({token} as JSON, origin-checked), or
 * from a mail provider's one-click button (RFC 8058: form body `List-Unsubscribe=One-Click`,
 * token in the query, no Origin header). The token alone authorises it, and it is idempotent,
 * so the one-click form needs no origin.
 */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/http/json';
import { requestContext } from '../../../server/http/context';
import { readFormBody, readJsonBody } from '../../../server/http/request-guards';
import { tokenInput } from '../../../server/auth/schema';
import { unsubscribe } from '../../../server/newsletter/service';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const type = context.request.headers.get('content-type') ?? '';
  let token: string;
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const form = await readFormBody(context.request, { maxBytes: 1024 });
    if (!form.ok) return apiError(form.status, form.message);
    if (form.data.get('List-Unsubscribe') !== 'One-Click') return apiError(400, 'Demande de désinscription invalide.');
    token = new URL(context.request.url).searchParams.get('token') ?? '';
  } else {
    const refused = guardStateChange(context.request);
    if (refused) return refused;
    const body = await readJsonBody(context.request, tokenInput);
    if (!body.ok) return apiError(body.status, body.message);
    token = body.data.token;
  }
  const { deps } = await requestContext(context);
  const result = await unsubscribe(deps, { token });
  if (!result.ok) return apiError(result.status, result.message);
  return json({ ok: true, message: 'Vous êtes désinscrit : vous ne recevrez plus la lettre d’information.' });
};
