/**
 * Turns every 'Écouter' link (an MP3 link carrying the episode as `data-listen`) into a button
 * that loads the episode in the player bar. Without this script the link still plays the file.
 * Listens in the capture phase, before the view-transition router would take the click.
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { selectEpisode } from '../../stores/player';

function episodeOf(element: HTMLElement): PlayerEpisode | null {
  try {
    const value: unknown = JSON.parse(element.dataset.listen ?? '');
    const episode = value as PlayerEpisode;
    return typeof episode?.slug === 'string' && typeof episode.content_folder_url === 'string' ? episode : null;
  } catch {
    return null;
  }
}

document.addEventListener('click', (event) => {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-listen]') : null;
  const episode = link && episodeOf(link);
  if (!episode) return;
  event.preventDefault();
  selectEpisode(episode);
}, { capture: true });
