import { describe, expect, it } from 'vitest';
import type { PlayerEpisode } from './corpus';
import {
  MAX_HEARD_EPISODES,
  MAX_REMEMBERED_POSITIONS,
  clampSeek,
  episodeAudioUrl,
  formatClock,
  formatRate,
  heardEpisodes,
  listenButton,
  markHeard,
  nextEpisode,
  parsePlayerEpisode,
  parseShowEpisodes,
  rememberAutoplay,
  rememberPosition,
  rememberRate,
  rememberedAutoplay,
  rememberedPosition,
  rememberedRate,
  resumePosition,
  shouldOfferResume,
  showLabel,
  signedAudioExpired,
  spokenDuration,
  SIGNED_AUDIO_MARGIN_MS,
} from './player';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (key: string) => data.get(key) ?? null, setItem: (key: string, value: string) => void data.set(key, value), data };
}

describe('player rules', () => {
  it('names the show after the PODCAST tag, else the category', () => {
    const category = { label: 'Économie' };
    expect(
      showLabel({
        category,
        tags: [
          { scheme: 'TOPIC', label: 'Travail' },
          { scheme: 'PODCAST', label: 'Les Voix' },
        ],
      }),
    ).toBe('Les Voix');
    expect(showLabel({ category, tags: [{ scheme: 'TOPIC', label: 'Travail' }] })).toBe('Économie');
  });

  it('joins the folder URL and the file name', () => {
    expect(episodeAudioUrl({ content_folder_url: '/media/podcasts/voix/', attributes: { podcast: { filename: 'épisode 1.mp3' } } })).toBe(
      '/media/podcasts/voix/%C3%A9pisode%201.mp3',
    );
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
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
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

const episode = (slug: string, extra: Partial<PlayerEpisode> = {}): PlayerEpisode => ({
  slug,
  title: `Épisode ${slug}`,
  duration: 600,
  category: { label: 'Société' },
  tags: [{ scheme: 'PODCAST', label: 'Les Voix' }],
  content_folder_url: '/media/podcasts/voix/',
  attributes: { podcast: { filename: `${slug}.mp3` } },
  url: `/podcasts/voix/${slug}`,
  podcast: 'voix',
  ...extra,
});

describe('resuming', () => {
  it('starts an episode where the listener stopped, when worth it', () => {
    const storage = memoryStorage();
    expect(resumePosition(episode('a'), storage)).toBeUndefined();
    rememberPosition('a', 354.4, storage);
    expect(resumePosition(episode('a'), storage)).toBe(354);
    // Too close to the start or to the end: from the start.
    rememberPosition('b', 4, storage);
    rememberPosition('c', 595, storage);
    expect(resumePosition(episode('b'), storage)).toBeUndefined();
    expect(resumePosition(episode('c'), storage)).toBeUndefined();
  });

  it('labels the listen button: playing or paused in the bar, else « Reprendre à m:ss », else Écouter', () => {
    expect(listenButton(true, false, 754)).toEqual({ state: 'playing', label: 'En écoute' });
    expect(listenButton(true, true, undefined)).toEqual({ state: 'paused', label: 'En pause' });
    expect(listenButton(false, false, 754)).toEqual({ state: 'resume', label: 'Reprendre à 12:34' });
    expect(listenButton(false, true, 3725)).toEqual({ state: 'resume', label: 'Reprendre à 1:02:05' });
    expect(listenButton(false, false, undefined)).toEqual({ state: '', label: 'Écouter' });
  });
});

describe('episodes heard and the next one', () => {
  // A show's episodes as its page lists them, newest first.
  const show = ['e5', 'e4', 'e3', 'e2', 'e1'].map((slug) => episode(slug));
  const slugOf = (found: PlayerEpisode | undefined) => found?.slug;

  it('offers the one after the current in the show’s order, going round to the newest', () => {
    expect(slugOf(nextEpisode(show, 'e5', new Set()))).toBe('e4');
    expect(slugOf(nextEpisode(show, 'e2', new Set()))).toBe('e1');
    expect(slugOf(nextEpisode(show, 'e1', new Set()))).toBe('e5');
  });

  it('skips the episodes already heard to the end', () => {
    expect(slugOf(nextEpisode(show, 'e5', new Set(['e4', 'e3'])))).toBe('e2');
    expect(slugOf(nextEpisode(show, 'e2', new Set(['e1', 'e5'])))).toBe('e4');
  });

  it('when every other one has been heard, offers the one after all the same', () => {
    expect(slugOf(nextEpisode(show, 'e3', new Set(['e5', 'e4', 'e2', 'e1'])))).toBe('e2');
  });

  it('offers nothing in a show of one episode, and the first unheard one if the current is not listed', () => {
    expect(nextEpisode([episode('solo')], 'solo', new Set())).toBeUndefined();
    expect(nextEpisode([], 'solo', new Set())).toBeUndefined();
    expect(slugOf(nextEpisode(show, 'ailleurs', new Set(['e5'])))).toBe('e4');
  });

  it('remembers the episodes heard, forgetting where the listener was in them, the newest kept', () => {
    const storage = memoryStorage();
    rememberPosition('a', 120, storage);
    markHeard('a', storage);
    markHeard('b', storage);
    markHeard('a', storage);
    expect([...heardEpisodes(storage)]).toEqual(['b', 'a']);
    expect(rememberedPosition('a', storage)).toBeUndefined();
    for (let i = 0; i < MAX_HEARD_EPISODES + 3; i++) markHeard(`h${i}`, storage);
    const heard = heardEpisodes(storage);
    expect(heard.size).toBe(MAX_HEARD_EPISODES);
    expect(heard.has('b')).toBe(false);
    expect(heard.has(`h${MAX_HEARD_EPISODES + 2}`)).toBe(true);
    storage.setItem('contrechamp:player:heard', '{"not":"a list"}');
    expect(heardEpisodes(storage).size).toBe(0);
  });

  it('remembers « Enchaîner les épisodes », off by default', () => {
    const storage = memoryStorage();
    expect(rememberedAutoplay(storage)).toBe(false);
    rememberAutoplay(true, storage);
    expect(rememberedAutoplay(storage)).toBe(true);
    rememberAutoplay(false, storage);
    expect(rememberedAutoplay(storage)).toBe(false);
    expect(rememberedAutoplay(null)).toBe(false);
  });

  it('trusts only well-formed episodes from a page or a show’s list', () => {
    expect(parsePlayerEpisode(episode('a'))?.slug).toBe('a');
    expect(parsePlayerEpisode({ ...episode('a'), podcast: undefined })).toBeNull();
    expect(parsePlayerEpisode({ ...episode('a'), url: 'https://ailleurs.example/x' })).toBeNull();
    expect(parsePlayerEpisode({ ...episode('a'), attributes: {} })).toBeNull();
    expect(parsePlayerEpisode('a')).toBeNull();
    expect(parseShowEpisodes({ episodes: [episode('a'), { slug: 'b' }, episode('c')] }).map((e) => e.slug)).toEqual(['a', 'c']);
    expect(parseShowEpisodes([episode('a')])).toEqual([]);
  });

  it('keeps a supporters-only episode’s mark, and refuses a mark that is not `true`', () => {
    expect(parsePlayerEpisode({ ...episode('bonus'), supportersOnly: true })?.supportersOnly).toBe(true);
    expect(parsePlayerEpisode({ ...episode('bonus'), supportersOnly: 'oui' })).toBeNull();
  });

  it('renews a signed address before it expires, never after', () => {
    const expires = Date.parse('2026-12-01T16:00:00Z');
    // Hours before: kept (a resume after a short pause asks nothing).
    expect(signedAudioExpired(expires, expires - 3 * 3600_000)).toBe(false);
    // Within the margin or past it: renewed before the player asks the next range.
    expect(signedAudioExpired(expires, expires - SIGNED_AUDIO_MARGIN_MS)).toBe(true);
    expect(signedAudioExpired(expires, expires + 1)).toBe(true);
    expect(signedAudioExpired(Number.NaN, 0)).toBe(true);
  });
});
