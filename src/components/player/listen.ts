/**
 * Turns every 'Écouter' link (an MP3 link carrying the episode as `data-listen`) into a button
 * that loads the episode in the player bar. Without this script the link still plays the file.
 * Listens in the capture phase, before the view-transition router would take the click.
 *
 * Each button says what pressing it does: 'En écoute' / 'En pause' for the episode in the bar,
 * « Reprendre à m:ss » where this browser remembers the listener stopped (the bar then starts
 * there), else 'Écouter'. Beside a large one, « Reprendre au début » (`data-listen-restart`,
 * hidden until a position is known) starts the episode over.
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { listenButton, parsePlayerEpisode, resumePosition } from '../../lib/player';
import { requestIntent } from '../../lib/client/intents';
import { $episode, $paused, selectEpisode } from '../../stores/player';

function episodeOf(element: HTMLElement, attribute: 'listen' | 'listenRestart'): PlayerEpisode | null {
  try {
    return parsePlayerEpisode(JSON.parse(element.dataset[attribute] ?? ''));
  } catch {
    return null;
  }
}

document.addEventListener(
  'click',
  (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest<HTMLElement>('[data-listen]');
    const restart = target?.closest<HTMLElement>('[data-listen-restart]');
    const episode = link ? episodeOf(link, 'listen') : restart ? episodeOf(restart, 'listenRestart') : null;
    if (!episode) return;
    event.preventDefault();
    selectEpisode(episode, { fromStart: !link });
    // The player's island (and React) load now (`client:intent="player"` in the layout).
    requestIntent('player');
  },
  { capture: true },
);

/** What each 'Écouter' button of the page says, given the bar's episode, its pause flag and the remembered positions. */
function showState(): void {
  const current = $episode.get();
  const paused = $paused.get();
  for (const link of document.querySelectorAll<HTMLElement>('[data-listen]')) {
    const episode = episodeOf(link, 'listen');
    if (!episode) continue;
    const loaded = current?.slug === episode.slug;
    const resumeAt = loaded ? undefined : resumePosition(episode);
    const { state, label } = listenButton(loaded, paused, resumeAt);
    if (state) link.dataset.state = state;
    else delete link.dataset.state;
    const text = link.querySelector('[data-listen-label]');
    if (text && text.textContent !== label) text.textContent = label;
    link.setAttribute('aria-label', `${state ? `${label} :` : label} « ${episode.title} »`);
  }
  for (const button of document.querySelectorAll<HTMLElement>('[data-listen-restart]')) {
    const episode = episodeOf(button, 'listenRestart');
    button.hidden = !episode || current?.slug === episode.slug || resumePosition(episode) === undefined;
  }
}

$episode.listen(() => {
  showState();
  // The bar that goes writes its last position down as it unmounts, just after.
  setTimeout(showState, 100);
});
$paused.listen(showState);
document.addEventListener('astro:page-load', showState);
