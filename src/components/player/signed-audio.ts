/**
 * The audio of a supporters-only episode: a signed address that expires (src/server/podcasts/),
 * asked of /api/podcasts/ecoute each time the bar starts the episode and again when it has
 * expired. Never stored: after a reload the bar asks again.
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { supportersListenApiUrl } from '../../lib/urls';

export interface SignedAudio {
  url: string;
  /** When the address stops working, in ms since the epoch. */
  expires: number;
}

export type SignedAudioAnswer = { ok: true; audio: SignedAudio } | { ok: false; status: number; message: string };

const FAILED = 'L’épisode n’a pas pu être chargé. Vérifiez votre connexion ou réessayez plus tard.';

export async function fetchSignedAudio(episode: Pick<PlayerEpisode, 'podcast' | 'slug'>): Promise<SignedAudioAnswer> {
  try {
    const response = await fetch(supportersListenApiUrl(episode.podcast, episode.slug), {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    const body = (await response.json().catch(() => null)) as { url?: unknown; expires?: unknown; message?: unknown } | null;
    if (response.ok && typeof body?.url === 'string' && body.url.startsWith('/audio/soutiens/') && typeof body.expires === 'string') {
      return { ok: true, audio: { url: body.url, expires: Date.parse(body.expires) } };
    }
    return { ok: false, status: response.status, message: typeof body?.message === 'string' ? body.message : FAILED };
  } catch {
    return { ok: false, status: 0, message: FAILED };
  }
}
