/** One of an assembly's documents, for a member on its roll; anything else is a 404. */
import type { APIRoute } from 'astro';
import { services } from '../../../../../server/runtime';
import { sessionUser } from '../../../../../server/auth/service';
import { SESSION_COOKIE } from '../../../../../server/auth/cookies';
import { memberDocument } from '../../../../../server/shares/ballots';

export const prerender = false;

export const GET: APIRoute = async ({ params, cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const doc = await memberDocument(deps.db, current.user.id, params.id ?? '', params.doc ?? '');
  if (!doc) return rewrite('/404');
  // A public file (the statutes, the accounts): served where it is.
  if (doc.path) return redirect(doc.path, 302);
  return new Response(Buffer.from(doc.bytes!), {
    headers: {
      'Content-Type': doc.contentType,
      'Content-Disposition': `attachment; filename="${doc.filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
