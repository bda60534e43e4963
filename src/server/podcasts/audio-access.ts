/**
 * Signed, expiring addresses of supporters-only audio. The files live outside the public build
 * (never under `public/`); the only way to them is `/audio/soutiens/<podcast>/<file>?e=&s=`, whose
 * MAC (key `podcast-audio`) binds the file and the expiry. An address used after its expiry, or
 * for another file, is refused (403).
 */
import { sign, verify } from '../core/keys';

/** How long a signed address stays valid: long enough to listen to an episode and seek in it. */
export const AUDIO_URL_TTL_SECONDS = 6 * 3600;

export interface AudioFile {
  /** The podcast's slug. */
  podcast: string;
  /** The audio file's name in the episode's front matter (`attributes.podcast.filename`). */
  filename: string;
}

/** A plain name: letters, digits, `_`, `-` and dots, never starting with a dot (so never `.` or `..`). */
const SAFE = /^(?!\.)[\w.-]+$/;
const message = (file: AudioFile, expires: number) => `${file.podcast}/${file.filename}:${expires}`;

/** The signed path of a supporters-only file, valid until `now + ttl`. */
export function signedAudioPath(file: AudioFile, now: Date, ttlSeconds = AUDIO_URL_TTL_SECONDS): string {
  if (!SAFE.test(file.podcast) || !SAFE.test(file.filename)) throw new Error(`nom de fichier audio invalide : ${file.podcast}/${file.filename}`);
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return `/audio/soutiens/${file.podcast}/${file.filename}?e=${expires}&s=${sign('podcast-audio', message(file, expires))}`;
}

export type AudioAccess = 'ok' | 'expired' | 'invalid';

/** Is this signed request for this very file, and still valid at `now`? */
export function checkAudioSignature(file: AudioFile, expiresParam: string | null, signature: string | null, now: Date): AudioAccess {
  if (!expiresParam || !signature || !/^\d{1,12}$/.test(expiresParam)) return 'invalid';
  if (!SAFE.test(file.podcast) || !SAFE.test(file.filename)) return 'invalid';
  const expires = Number(expiresParam);
  if (!verify('podcast-audio', message(file, expires), signature)) return 'invalid';
  return expires * 1000 > now.getTime() ? 'ok' : 'expired';
}
