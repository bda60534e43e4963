/**
 * GET /api/health: the server is up and its database answers (for load balancers and uptime
 * checks). `npm start` calls it once at start, so that migrations (and, in demo mode, the demo
 * accounts) are in place before the first reader arrives.
 */
import type { APIRoute } from 'astro';
import { sql } from 'kysely';
import { apiError, json } from '../../server/http/json';
import { log } from '../../server/core/log';
import { services } from '../../server/runtime';

export const prerender = false;

export const GET: APIRoute = async () => {
  try {
    const { db } = await services();
    await sql`select 1`.execute(db);
    return json({ status: 'ok' });
  } catch (error) {
    log.error('health check failed', { error });
    return apiError(503, 'Service indisponible : la base de données ne répond pas.');
  }
};
