/**
 * The podcast feeds of the shows, built at build time from the content: the public feed of
 * each show (`/podcasts/<show>/rss.xml`, public episodes only), and the templates of the
 * supporters' personal feeds (all shows, and per show, with the supporters-only episodes), which
 * the server fills with each supporter's secret (src/server/podcasts/feed-answer.ts).
 *
 * A personal feed's template holds `FEED_SECRET_PLACEHOLDER` where the secret goes: in its own
 * address, and in the address of each supporters-only episode's audio
 * (`/flux-soutiens/<secret>/audio/<show>/<file>`, which redirects to a fresh signed address) and
 * of its transcript (`/flux-soutiens/<secret>/transcription/<show>/<episode>.vtt`).
 */
import { getImage } from 'astro:assets';
import { siteConfig } from '../config/site';
import { episodeAudioUrl, type Corpus, type Episode, type Podcast } from './corpus';
import { absolutizeLinks, escapeXml, renderPodcastRss, type PodcastFeed } from './feeds';
import { ALL_SHOWS_FEED, FEED_SECRET_PLACEHOLDER, personalAudioPath, personalFeedPath, personalTranscriptPath } from './personal-feed-paths';
import { episodeTranscript, supportersTranscript } from './transcript-files';
import { episodeTranscriptUrl, episodeTranscriptVttUrl, episodeUrl, podcastUrl } from './urls';

type FeedEpisode = PodcastFeed['episodes'][number];

function feedEpisode(corpus: Corpus, episode: Episode, site: URL, audioUrl: string): FeedEpisode {
  const podcast = episode.data.podcast;
  return {
    title: episode.data.title,
    link: new URL(episodeUrl(podcast, episode.data.slug), site).href,
    guid: `contrechamp-episode-${episode.id}`,
    published: episode.data.published,
    summary: episode.data.summary,
    html: absolutizeLinks(episode.rendered?.html ?? '', site) || `<p>${escapeXml(episode.data.summary)}</p>`,
    audio: { url: audioUrl, length: episode.data.attributes.podcast.size, type: episode.data.attributes.podcast.type },
    duration: episode.data.duration,
    // The demo episodes have no chapters yet: no podcast:chapters. A supporters-only episode's
    // transcript is not published (its text is what supporters pay for): a personal feed gives
    // it through the supporter's own address, which checks the support as the audio's does.
    transcripts: episode.data.supportersOnly
      ? supportersTranscript(corpus, episode)
        ? [{ url: new URL(personalTranscriptPath(FEED_SECRET_PLACEHOLDER, podcast, episode.data.slug), site).href, type: 'text/vtt' as const }]
        : undefined
      : episodeTranscript(corpus, episode)
        ? [
            { url: new URL(episodeTranscriptVttUrl(podcast, episode.data.slug), site).href, type: 'text/vtt' as const },
            { url: new URL(episodeTranscriptUrl(podcast, episode.data.slug), site).href, type: 'text/html' as const },
          ]
        : undefined,
  };
}

/** Apple asks for a square JPEG or PNG between 1400 and 3000 px. */
async function coverOf(podcast: Podcast, site: URL): Promise<string> {
  const cover = await getImage({ src: podcast.data.cover.src, width: 1400, height: 1400, format: 'jpg', quality: 80 });
  return new URL(cover.src, site).href;
}

const owner = { author: siteConfig.title, ownerName: siteConfig.publisher.name, ownerEmail: siteConfig.publisher.email };

const channelBase = (podcast: Podcast) => ({
  ...owner,
  category: podcast.data.itunesCategory,
  subcategory: podcast.data.itunesSubcategory,
  explicit: podcast.data.explicit,
});

/**
 * The channel of a feed of every show (all shows, and the notices in a personal feed's place):
 * the network's own cover (1400 px square, drawn by scripts/media/brand.mjs), not one show's,
 * and the category of a news network.
 */
const networkChannel = (podcasts: Podcast[], site: URL) => ({
  ...owner,
  category: 'News',
  explicit: podcasts.some((podcast) => podcast.data.explicit),
  image: new URL('/podcast-network-cover.png', site).href,
});

const funding = (site: URL) => ({ url: new URL('/soutenir', site).href, label: `Soutenir ${siteConfig.title}` });

