/**
 * POST /api/rebuild: a publication. The CMS calls it signed (src/server/editorial/webhook.ts); an
 * editor's session may call it too, from this site only (origin check). Answers 202 with the
 * build that will publish it: a burst of publications gives one build.
 */
import type { APIRoute } from 'astro';
import { apiError, json } from '../../server/http/json';
import { checkOrigin, readBytes } from '../../server/http/request-guards';
import { config } from '../../server/core/config';
import { services } from '../../server/runtime';
import { sessionUser } from '../../server/auth/service';
import { SESSION_COOKIE } from '../../server/auth/cookies';
import { isEditor } from '../../server/editorial/guard';
import { publish } from '../../server/editorial/service';
import { MAX_BODY_BYTES, SIGNATURE_HEADER, TIMESTAMP_HEADER, rebuildSecret, verifyRebuild } from '../../server/editorial/webhook';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const { request } = context;
  const deps = await services();
  const signature = request.headers.get(SIGNATURE_HEADER);
  const timestamp = request.headers.get(TIMESTAMP_HEADER);
  let userId: string | null = null;
  if (signature !== null || timestamp !== null) {
    const body = await readBytes(request, MAX_BODY_BYTES);
    if (!body.ok) return apiError(400, body.status === 413 ? `Notification trop volumineuse (au plus ${MAX_BODY_BYTES / 1024} Ko).` : body.message);
    const verdict = verifyRebuild({ secret: rebuildSecret(), body: body.bytes, timestamp, signature, now: deps.clock.now() });
    if (!verdict.ok) return apiError(verdict.status, verdict.message);
  } else {
    // Without a signature: an editor's session, from this site.
    const current = await sessionUser(deps, context.cookies.get(SESSION_COOKIE)?.value);
    if (!current || !isEditor(current.user))
      return apiError(401, 'Notification non signée : les en-têtes X-Contrechamp-Timestamp et X-Contrechamp-Signature sont requis.');
    const refusal = checkOrigin(request, config().siteUrl.origin);
    if (refusal) return apiError(refusal.status, refusal.message);
    userId = current.user.id;
  }
  const queued = await publish(deps, { trigger: userId ? 'editor' : 'cms', userId });
  return json({ ok: true, build: { id: queued.id, notBefore: queued.notBefore.toISOString(), joined: queued.joined } }, 202);
};

export const ALL: APIRoute = () => apiError(405, 'Méthode non autorisée : POST uniquement.');
