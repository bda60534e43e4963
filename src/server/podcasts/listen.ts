/**
 * « Écouter » a supporters-only episode: a fresh signed address of its audio, for a signed-in
 * supporter only; and its transcript, for the same readers. The episodes come from the build (src/lib/build-data.ts: the supporters-only
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
export const NOT_SUPPORTING_MESSAGE =
  'Cet épisode est réservé aux soutiens, et votre compte n’a pas de soutien en cours : un abonnement, un don mensuel ou des parts de sociétaire en ouvrent l’accès.';
export const UNKNOWN_EPISODE_MESSAGE = 'Aucun épisode réservé aux soutiens ne porte ce nom.';

export const NO_TRANSCRIPT_MESSAGE = 'Cet épisode n’a pas encore de transcription.';

type Refusal = { ok: false; status: 401 | 403 | 404; message: string };

export type ListenAnswer = { ok: true; url: string; expires: Date } | Refusal;

/**
 * Whether the session's user may have this supporters-only episode: 404 for an episode the build
 * does not list as supporters-only (the list is public, so this comes first and reveals nothing),
 * 401 signed out, 403 signed in without support.
 */
export async function supportersEpisodeFor<E extends SupportersEpisode>(
  deps: Pick<ServerDeps, 'db'>,
  input: { userId: string | null; podcast: string; episode: string; now: Date },
  episodes: readonly E[],
): Promise<{ ok: true; episode: E } | Refusal> {
  const found = episodes.find((e) => e.podcast === input.podcast && e.slug === input.episode);
  if (!found) return { ok: false, status: 404, message: UNKNOWN_EPISODE_MESSAGE };
  if (!input.userId) return { ok: false, status: 401, message: SIGNED_OUT_MESSAGE };
  if (!(await isSupportingUser(deps.db, input.userId, input.now))) return { ok: false, status: 403, message: NOT_SUPPORTING_MESSAGE };
  return { ok: true, episode: found };
}

export async function listenAddress(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { userId: string | null; podcast: string; episode: string },
  episodes: readonly SupportersEpisode[],
): Promise<ListenAnswer> {
  const now = deps.clock.now();
  const access = await supportersEpisodeFor(deps, { ...input, now }, episodes);
  if (!access.ok) return access;
  return {
    ok: true,
    url: signedAudioPath({ podcast: access.episode.podcast, filename: access.episode.filename }, now),
    expires: new Date(now.getTime() + AUDIO_URL_TTL_SECONDS * 1000),
  };
}

/** A supporters-only episode's transcript, for a signed-in supporter; 404 when it has none yet. */
export async function supportersTranscriptFor<E extends SupportersEpisode & { transcript?: unknown }>(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { userId: string | null; podcast: string; episode: string },
  episodes: readonly E[],
): Promise<{ ok: true; episode: E & { transcript: NonNullable<E['transcript']> } } | Refusal> {
  const access = await supportersEpisodeFor(deps, { ...input, now: deps.clock.now() }, episodes);
  if (!access.ok) return access;
  const { episode } = access;
  if (!episode.transcript) return { ok: false, status: 404, message: NO_TRANSCRIPT_MESSAGE };
  return { ok: true, episode: episode as E & { transcript: NonNullable<E['transcript']> } };
}
