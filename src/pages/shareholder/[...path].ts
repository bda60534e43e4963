/** Older English page names: a permanent redirect to the French route (src/lib/legacy-routes.ts). */
import type { APIRoute } from 'astro';
import { frenchRoute } from '../../lib/legacy-routes';

export const prerender = false;

export const GET: APIRoute = ({ url, redirect, rewrite }) => {
  const target = frenchRoute(url.pathname);
  return target ? redirect(`${target}${url.search}`, 301) : rewrite('/404');
};
