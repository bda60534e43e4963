/**
 * GET/HEAD /flux-soutiens/<secret>/<feed>.xml: a supporter's personal podcast feed, all shows
 * (`tous`) or one show (src/server/podcasts/feed-answer.ts). Podcast apps fetch it every hour,
 * with its ETag.
 */
import type { APIRoute } from 'astro';
import { clientAddressOf } from '../../../server/http/context';
import { personalFeedResponse } from '../../../server/podcasts/feed-answer';
import { services } from '../../../server/runtime';
import { personalFeedsData } from '../../../lib/personal-feeds-data';

export const prerender = false;

const answer =
  (method: 'GET' | 'HEAD'): APIRoute =>
  async (context) => {
    const { db } = await services();
    return personalFeedResponse(db, await personalFeedsData(), {
      secret: context.params['secret'] ?? '',
      feed: context.params['feed'] ?? '',
      method,
      ifNoneMatch: context.request.headers.get('if-none-match'),
      ifModifiedSince: context.request.headers.get('if-modified-since'),
      address: clientAddressOf(context),
      now: new Date(),
    });
  };

export const GET = answer('GET');
export const HEAD = answer('HEAD');
