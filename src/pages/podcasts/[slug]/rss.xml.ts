/** One podcast feed per show, for Apple Podcasts, Spotify and every podcast app. */
import type { APIRoute, GetStaticPaths } from 'astro';
import { getImage } from 'astro:assets';
import { episodeAudioUrl, getCorpus, publicEpisodes, type Podcast } from '../../../lib/content';
import { absolutizeLinks, escapeXml, renderPodcastRss } from '../../../lib/feeds';
import { episodeTranscriptUrl, episodeTranscriptVttUrl, episodeUrl, podcastFeedUrl, podcastUrl } from '../../../lib/urls';
import { episodeTranscript } from '../../../lib/transcript-files';
import { siteConfig } from '../../../config/site';

export const getStaticPaths = (async () => {
  const corpus = await getCorpus();
  return [...corpus.podcasts.values()].map((podcast) => ({ params: { slug: podcast.id }, props: { podcast } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props, site }) => {
  const { podcast } = props as { podcast: Podcast };
  const corpus = await getCorpus();
  // Apple asks for a square JPEG or PNG between 1400 and 3000 px.
  const cover = await getImage({ src: podcast.data.cover.src, width: 1400, height: 1400, format: 'jpg', quality: 80 });
  // A public feed cannot carry a playable enclosure of a supporters-only episode: those are in
  // each supporter's personal feed only.
  const episodes = publicEpisodes(corpus.episodesByPodcast.get(podcast.id) ?? []);
  const xml = renderPodcastRss({
    title: podcast.data.label,
    description: podcast.data.description,
    link: new URL(podcastUrl(podcast.id), site).href,
    self: new URL(podcastFeedUrl(podcast.id), site).href,
    image: new URL(cover.src, site).href,
    author: siteConfig.title,
    ownerName: siteConfig.publisher.name,
    ownerEmail: siteConfig.publisher.email,
    category: podcast.data.itunesCategory,
    subcategory: podcast.data.itunesSubcategory,
    explicit: podcast.data.explicit,
    funding: { url: new URL('/soutenir', site).href, label: `Soutenir ${siteConfig.title}` },
    episodes: episodes.map((episode) => ({
      title: episode.data.title,
      link: new URL(episodeUrl(podcast.id, episode.data.slug), site).href,
      guid: `contrechamp-episode-${episode.id}`,
      published: episode.data.published,
      summary: episode.data.summary,
      html: absolutizeLinks(episode.rendered?.html ?? '', site!) || `<p>${escapeXml(episode.data.summary)}</p>`,
      audio: {
        url: new URL(episodeAudioUrl(episode), site).href,
        length: episode.data.attributes.podcast.size,
        type: episode.data.attributes.podcast.type,
      },
      duration: episode.data.duration,
      // The demo episodes have no chapters yet: no podcast:chapters.
      transcripts: episodeTranscript(corpus, episode)
        ? [
            { url: new URL(episodeTranscriptVttUrl(podcast.id, episode.data.slug), site).href, type: 'text/vtt' as const },
            { url: new URL(episodeTranscriptUrl(podcast.id, episode.data.slug), site).href, type: 'text/html' as const },
          ]
        : undefined,
    })),
  });
  return new Response(xml, { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
};
