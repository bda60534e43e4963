/**
 * GET /api/podcasts/ecoute?podcast=&episode= → `{ url, expires }`: a fresh signed address of a
 * supporters-only episode's audio, for a signed-in supporter (src/server/podcasts/listen.ts).
 * 401 signed out, 403 signed in but not supporting, 404 an unknown or public episode.
 */
import type { APIRoute } from 'astro';
import { currentUser } from '../../../server/auth/request';
import { apiError, json } from '../../../server/http/json';
import { listenAddress } from '../../../server/podcasts/listen';
import { services } from '../../../server/runtime';
import { supportersEpisodes } from '../../../lib/supporters-episodes';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const podcast = context.url.searchParams.get('podcast') ?? '';
  const episode = context.url.searchParams.get('episode') ?? '';
  const current = await currentUser(context);
  const answer = await listenAddress(await services(), { userId: current?.user.id ?? null, podcast, episode }, await supportersEpisodes());
  if (!answer.ok) return apiError(answer.status, answer.message);
  return json({ url: answer.url, expires: answer.expires.toISOString() });
};
