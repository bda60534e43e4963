/**
 * GET/HEAD /flux-soutiens/<secret>/audio/<podcast>/<file>: the audio of a supporters-only episode
 * in a personal feed. A supporter is redirected to a fresh signed address (which honours Range);
 * an ended support or an invalid address gets 403 (src/server/podcasts/feed-answer.ts).
 */
import type { APIRoute } from 'astro';
import { personalAudioResponse } from '../../../../../server/podcasts/feed-answer';
import { services } from '../../../../../server/runtime';
import { supportersEpisodes } from '../../../../../lib/supporters-episodes';

export const prerender = false;

const answer: APIRoute = async ({ params }) => {
  const { db, siteUrl } = await services();
  return personalAudioResponse(db, await supportersEpisodes(), {
    secret: params['secret'] ?? '',
    podcast: params['podcast'] ?? '',
    filename: params['file'] ?? '',
    now: new Date(),
    siteUrl,
  });
};

export const GET = answer;
export const HEAD = answer;
