/**
 * The supporters-only episodes as the server needs them (src/lib/build-data.ts): their audio file
 * for the signed addresses, the episode for the player, and their transcript, checked at build by
 * the public transcripts' rules (a broken one stops the build), which only supporters receive.
 */
import type { SupportersEpisodeData } from './build-data';
import { toPlayerEpisode, type Corpus } from './corpus';
import { supportersTranscript } from './transcript-files';

export function supportersEpisodeData(corpus: Corpus): SupportersEpisodeData[] {
  return corpus.episodes
    .filter((episode) => episode.data.supportersOnly)
    .map((episode) => {
      const { data } = episode;
      const podcast = corpus.podcasts.get(data.podcast);
      return {
        podcast: data.podcast,
        slug: data.slug,
        filename: data.attributes.podcast.filename,
        title: data.title,
        showLabel: podcast?.data.label,
        player: toPlayerEpisode(corpus, episode, podcast?.data.cover.src.src),
        transcript: supportersTranscript(corpus, episode) ?? undefined,
      };
    });
}
