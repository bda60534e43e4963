/**
 * Turns every 'Écouter' link (an MP3 link carrying the episode as `data-listen`) into a button
 * that loads the episode in the player bar. Without this script the link still plays the file.
 * Listens in the capture phase, before the view-transition router would take the click.
 * The button of the episode in the bar says so ('En écoute', 'En pause').
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { $episode, $paused, selectEpisode } from '../../stores/player';

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

/** What each 'Écouter' button of the page says, given the bar's episode and pause flag. */
function showState(): void {
  const current = $episode.get();
  const paused = $paused.get();
  for (const link of document.querySelectorAll<HTMLElement>('[data-listen]')) {
    const episode = episodeOf(link);
    if (!episode) continue;
    const loaded = current?.slug === episode.slug;
    const state = !loaded ? '' : paused ? 'paused' : 'playing';
    if ((link.dataset.state ?? '') === state) continue;
    if (state) link.dataset.state = state;
    else delete link.dataset.state;
    const label = { '': 'Écouter', playing: 'En écoute', paused: 'En pause' }[state];
    const text = link.querySelector('[data-listen-label]');
    if (text) text.textContent = label;
    link.setAttribute('aria-label', `${state ? `${label} :` : label} « ${episode.title} »`);
  }
}

$episode.listen(showState);
$paused.listen(showState);
document.addEventListener('astro:page-load', showState);
