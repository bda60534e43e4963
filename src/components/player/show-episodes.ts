/**
 * A show's episodes, newest first, from the prerendered /podcasts/{show}/episodes.json: the
 * player offers the next one when an episode ends. Fetched once per show and visit; a failed
 * fetch offers nothing and is tried again with the next episode.
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { parseShowEpisodes } from '../../lib/player';
import { podcastEpisodesUrl } from '../../lib/urls';

const loaded = new Map<string, Promise<PlayerEpisode[]>>();

export function loadShowEpisodes(podcast: string): Promise<PlayerEpisode[]> {
  let list = loaded.get(podcast);
  if (!list) {
    list = fetch(podcastEpisodesUrl(podcast))
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then(parseShowEpisodes)
      .catch(() => {
        loaded.delete(podcast);
        return [];
      });
    loaded.set(podcast, list);
  }
  return list;
}
