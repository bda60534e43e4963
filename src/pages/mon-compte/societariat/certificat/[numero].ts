/** The member's own share certificate as a PDF; another member's number is a 404. */
import type { APIRoute } from 'astro';
import { services } from '../../../../server/runtime';
import { sessionUser } from '../../../../server/auth/service';
import { SESSION_COOKIE } from '../../../../server/auth/cookies';
import { certificatePdf } from '../../../../server/shares/service';

export const prerender = false;

export const GET: APIRoute = async ({ params, cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const number = /^\d{1,9}$/.test(params.numero ?? '') ? Number(params.numero) : 0;
  const pdf = await certificatePdf(deps, current.user.id, number);
  if (!pdf) return rewrite('/404');
  return new Response(Buffer.from(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="certificat-de-parts-${number}.pdf"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
