/**
 * GET/HEAD /flux-soutiens/<secret>/transcription/<podcast>/<episode>.vtt: the transcript of a
 * supporters-only episode in a personal feed (`podcast:transcript`). A supporter gets the WebVTT
 * file; an ended support or an invalid address gets 403 (src/server/podcasts/feed-answer.ts).
 */
import type { APIRoute } from 'astro';
import { personalTranscriptResponse } from '../../../../../server/podcasts/feed-answer';
import { services } from '../../../../../server/runtime';
import { supportersEpisodes } from '../../../../../lib/supporters-episodes';

export const prerender = false;

const answer: APIRoute = async ({ params, request }) => {
  const { db } = await services();
  const response = await personalTranscriptResponse(db, await supportersEpisodes(), {
    secret: params['secret'] ?? '',
    podcast: params['podcast'] ?? '',
    file: params['file'] ?? '',
    now: new Date(),
  });
  return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
};

export const GET = answer;
export const HEAD = answer;
