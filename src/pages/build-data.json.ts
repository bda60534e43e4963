/**
 * What pages rendered on demand need from the content (src/lib/build-data.ts), computed at build
 * time; astro.config.mjs moves the file into the build's server folder, where the server reads
 * it (it never loads the content store).
 */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { getCorpus } from '../lib/content';
import { editorialPageData } from '../lib/editorial-page';
import { pickLatestStories } from '../lib/latest-stories';
import type { BuildData } from '../lib/build-data';
import { supportersEpisodeData } from '../lib/supporters-episode-data';
import { personalFeedNotices, personalFeedTemplates } from '../lib/podcast-feed';

export const prerender = true;

/** The editorial pages shown by pages rendered on demand (/soutenir/{source}). */
const ON_DEMAND_PAGES = ['soutenir'];

export const GET: APIRoute = async ({ site }) => {
  const corpus = await getCorpus();
  // The feeds' Last-Modified: the newest episode, never the clock, so that the fast publisher's
  // output stays byte for byte a full build's.
  const builtAt = new Date(Math.max(0, ...corpus.episodes.map((episode) => episode.data.published.getTime())));
  const data: BuildData = {
    latestStories: pickLatestStories(await getCollection('stories')),
    supportersEpisodes: supportersEpisodeData(corpus),
    personalFeeds: {
      builtAt: builtAt.toISOString(),
      feeds: await personalFeedTemplates(corpus, site!),
      notices: await personalFeedNotices(corpus, site!, builtAt),
    },
    pages: Object.fromEntries(
      ON_DEMAND_PAGES.map((slug) => {
        const page = corpus.pages.get(slug);
        if (!page) throw new Error(`Missing editorial page "${slug}" in src/content/pages/`);
        return [slug, editorialPageData(page)];
      }),
    ),
  };
  return new Response(JSON.stringify(data), { headers: { 'Content-Type': 'application/json' } });
};
