/** The live figures of the cooperative for the pitch and the guide: members and shares today. */
import type { APIRoute } from 'astro';
import { services } from '../../server/runtime';
import { cooperativeFigures } from '../../server/shares/service';

export const prerender = false;

export const GET: APIRoute = async () => {
  const deps = await services();
  const { members, shares } = await cooperativeFigures(deps);
  return new Response(JSON.stringify({ members, shares }), {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' },
  });
};
