/**
 * GET /redaction/newsletter.csv: the newsletters' confirmed subscribers (address, date of
 * confirmation, the newsletters each receives by name) as a CSV for French spreadsheets, for
 * editors and administrators only (a visitor is sent to sign in, anyone else gets the 404).
 * Never cached.
 */
import type { APIRoute } from 'astro';
import { requireEditorEndpoint } from '../../server/editorial/guard';
import { subscribersCsv } from '../../server/editorial/newsroom';
import { csvResponse } from '../../server/http/csv';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const auth = await requireEditorEndpoint(context);
  if (auth.response) return auth.response;
  const file = await subscribersCsv(auth.deps.db, auth.deps.clock.now());
  return csvResponse(file.csv, file.filename);
};
