/**
 * POST /api/mailinglist/unsubscribe: from a mail provider's one-click button (RFC 8058: form
 * body `List-Unsubscribe=One-Click`, token and newsletter in the query — `?token=…&lettre=…`, as
 * the List-Unsubscribe header writes them —, no Origin header), or from a script of the site
 * ({token, newsletter?} as JSON, origin-checked). With a newsletter, only that one is left (the
 * mail's own); without, every newsletter. The token alone authorises it, and it is idempotent,
 * so the one-click form needs no origin.
 */
import type { APIRoute } from 'astro';
import { apiError, guardStateChange, json } from '../../../server/http/json';
import { requestContext } from '../../../server/http/context';
import { UNREADABLE_BODY, readBytes, readFormBody, readJsonBody } from '../../../server/http/request-guards';
import { unsubscribeInput } from '../../../server/newsletter/schema';
import { leftMessage } from '../../../server/newsletter/reader';
import { unsubscribe } from '../../../server/newsletter/service';

export const prerender = false;

/**
 * The `List-Unsubscribe` field of a one-click POST. RFC 8058 asks senders of the POST for
 * multipart/form-data and allows the urlencoded form, which is what most providers send.
 */
async function oneClickBody(request: Request): Promise<{ ok: true; value: string | null } | { ok: false; status: number; message: string }> {
  if (!(request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    const form = await readFormBody(request, { maxBytes: 1024 });
    return form.ok ? { ok: true, value: form.data.get('List-Unsubscribe') } : form;
  }
  const read = await readBytes(request, 4096);
  if (!read.ok) return read;
  try {
    const data = await new Response(read.bytes as BodyInit, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
    const value = data.get('List-Unsubscribe');
    return { ok: true, value: typeof value === 'string' ? value : null };
  } catch {
    return { ok: false, status: 400, message: UNREADABLE_BODY };
  }
}

export const POST: APIRoute = async (context) => {
  const type = context.request.headers.get('content-type') ?? '';
  let token: string;
  let newsletter: string | undefined;
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    const form = await oneClickBody(context.request);
    if (!form.ok) return apiError(form.status, form.message);
    if (form.value !== 'One-Click') return apiError(400, 'Demande de désinscription invalide.');
    const query = new URL(context.request.url).searchParams;
    token = query.get('token') ?? '';
    newsletter = query.get('lettre') ?? undefined;
  } else {
    const refused = guardStateChange(context.request);
    if (refused) return refused;
    const body = await readJsonBody(context.request, unsubscribeInput);
    if (!body.ok) return apiError(body.status, body.message);
    token = body.data.token;
    newsletter = body.data.newsletter;
  }
  if (!token) return apiError(400, 'Lien de désinscription incomplet.');
  const { deps } = await requestContext(context);
  const result = await unsubscribe(deps, { token, newsletter });
  if (!result.ok) return apiError(result.status, result.message);
  return json({ ok: true, newsletters: result.newsletters, message: leftMessage(newsletter) });
};

/**
 * GET: a mail client without one-click opens the List-Unsubscribe address in a browser. It is
 * sent on to the unsubscribe page with the same token and newsletter, where one click acts (a
 * GET never unsubscribes: link checkers and previews follow links).
 */
export const GET: APIRoute = (context) => {
  const from = new URL(context.request.url).searchParams;
  const to = new URLSearchParams();
  for (const name of ['token', 'lettre']) {
    const value = from.get(name);
    if (value && value.length <= 200) to.set(name, value);
  }
  return new Response(null, { status: 303, headers: { Location: `/mailinglist/unsubscribe?${to}`, 'Cache-Control': 'no-store' } });
};
