import { describe, expect, it } from 'vitest';
import {
  MAX_REMEMBERED_POSITIONS, clampSeek, episodeAudioUrl, formatClock, formatRate, rememberPosition, rememberRate,
  rememberedPosition, rememberedRate, shouldOfferResume, showLabel, spokenDuration,
} from './player';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value), data };
}

describe('player rules', () => {
  it('names the show after the PODCAST tag, else the category', () => {
    const category = { label: 'Économie' };
    expect(showLabel({ category, tags: [{ scheme: 'TOPIC', label: 'Travail' }, { scheme: 'PODCAST', label: 'Les Voix' }] })).toBe('Les Voix');
    expect(showLabel({ category, tags: [{ scheme: 'TOPIC', label: 'Travail' }] })).toBe('Économie');
  });

  it('joins the folder URL and the file name', () => {
    expect(episodeAudioUrl({ content_folder_url: '/media/podcasts/voix/', attributes: { podcast: { filename: 'épisode 1.mp3' } } }))
      .toBe('/media/podcasts/voix/%C3%A9pisode%201.mp3');
  });

  it('seeks only between 0 and the duration', () => {
    expect(clampSeek(-5, 100)).toBe(0);
    expect(clampSeek(130, 100)).toBe(100);
    expect(clampSeek(42, 100)).toBe(42);
    expect(clampSeek(10, Number.NaN)).toBeNull();
    expect(clampSeek(Number.NaN, 100)).toBeNull();
    expect(clampSeek(10, 0)).toBeNull();
  });

  it('formats times for eyes and ears, in French', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(75.9)).toBe('1:15');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(spokenDuration(75)).toBe('1 minute 15 secondes');
    expect(spokenDuration(3600)).toBe('1 heure');
    expect(spokenDuration(0)).toBe('0 seconde');
    expect(formatRate(1.25)).toBe('1,25×');
  });

  it('offers to resume only a position worth it', () => {
    expect(shouldOfferResume(undefined, 600)).toBe(false);
    expect(shouldOfferResume(5, 600)).toBe(false);
    expect(shouldOfferResume(120, 600)).toBe(true);
    expect(shouldOfferResume(590, 600)).toBe(false);
  });

  it('remembers positions per episode, forgets heard ones and keeps the newest only', () => {
    const storage = memoryStorage();
    rememberPosition('a', 42.7, storage);
    rememberPosition('b', 10, storage);
    expect(rememberedPosition('a', storage)).toBe(42);
    rememberPosition('a', null, storage);
    expect(rememberedPosition('a', storage)).toBeUndefined();
    for (let i = 0; i < MAX_REMEMBERED_POSITIONS + 5; i++) rememberPosition(`e${i}`, i + 1, storage);
    expect(rememberedPosition('b', storage)).toBeUndefined();
    expect(rememberedPosition(`e${MAX_REMEMBERED_POSITIONS + 4}`, storage)).toBe(MAX_REMEMBERED_POSITIONS + 5);
  });

  it('survives broken or refused storage', () => {
    const storage = memoryStorage();
    storage.setItem('contrechamp:player:positions', '{not json');
    expect(rememberedPosition('a', storage)).toBeUndefined();
    const refusing = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => rememberPosition('a', 5, refusing)).not.toThrow();
    expect(rememberedPosition('a', null)).toBeUndefined();
  });

  it('remembers the playback speed among the offered ones', () => {
    const storage = memoryStorage();
    expect(rememberedRate(storage)).toBe(1);
    rememberRate(1.5, storage);
    expect(rememberedRate(storage)).toBe(1.5);
    storage.setItem('contrechamp:player:rate', '9');
    expect(rememberedRate(storage)).toBe(1);
  });
});
