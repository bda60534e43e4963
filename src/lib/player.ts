/**
 * The podcast player's rules that need no browser (SPEC §3, §4, §9): constants, the show
 * label, the audio address, clamped seeking, French time labels, the remembered positions,
 * the episodes heard to the end, the choice of the next episode and the 'Écouter' labels.
 */
import type { PlayerEpisode } from './corpus';
import { audioUrl } from './urls';

/** SPEC §9. */
export const PLAYER_HEIGHT = 85;
export const SKIP_BACK_SECONDS = 15;
export const SKIP_FORWARD_SECONDS = 30;
export const PROGRESS_INTERVAL_MS = 250;
export const PLAYER_SWITCH_DELAY_MS = 50;

/** Speeds offered by the speed control, the first being the normal one. */
export const PLAYBACK_RATES = [1, 1.25, 1.5, 1.75, 2, 0.75] as const;
/** A position is offered for resuming only past this point… */
export const RESUME_MIN_SECONDS = 10;
/** …and not in the last seconds, where the episode counts as heard. */
export const RESUME_END_MARGIN_SECONDS = 15;
/** How often the position is written down while playing. */
export const POSITION_SAVE_INTERVAL_MS = 5000;
/** At most this many episodes' positions are kept (the oldest go first). */
export const MAX_REMEMBERED_POSITIONS = 50;
/** At most this many episodes are remembered as heard (the oldest go first). */
export const MAX_HEARD_EPISODES = 500;
/** With « Enchaîner » on, the next episode starts this long after the end of one. */
export const NEXT_EPISODE_DELAY_SECONDS = 5;

/** The tag whose scheme is PODCAST names the show; else the category does (SPEC §3). */
export function showLabel(episode: Pick<PlayerEpisode, 'tags' | 'category'>): string {
  return episode.tags.find((tag) => tag.scheme === 'PODCAST')?.label ?? episode.category.label;
}

/** `content_folder_url` joined with `attributes.podcast.filename`. */
export function episodeAudioUrl(episode: Pick<PlayerEpisode, 'content_folder_url' | 'attributes'>): string {
  return audioUrl(episode.content_folder_url, episode.attributes.podcast.filename);
}

/**
 * Where a seek may land: only between 0 and the duration (SPEC §4). Returns null when the
 * target is not a number or the duration is not known yet.
 */
