import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlayerEpisode } from '../lib/corpus';
import { $episode, $fromStart, $paused, closePlayer, createProgressTicker, selectEpisode, setPaused, togglePause } from './player';

const episode = (slug: string): PlayerEpisode => ({
  slug,
  title: `Épisode ${slug}`,
  duration: 600,
  category: { label: 'Société' },
  tags: [{ scheme: 'PODCAST', label: 'Les Voix du terrain' }],
  content_folder_url: '/media/podcasts/voix',
  attributes: { podcast: { filename: `${slug}.mp3` } },
  url: `/podcasts/voix/${slug}`,
  podcast: 'voix',
});

describe('player store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    closePlayer();
  });
  afterEach(() => {
    closePlayer();
    vi.useRealTimers();
  });

  it('sets a first episode after the 50 ms switch delay', () => {
    selectEpisode(episode('a'));
    expect($episode.get()).toBeNull();
    vi.advanceTimersByTime(49);
    expect($episode.get()).toBeNull();
    vi.advanceTimersByTime(1);
    expect($episode.get()?.slug).toBe('a');
  });

  it('clears the current episode at once when another slug is selected, then sets it 50 ms later', () => {
    selectEpisode(episode('a'));
    vi.advanceTimersByTime(50);
    selectEpisode(episode('b'));
    expect($episode.get()).toBeNull();
    vi.advanceTimersByTime(50);
    expect($episode.get()?.slug).toBe('b');
  });

  it('keeps the same episode (no switch) and un-pauses when its slug is selected again', () => {
    selectEpisode(episode('a'));
    vi.advanceTimersByTime(50);
    const loaded = $episode.get();
    setPaused(true);
    selectEpisode(episode('a'));
    expect($paused.get()).toBe(false);
    expect($episode.get()).toBe(loaded);
  });

  it('un-pauses on any selection', () => {
    setPaused(true);
    selectEpisode(episode('c'));
    expect($paused.get()).toBe(false);
  });

  it('only the last of quick selections is loaded', () => {
    selectEpisode(episode('a'));
    vi.advanceTimersByTime(20);
    selectEpisode(episode('b'));
    vi.advanceTimersByTime(49);
    expect($episode.get()).toBeNull();
    vi.advanceTimersByTime(1);
    expect($episode.get()?.slug).toBe('b');
    vi.advanceTimersByTime(500);
    expect($episode.get()?.slug).toBe('b');
  });

  it('closing clears the episode, also one still pending', () => {
    selectEpisode(episode('a'));
    vi.advanceTimersByTime(50);
    closePlayer();
    expect($episode.get()).toBeNull();
    selectEpisode(episode('b'));
    closePlayer();
    vi.advanceTimersByTime(100);
    expect($episode.get()).toBeNull();
  });

  it('asks for an episode from its start only when told, and forgets it on close', () => {
    selectEpisode(episode('a'));
    expect($fromStart.get()).toBeNull();
    selectEpisode(episode('a'), { fromStart: true });
    expect($fromStart.get()).toBe('a');
    closePlayer();
    expect($fromStart.get()).toBeNull();
  });

  it('toggles the pause flag', () => {
    expect($paused.get()).toBe(false);
    togglePause();
    expect($paused.get()).toBe(true);
    togglePause();
    expect($paused.get()).toBe(false);
  });
});

describe('progress ticker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('refreshes every 250 ms while started and stops on pause', () => {
    const tick = vi.fn();
    const ticker = createProgressTicker(tick);
    ticker.start();
    expect(tick).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(tick).toHaveBeenCalledTimes(5);
    ticker.start();
    vi.advanceTimersByTime(250);
    expect(tick).toHaveBeenCalledTimes(6);
    ticker.stop();
    expect(ticker.running).toBe(false);
    const afterStop = tick.mock.calls.length;
    vi.advanceTimersByTime(2000);
    expect(tick).toHaveBeenCalledTimes(afterStop);
  });
});
