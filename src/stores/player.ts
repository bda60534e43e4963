/**
 * The podcast player's state (SPEC §4): the loaded episode (none: the bar is hidden) and the
 * pause flag. Selecting an episode with another slug clears the current one and sets the new
 * one 50 ms later, so the bar's audio element starts afresh; selecting any episode un-pauses;
 * closing clears the episode. An episode starts where the listener stopped, unless it is
 * selected « from the start » (`$fromStart`, which the bar reads and clears).
 */
import { atom } from 'nanostores';
import type { PlayerEpisode } from '../lib/corpus';
import { PLAYER_SWITCH_DELAY_MS, PROGRESS_INTERVAL_MS } from '../lib/player';

export const $episode = atom<PlayerEpisode | null>(null);
export const $paused = atom(false);
/** The slug of an episode asked for from its beginning rather than where the listener stopped. */
export const $fromStart = atom<string | null>(null);

let pendingSwitch: ReturnType<typeof setTimeout> | undefined;
let pendingEpisode: PlayerEpisode | null = null;

function cancelSwitch(): void {
  if (pendingSwitch !== undefined) clearTimeout(pendingSwitch);
  pendingSwitch = undefined;
  pendingEpisode = null;
}

export function selectEpisode(episode: PlayerEpisode, options: { fromStart?: boolean } = {}): void {
  $paused.set(false);
  if (options.fromStart) $fromStart.set(episode.slug);
  const current = $episode.get() ?? pendingEpisode;
  if (current?.slug === episode.slug) return;
  cancelSwitch();
  $episode.set(null);
  pendingEpisode = episode;
  pendingSwitch = setTimeout(() => {
    pendingSwitch = undefined;
    pendingEpisode = null;
    $episode.set(episode);
  }, PLAYER_SWITCH_DELAY_MS);
}

export function closePlayer(): void {
  cancelSwitch();
  $fromStart.set(null);
  $episode.set(null);
  $paused.set(false);
}

export function setPaused(paused: boolean): void {
  $paused.set(paused);
}

export function togglePause(): void {
  $paused.set(!$paused.get());
}

/**
 * Calls `tick` every 250 ms between start() and stop() (SPEC §4: progress refreshes while
 * playing and stops on pause). start() twice keeps one timer.
 */
export function createProgressTicker(tick: () => void, interval = PROGRESS_INTERVAL_MS) {
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    start() {
      if (timer !== undefined) return;
      tick();
      timer = setInterval(tick, interval);
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      tick();
    },
    get running() {
      return timer !== undefined;
    },
  };
}
