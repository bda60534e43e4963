/** The register of members as a CSV, for administrators only (anyone else: 404). */
import type { APIRoute } from 'astro';
import { services } from '../../../server/runtime';
import { sessionUser } from '../../../server/auth/service';
import { SESSION_COOKIE } from '../../../server/auth/cookies';
import { registerCsv } from '../../../server/admin/shares';

export const prerender = false;

export const GET: APIRoute = async ({ cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const file = await registerCsv(deps, current.user.id);
  if (!file.ok) return rewrite('/404');
  return new Response(file.csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
