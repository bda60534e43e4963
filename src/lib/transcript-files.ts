/**
 * The transcripts of the corpus, read at build from their sidecars (src/lib/transcripts.ts has
 * the rules): `<CONTENT_DIR>/episodes/<show>/<slug>.vtt` and `<CONTENT_DIR>/stories/emissions/<slug>.vtt`.
 * An entry without a sidecar has no transcript (entries from the content API have none yet);
 * a sidecar that breaks a rule throws, and the build stops with its French message.
 * Supporters-only episodes never get a public transcript: theirs (`supportersTranscript`) is
 * checked by the same rules and goes only into the build's server data (src/lib/build-data.ts),
 * served to supporters on demand.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTENT_DIR } from './content-dir';
import type { Corpus, Episode, Story } from './corpus';
import { parseTranscript, type Cue } from './transcripts';

/** Each sidecar read and checked once per build: its text and its cues (null without a file). */
const cache = new Map<string, { vtt: string; cues: Cue[] } | null>();

function read(file: string, entry: string, duration: number, speakers: string[]): { vtt: string; cues: Cue[] } | null {
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  const vtt = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const found = vtt === null ? null : { vtt, cues: parseTranscript(vtt, { entry, duration, speakers }) };
  cache.set(file, found);
  return found;
}

function load(file: string, entry: string, duration: number, speakers: string[]): Cue[] | null {
  return read(file, entry, duration, speakers)?.cues ?? null;
}

const authorNames = (corpus: Corpus, ids: readonly { id: string }[]) => ids.map(({ id }) => corpus.authors.get(id)?.data.name).filter((n): n is string => !!n);

/** Who may speak in an episode: its show's authors, and the episode's own `speakers` (guests). */
export function episodeSpeakers(corpus: Corpus, episode: Episode): string[] {
  const podcast = corpus.podcasts.get(episode.data.podcast);
  return [...authorNames(corpus, podcast?.data.authors ?? []), ...(episode.data.speakers ?? [])];
}

/** The public transcript of an episode; null without a sidecar, or when it is for supporters only. */
export function episodeTranscript(corpus: Corpus, episode: Episode): Cue[] | null {
  if (episode.data.supportersOnly) return null;
  const file = join(CONTENT_DIR, 'episodes', episode.data.podcast, `${episode.data.slug}.vtt`);
  return load(file, `l’épisode « ${episode.data.podcast}/${episode.data.slug} »`, episode.data.duration, episodeSpeakers(corpus, episode));
}

/** A supporters-only episode's transcript, for the build's server data only; null without a sidecar. */
export function supportersTranscript(corpus: Corpus, episode: Episode): { vtt: string; cues: Cue[] } | null {
  if (!episode.data.supportersOnly) return null;
  const file = join(CONTENT_DIR, 'episodes', episode.data.podcast, `${episode.data.slug}.vtt`);
  return read(file, `l’épisode « ${episode.data.podcast}/${episode.data.slug} »`, episode.data.duration, episodeSpeakers(corpus, episode));
}

/** The transcript of an émission; null without a sidecar. Its speakers: its authors and its `speakers`. */
export function emissionTranscript(corpus: Corpus, story: Story): Cue[] | null {
  if (story.data.scheme !== 'emissions') return null;
  const file = join(CONTENT_DIR, 'stories', 'emissions', `${story.data.slug}.vtt`);
  const speakers = [...authorNames(corpus, story.data.authors), ...(story.data.speakers ?? [])];
  return load(file, `l’émission « ${story.data.slug} »`, story.data.duration, speakers);
}

/** The WebVTT file itself, as published (`…/transcription.vtt`). */
export function episodeTranscriptFile(episode: Episode): string {
  return readFileSync(join(CONTENT_DIR, 'episodes', episode.data.podcast, `${episode.data.slug}.vtt`), 'utf8');
}

export function emissionTranscriptFile(story: Story): string {
  return readFileSync(join(CONTENT_DIR, 'stories', 'emissions', `${story.data.slug}.vtt`), 'utf8');
}

/** What an émission's page depends on in its transcript, for the build's page cache (src/lib/page-keys.ts). */
export function emissionTranscriptKey(story: Story): string {
  const file = join(CONTENT_DIR, 'stories', 'emissions', `${story.data.slug}.vtt`);
  return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16) : '';
}
