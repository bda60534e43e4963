/** GET /api/account/export: everything about the member, as a JSON file. */
import type { APIRoute } from 'astro';
import { apiError } from '../../../server/http/json';
import { requestContext } from '../../../server/http/context';
import { exportData } from '../../../server/auth/service';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const ctx = await requestContext(context);
  const current = await ctx.session();
  if (!current) return apiError(401, 'Vous n’êtes pas connecté.');
  const data = await exportData(ctx.deps, current.user.id);
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="contrechamp-mes-donnees.json"',
      'Cache-Control': 'no-store',
    },
  });
};