/** A show's public feed: its public episodes, each with its public audio file. */
export async function publicPodcastFeed(corpus: Corpus, podcast: Podcast, site: URL, self: string): Promise<string> {
  const episodes = (corpus.episodesByPodcast.get(podcast.id) ?? []).filter((episode) => !episode.data.supportersOnly);
  return renderPodcastRss({
    ...channelBase(podcast),
    title: podcast.data.label,
    description: podcast.data.description,
    link: new URL(podcastUrl(podcast.id), site).href,
    self,
    image: await coverOf(podcast, site),
    funding: funding(site),
    episodes: episodes.map((episode) => feedEpisode(corpus, episode, site, new URL(episodeAudioUrl(episode), site).href)),
  });
}

const personalEpisode = (corpus: Corpus, episode: Episode, site: URL) =>
  feedEpisode(
    corpus,
    episode,
    site,
    episode.data.supportersOnly
      ? new URL(personalAudioPath(FEED_SECRET_PLACEHOLDER, episode.data.podcast, episode.data.attributes.podcast.filename), site).href
      : new URL(episodeAudioUrl(episode), site).href,
  );

const PERSONAL_NOTE = 'Flux personnel réservé aux soutiens de Contrechamp : ne le partagez pas.';

/** The personal feeds' templates: all shows first (`ALL_SHOWS_FEED`), then each show's. */
export async function personalFeedTemplates(corpus: Corpus, site: URL): Promise<{ name: string; label: string; xml: string }[]> {
  const podcasts = [...corpus.podcasts.values()];
  if (podcasts.length === 0) return [];
  const shows = await Promise.all(
    podcasts.map(async (podcast) => ({
      name: podcast.id,
      label: podcast.data.label,
      xml: renderPodcastRss({
        ...channelBase(podcast),
        title: `${podcast.data.label} (soutiens)`,
        description: `${podcast.data.description} ${PERSONAL_NOTE}`,
        link: new URL(podcastUrl(podcast.id), site).href,
        self: new URL(personalFeedPath(FEED_SECRET_PLACEHOLDER, podcast.id), site).href,
        image: await coverOf(podcast, site),
        funding: funding(site),
        episodes: (corpus.episodesByPodcast.get(podcast.id) ?? []).map((episode) => personalEpisode(corpus, episode, site)),
      }),
    })),
  );
  const all = {
    name: ALL_SHOWS_FEED,
    label: 'Tous les podcasts',
    xml: renderPodcastRss({
      ...networkChannel(podcasts, site),
      title: `Les podcasts de ${siteConfig.title} (soutiens)`,
      description: `Tous les podcasts de ${siteConfig.title}, les épisodes réservés aux soutiens compris. ${PERSONAL_NOTE}`,
      link: new URL('/podcasts', site).href,
      self: new URL(personalFeedPath(FEED_SECRET_PLACEHOLDER, ALL_SHOWS_FEED), site).href,
      funding: funding(site),
      episodes: [...corpus.episodes]
        .sort((a, b) => b.data.published.getTime() - a.data.published.getTime())
        .map((episode) => personalEpisode(corpus, episode, site)),
    }),
  };
  return [all, ...shows];
}

/** The notice feeds that take a personal feed's place: support ended, or an address that is not (or no longer) valid. */
export async function personalFeedNotices(corpus: Corpus, site: URL, builtAt: Date): Promise<{ ended: string; invalid: string }> {
  const channel = networkChannel([...corpus.podcasts.values()], site);
  const notice = (key: string, title: string, text: string, link: string) =>
    renderPodcastRss({
      ...channel,
      title: `${siteConfig.title} : ${title}`,
      description: text,
      link,
      self: new URL(personalFeedPath(FEED_SECRET_PLACEHOLDER, ALL_SHOWS_FEED), site).href,
      funding: funding(site),
      episodes: [],
      notice: { guid: `contrechamp-flux-${key}`, title, text, link, published: builtAt },
    });
  return {
    ended: notice(
      'soutien-termine',
      'votre soutien a pris fin',
      'Votre abonnement, votre don mensuel ou vos parts de sociétaire ont pris fin : ce flux personnel ne donne plus les épisodes réservés aux soutiens. Reprenez votre soutien sur contrechamp.media/soutenir : cette même adresse redonnera tous les épisodes, sans rien changer dans votre application.',
      new URL('/soutenir', site).href,
    ),
    invalid: notice(
      'adresse-invalide',
      'cette adresse de flux n’est plus valable',
      'Cette adresse de flux personnel n’existe pas ou a été remplacée. Si vous soutenez Contrechamp, retrouvez votre nouvelle adresse dans votre compte, rubrique « Mes podcasts », et ajoutez-la à votre application.',
      new URL('/mon-compte/podcasts', site).href,
    ),
  };
}
