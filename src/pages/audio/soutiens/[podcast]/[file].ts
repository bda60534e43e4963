/**
 * GET/HEAD /audio/soutiens/<podcast>/<file>?e=&s=: a supporters-only episode's audio, through its
 * signed, expiring address only (src/server/podcasts/audio-file.ts). The file is never in the build:
 * the front finds no static file of this name and passes the request here.
 */
import type { APIRoute } from 'astro';
import { config } from '../../../../server/core/config';
import { supportersAudioResponse } from '../../../../server/podcasts/audio-file';

export const prerender = false;

const answer =
  (method: 'GET' | 'HEAD'): APIRoute =>
  ({ params, url, request }) =>
    supportersAudioResponse({
      dir: config().podcasts.supportersAudioDir,
      file: { podcast: params['podcast'] ?? '', filename: params['file'] ?? '' },
      expires: url.searchParams.get('e'),
      signature: url.searchParams.get('s'),
      method,
      range: request.headers.get('range'),
      ifRange: request.headers.get('if-range'),
      now: new Date(),
    });

export const GET = answer('GET');
export const HEAD = answer('HEAD');
