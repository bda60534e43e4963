/** One podcast feed per show, for Apple Podcasts, Spotify and every podcast app (src/lib/podcast-feed.ts). */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCorpus, type Podcast } from '../../../lib/content';
import { publicPodcastFeed } from '../../../lib/podcast-feed';
import { podcastFeedUrl } from '../../../lib/urls';

export const getStaticPaths = (async () => {
  const corpus = await getCorpus();
  return [...corpus.podcasts.values()].map((podcast) => ({ params: { slug: podcast.id }, props: { podcast } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props, site }) => {
  const { podcast } = props as { podcast: Podcast };
  // A public feed carries no supporters-only episode: those are in each supporter's personal feed only.
  const xml = await publicPodcastFeed(await getCorpus(), podcast, site!, new URL(podcastFeedUrl(podcast.id), site).href);
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
