/** GET /api/account/export: everything the site holds about the signed-in user, as a JSON file (one key per domain). */
import type { APIRoute } from 'astro';
import { apiError } from '../../../server/http/json';
import { currentUser } from '../../../server/auth/request';
import { exportData } from '../../../server/account/service';
import { services } from '../../../server/runtime';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const current = await currentUser(context);
  if (!current) return apiError(401, 'Vous n’êtes pas connecté.');
  const data = await exportData(await services(), current.user.id);
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="contrechamp-mes-donnees.json"',
      'Cache-Control': 'no-store',
    },
  });
};
