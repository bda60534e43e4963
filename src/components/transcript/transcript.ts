/**
 * The transcript's times drive the persistent player (src/components/transcript/Transcript.astro):
 * a click on a cue's time, for the episode of the transcript, seeks the bar's audio when that
 * episode is the one loaded (and un-pauses it), else loads it to start at that time (the bar
 * starts where the listener « stopped », src/lib/player.ts). While the episode plays, the cue
 * being heard carries aria-current="true"; focus and scrolling are left alone.
 * Media events do not bubble, so `timeupdate` is listened for in the capture phase.
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { parsePlayerEpisode, rememberPosition } from '../../lib/player';
import { requestIntent } from '../../lib/client/intents';
import { $episode, selectEpisode, setPaused } from '../../stores/player';

function transcriptEpisode(element: Element | null): PlayerEpisode | null {
  const holder = element?.closest<HTMLElement>('[data-transcript]');
  try {
    return holder?.dataset.transcript ? parsePlayerEpisode(JSON.parse(holder.dataset.transcript)) : null;
  } catch {
    return null;
  }
}

/** The bar's audio element, when the bar is shown. */
const barAudio = () => document.querySelector<HTMLAudioElement>('[data-player-bar] audio');

document.addEventListener(
  'click',
  (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-seek]') : null;
    const episode = transcriptEpisode(link);
    if (!link || !episode) return;
    const start = Number(link.dataset.seek);
    if (!Number.isFinite(start)) return;
    event.preventDefault();
    const audio = barAudio();
    if ($episode.get()?.slug === episode.slug && audio) {
      audio.currentTime = start;
      setPaused(false);
      return;
    }
    // The bar starts at the remembered position, kept in whole seconds: the exact time is set once it plays.
    rememberPosition(episode.slug, start);
    pendingSeek = { slug: episode.slug, start };
    selectEpisode(episode);
    requestIntent('player');
  },
  { capture: true },
);

let pendingSeek: { slug: string; start: number } | null = null;

document.addEventListener(
  'playing',
  (event) => {
    const audio = event.target;
    if (!pendingSeek || !(audio instanceof HTMLAudioElement) || !audio.closest('[data-player-bar]')) return;
    if ($episode.get()?.slug === pendingSeek.slug) audio.currentTime = pendingSeek.start;
    pendingSeek = null;
  },
  { capture: true },
);

let current: HTMLElement | null = null;

function highlight(time: number | null): void {
  const slug = $episode.get()?.slug;
  let found: HTMLElement | null = null;
  if (time !== null && slug) {
    for (const holder of document.querySelectorAll<HTMLElement>('[data-transcript]')) {
      if (transcriptEpisode(holder)?.slug !== slug) continue;
      for (const cue of holder.querySelectorAll<HTMLElement>('li[data-start]')) {
        if (time >= Number(cue.dataset.start) && time < Number(cue.dataset.end)) found = cue;
      }
    }
  }
  if (found === current) return;
  current?.removeAttribute('aria-current');
  found?.setAttribute('aria-current', 'true');
  current = found;
}

document.addEventListener(
  'timeupdate',
  (event) => {
    if (event.target instanceof HTMLAudioElement) highlight(event.target.currentTime);
  },
  { capture: true },
);
$episode.listen((episode) => {
  if (!episode) highlight(null);
});
document.addEventListener('astro:page-load', () => {
  current = null;
  const audio = barAudio();
  highlight(audio ? audio.currentTime : null);
});
