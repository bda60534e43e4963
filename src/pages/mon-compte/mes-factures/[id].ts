/** The PDF of one of the reader's documents; any other id (another reader's too) is a 404. */
import type { APIRoute } from 'astro';
import { services } from '../../../server/runtime';
import { sessionUser } from '../../../server/auth/service';
import { SESSION_COOKIE } from '../../../server/auth/cookies';
import { userDocumentPdf } from '../../../server/billing/service';

export const prerender = false;

export const GET: APIRoute = async ({ params, cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const pdf = await userDocumentPdf(deps, current.user.id, params.id ?? '');
  if (!pdf) return rewrite('/404');
  return new Response(Buffer.from(pdf.bytes), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${pdf.filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
