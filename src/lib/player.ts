/**
 * The podcast player's rules that need no browser (SPEC §3, §4, §9): constants, the show
 * label, the audio address, clamped seeking, French time labels and the remembered positions.
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

/** Whether a remembered position is worth offering. */
export function shouldOfferResume(position: number | undefined, duration: number): position is number {
  return position !== undefined && position >= RESUME_MIN_SECONDS && position < duration - RESUME_END_MARGIN_SECONDS;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

const POSITIONS_KEY = 'contrechamp:player:positions';
const RATE_KEY = 'contrechamp:player:rate';

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
