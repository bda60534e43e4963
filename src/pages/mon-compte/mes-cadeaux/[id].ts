/** The card of a gift the member bought (rendered from the sealed code); any other id is a 404. */
import type { APIRoute } from 'astro';
import { services } from '../../../server/runtime';
import { sessionUser } from '../../../server/auth/service';
import { SESSION_COOKIE } from '../../../server/auth/cookies';
import { boughtGiftCard } from '../../../server/gifts/service';

export const prerender = false;

export const GET: APIRoute = async ({ params, cookies, url, redirect, rewrite }) => {
  const deps = await services();
  const current = await sessionUser(deps, cookies.get(SESSION_COOKIE)?.value);
  if (!current) return redirect(`/login?redirect=${encodeURIComponent(url.pathname)}`, 302);
  const pdf = await boughtGiftCard(deps, current.user.id, params.id ?? '');
  if (!pdf) return rewrite('/404');
  return new Response(Buffer.from(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': 'attachment; filename="carte-cadeau-contrechamp.pdf"',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
