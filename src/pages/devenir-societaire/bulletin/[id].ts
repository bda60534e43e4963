/**
 * The subscriber's own bulletin as a PDF, two copies, countersigned once admitted (SPEC:
 * /devenir-societaire/bulletin/{id}, auth required). Any other id, another member's too, is a 404.
 */
import type { APIRoute } from 'astro';
import { services } from '../../../server/runtime';
import { sessionUser } from '../../../server/auth/service';
import { SESSION_COOKIE } from '../../../server/auth/cookies';
import { bulletinPdf } from '../../../server/shares/service';

export const prerender = false;

export const GET: APIRoute = async ({ params, cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const pdf = await bulletinPdf(deps, current.user.id, params.id ?? '');
  if (!pdf) return rewrite('/404');
  return new Response(Buffer.from(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': 'attachment; filename="bulletin-de-souscription-contrechamp.pdf"',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