export function clampSeek(target: number, duration: number): number | null {
  if (!Number.isFinite(target) || !Number.isFinite(duration) || duration <= 0) return null;
  return Math.min(Math.max(target, 0), duration);
}

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`;

/** 75 → "1 minute 15 secondes", for screen readers. */
export function spokenDuration(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h && plural(h, 'heure'), m && plural(m, 'minute'), (s || total === 0) && plural(s, 'seconde')];
  return parts.filter(Boolean).join(' ');
}

/** 1.25 → "1,25×". */
export function formatRate(rate: number): string {
  return `${String(rate).replace('.', ',')}×`;
}

/** Whether a remembered position is worth resuming from. */
export function shouldOfferResume(position: number | undefined, duration: number): position is number {
  return position !== undefined && position >= RESUME_MIN_SECONDS && position < duration - RESUME_END_MARGIN_SECONDS;
}

/**
 * What an 'Écouter' button says and is: the episode in the bar playing or paused; else
 * « Reprendre à m:ss » where the listener stopped (pressing it resumes there); else « Écouter ».
 */
export function listenButton(loaded: boolean, paused: boolean, resumeAt: number | undefined): { state: '' | 'playing' | 'paused' | 'resume'; label: string } {
  if (loaded) return paused ? { state: 'paused', label: 'En pause' } : { state: 'playing', label: 'En écoute' };
  if (resumeAt !== undefined) return { state: 'resume', label: `Reprendre à ${formatClock(resumeAt)}` };
  return { state: '', label: 'Écouter' };
}

/**
 * The episode to offer when `current` ends, from its show's episodes in the show's order
 * (newest first, as its page lists them): the first one after it, going round to the newest,
 * that has not been heard to the end; when every other one has been heard, simply the one
 * after it. Nothing when the show has no other episode.
 */
export function nextEpisode<T extends { slug: string }>(episodes: readonly T[], current: string, heard: ReadonlySet<string>): T | undefined {
  const at = episodes.findIndex((episode) => episode.slug === current);
  const others = [...episodes.slice(at + 1), ...episodes.slice(0, Math.max(at, 0))].filter((episode) => episode.slug !== current);
  return others.find((episode) => !heard.has(episode.slug)) ?? others[0];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * An episode as a page or a show's episode list hands it over (`data-listen`, episodes.json),
 * checked before the player trusts it; null when it is not one.
 */
export function parsePlayerEpisode(value: unknown): PlayerEpisode | null {
  if (!isRecord(value)) return null;
  const { slug, title, duration, category, tags, content_folder_url: folder, attributes, url, podcast, artwork, supportersOnly } = value;
  const filename = isRecord(attributes) && isRecord(attributes['podcast']) ? attributes['podcast']['filename'] : undefined;
  const valid =
    isText(slug) &&
    isText(title) &&
    typeof duration === 'number' &&
    Number.isFinite(duration) &&
    isRecord(category) &&
    typeof category['label'] === 'string' &&
    Array.isArray(tags) &&
    tags.every((tag) => isRecord(tag) && typeof tag['scheme'] === 'string' && typeof tag['label'] === 'string') &&
    isText(folder) &&
    isText(filename) &&
    isText(url) &&
    url.startsWith('/') &&
    isText(podcast) &&
    (artwork === undefined || isText(artwork)) &&
    (supportersOnly === undefined || supportersOnly === true);
  return valid ? (value as unknown as PlayerEpisode) : null;
}

/** A show's episode list (episodes.json); the entries that are not episodes are left out. */
export function parseShowEpisodes(value: unknown): PlayerEpisode[] {
  const list = isRecord(value) ? value['episodes'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.map(parsePlayerEpisode).filter((episode): episode is PlayerEpisode => episode !== null);
}

/**
 * A signed address this close to its expiry is renewed before the player starts or resumes the
 * episode: the file is read in ranges as it plays, and a range asked after the expiry is refused.
 */
export const SIGNED_AUDIO_MARGIN_MS = 5 * 60_000;

/** Whether a supporters-only episode's signed address (expiring at `expires`, ms) must be renewed at `now`. */
export function signedAudioExpired(expires: number, now: number): boolean {
  return !Number.isFinite(expires) || now >= expires - SIGNED_AUDIO_MARGIN_MS;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const POSITIONS_KEY = 'contrechamp:player:positions';
const RATE_KEY = 'contrechamp:player:rate';
const HEARD_KEY = 'contrechamp:player:heard';
const AUTOPLAY_KEY = 'contrechamp:player:autoplay';

/** The browser's local storage, or nothing (private modes may refuse it). */
export function localStore(): KeyValueStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readPositions(storage: KeyValueStorage | null): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(POSITIONS_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => Number.isFinite(entry[1])));
  } catch {
    return {};
  }
}

function writePositions(storage: KeyValueStorage | null, positions: Record<string, number>): void {
  try {
    storage?.setItem(POSITIONS_KEY, JSON.stringify(positions));
  } catch {
    // Full or refused storage: the position is simply not remembered.
  }
}

export function rememberedPosition(slug: string, storage = localStore()): number | undefined {
  return readPositions(storage)[slug];
}

/** Where an episode starts when chosen: where the listener stopped, when worth it. */
export function resumePosition(episode: Pick<PlayerEpisode, 'slug' | 'duration'>, storage = localStore()): number | undefined {
  const position = rememberedPosition(episode.slug, storage);
  return shouldOfferResume(position, episode.duration) ? position : undefined;
}

/** Remembers where the listener is in an episode; `null` forgets it (heard to the end). */
export function rememberPosition(slug: string, seconds: number | null, storage = localStore()): void {
  const positions = readPositions(storage);
  delete positions[slug];
  if (seconds !== null && Number.isFinite(seconds)) positions[slug] = Math.floor(seconds);
  // Insertion order is age order: keep the newest entries only.
  const kept = Object.entries(positions).slice(-MAX_REMEMBERED_POSITIONS);
  writePositions(storage, Object.fromEntries(kept));
}

export function rememberedRate(storage = localStore()): number {
  const rate = Number(storage?.getItem(RATE_KEY));
  return (PLAYBACK_RATES as readonly number[]).includes(rate) ? rate : 1;
}

export function rememberRate(rate: number, storage = localStore()): void {
  try {
    storage?.setItem(RATE_KEY, String(rate));
  } catch {
    // Not remembered.
  }
}

/** The episodes heard to the end, in this browser. */
export function heardEpisodes(storage = localStore()): Set<string> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(HEARD_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((slug): slug is string => typeof slug === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Notes an episode as heard to the end (and forgets where the listener was in it). */
export function markHeard(slug: string, storage = localStore()): void {
  const heard = [...heardEpisodes(storage)].filter((other) => other !== slug);
  heard.push(slug);
  try {
    storage?.setItem(HEARD_KEY, JSON.stringify(heard.slice(-MAX_HEARD_EPISODES)));
  } catch {
    // Not remembered.
  }
  rememberPosition(slug, null, storage);
}

/** « Enchaîner les épisodes »: off unless the listener turned it on. */
export function rememberedAutoplay(storage = localStore()): boolean {
  return storage?.getItem(AUTOPLAY_KEY) === 'on';
}

export function rememberAutoplay(on: boolean, storage = localStore()): void {
  try {
    storage?.setItem(AUTOPLAY_KEY, on ? 'on' : 'off');
  } catch {
    // Not remembered.
  }
}
