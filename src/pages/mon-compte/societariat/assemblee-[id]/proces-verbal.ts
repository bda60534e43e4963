/** The minutes of a closed assembly, for a member on its roll; anything else is a 404. */
import type { APIRoute } from 'astro';
import { services } from '../../../../server/runtime';
import { sessionUser } from '../../../../server/auth/service';
import { SESSION_COOKIE } from '../../../../server/auth/cookies';
import { memberMinutesPdf } from '../../../../server/shares/assemblies';

export const prerender = false;

export const GET: APIRoute = async ({ params, cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const pdf = await memberMinutesPdf(deps, current.user.id, params.id ?? '');
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
