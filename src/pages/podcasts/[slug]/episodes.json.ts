/**
 * A show's episodes as the player holds them, newest first: when one ends, the player offers
 * the next from this list (and the lock screen's 'next track' plays it). Prerendered, so the
 * player needs no server; a few hundred bytes per episode, fetched once per show and visit.
 * Supporters-only episodes are left out: their audio is not public.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getCorpus, publicEpisodes, toPlayerEpisode, type Podcast } from '../../../lib/content';

export const getStaticPaths = (async () => {
  const corpus = await getCorpus();
  return [...corpus.podcasts.values()].map((podcast) => ({ params: { slug: podcast.id }, props: { podcast } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { podcast } = props as { podcast: Podcast };
  const corpus = await getCorpus();
  // Public episodes only: the next episode plays without asking the server (a supporters-only one
  // is chosen on its page, where the reader sees what it is).
  const episodes = publicEpisodes(corpus.episodesByPodcast.get(podcast.id) ?? []).map((episode) =>
    toPlayerEpisode(corpus, episode, podcast.data.cover.src.src),
  );
  return new Response(JSON.stringify({ episodes }), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
};
