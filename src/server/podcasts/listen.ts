/**
 * « Écouter » a supporters-only episode: a fresh signed address of its audio, for a signed-in
 * supporter only. The episodes come from the build (src/lib/build-data.ts: the supporters-only
 * ones, with their file names), never from the request.
 */
import type { ServerDeps } from '../core/deps';
import { AUDIO_URL_TTL_SECONDS, signedAudioPath } from './audio-access';
import { isSupportingUser } from './entitlement';

/** A supporters-only episode as the build lists it. */
export interface SupportersEpisode {
  podcast: string;
  slug: string;
  filename: string;
}

export const SIGNED_OUT_MESSAGE = 'Connectez-vous pour écouter cet épisode réservé aux soutiens.';
export const NOT_SUPPORTING_MESSAGE = 'Cet épisode est réservé aux soutiens, et votre compte n’a pas de soutien en cours : un abonnement, un don mensuel ou des parts de sociétaire en ouvrent l’accès.';
export const UNKNOWN_EPISODE_MESSAGE = 'Aucun épisode réservé aux soutiens ne porte ce nom.';

export type ListenAnswer =
  | { ok: true; url: string; expires: Date }
  | { ok: false; status: 401 | 403 | 404; message: string };

export async function listenAddress(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { userId: string | null; podcast: string; episode: string },
  episodes: readonly SupportersEpisode[],
): Promise<ListenAnswer> {
  // The list of supporters-only episodes is public (their pages say so): a 404 reveals nothing.
  const found = episodes.find((e) => e.podcast === input.podcast && e.slug === input.episode);
  if (!found) return { ok: false, status: 404, message: UNKNOWN_EPISODE_MESSAGE };
  if (!input.userId) return { ok: false, status: 401, message: SIGNED_OUT_MESSAGE };
  const now = deps.clock.now();
  if (!(await isSupportingUser(deps.db, input.userId, now))) return { ok: false, status: 403, message: NOT_SUPPORTING_MESSAGE };
  return {
    ok: true,
    url: signedAudioPath({ podcast: found.podcast, filename: found.filename }, now),
    expires: new Date(now.getTime() + AUDIO_URL_TTL_SECONDS * 1000),
  };
}
