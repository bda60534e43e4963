/**
 * GET /api/health: readiness, for load balancers, orchestrators and uptime checks. 200 when the
 * database answers and the build's static files are present, 503 otherwise; the job queue's
 * counts beside them (src/server/http/health.ts says what each field means). JSON, never cached,
 * nothing private.
 *
 * GET /api/health?probe=live: liveness only, 200 as long as the process answers, without
 * touching the database (a liveness probe that failed on a database outage would restart every
 * instance at once for nothing).
 *
 * `npm start` calls it once at start, so that migrations (and, in demo mode, the demo accounts)
 * are in place before the first reader arrives.
 */
import type { APIRoute } from 'astro';
import { systemClock } from '../../server/core/clock';
import { findClientDir, healthReport } from '../../server/http/health';
import { json } from '../../server/http/json';
import { services, servicesStarted } from '../../server/runtime';

export const prerender = false;

const clientDir = findClientDir(import.meta.url);

export const GET: APIRoute = async ({ url }) => {
  if (url.searchParams.get('probe') === 'live') return json({ status: 'ok', live: true });
  const { status, body } = await healthReport({
    database: async () => (await services()).db,
    clock: systemClock,
    clientDir,
    buildId: __BUILD_ID__,
    starting: () => !servicesStarted(),
  });
  return json(body, status);
};
