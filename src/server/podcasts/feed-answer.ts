/**
 * The answer to a personal feed's address (`/flux-soutiens/<secret>/<feed>.xml`), to the audio
 * of a supporters-only episode in it (`/flux-soutiens/<secret>/audio/<show>/<file>`) and to its
 * transcript (`/flux-soutiens/<secret>/transcription/<show>/<episode>.vtt`).
 *
 * - A supporter's address: the build's template of that feed, the secret filled in.
 * - Support ended: a valid feed with one item that says so and links to `/soutenir`; the same
 *   address gives the episodes again when support resumes (the row is kept).
 * - An unknown, forged or reset address: a valid feed with one item that says the address is no
 *   longer valid and where to find the new one. Never another supporter's episodes.
 *
 * Apps poll every hour: each answer has an `ETag` (the template and the secret: it changes with
 * the build, the address and the state) and, for a supporter, `Last-Modified` (the build's
 * time); a matching `If-None-Match` (or, without it, a recent enough `If-Modified-Since`) gets a
 * 304 without the body. The audio address redirects a supporter to a fresh signed address
 * (`audio-access.ts`), which honours `Range`; anyone else gets 403.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PersonalFeedsData } from '../../lib/build-data';
import { ALL_SHOWS_FEED, FEED_SECRET_PLACEHOLDER, personalFeedPath } from '../../lib/personal-feed-paths';
import type { Database } from '../db/database';
import { signedAudioPath } from './audio-access';
import type { SupportersEpisode } from './listen';
import { resolveFeed, SECRET_PATTERN } from './personal-feeds';
import { recordFetch } from './sharing';

export const FEED_HEADERS = {
  'Content-Type': 'application/rss+xml; charset=utf-8',
  // Apps and proxies may keep it, but must ask again (cheaply, with the ETag) before using it.
  'Cache-Control': 'private, no-cache',
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
} as const;

const FEED_NAME = /^[a-z0-9-]{1,80}$/;

export const UNKNOWN_FEED_MESSAGE =
  'Ce flux n’existe pas : les flux personnels sont « tous.xml » et celui de chaque podcast, listés dans votre compte, rubrique « Mes podcasts ».';
export const AUDIO_ENDED_MESSAGE =
  'Votre soutien a pris fin : cet épisode est réservé aux soutiens. Reprenez votre soutien sur /soutenir, et la même adresse redonnera l’épisode.';
export const AUDIO_INVALID_MESSAGE = 'Cette adresse n’est pas (ou plus) valable. Retrouvez votre flux personnel dans votre compte, rubrique « Mes podcasts ».';
export const AUDIO_UNKNOWN_MESSAGE = 'Aucun épisode réservé aux soutiens ne correspond à cette adresse.';
export const TRANSCRIPT_UNKNOWN_MESSAGE = 'Aucune transcription d’épisode réservé aux soutiens ne correspond à cette adresse.';

interface Prepared {
  byName: Map<string, { xml: string; hash: string }>;
  notices: { ended: { xml: string; hash: string }; invalid: { xml: string; hash: string } };
  lastModified: string;
  builtAt: number;
}

const sha = (value: string) => createHash('sha256').update(value).digest('base64url');
const prepared = new WeakMap<PersonalFeedsData, Prepared>();

function prepare(data: PersonalFeedsData): Prepared {
  let p = prepared.get(data);
  if (!p) {
    const builtAt = new Date(data.builtAt);
    p = {
      byName: new Map(data.feeds.map((f) => [f.name, { xml: f.xml, hash: sha(f.xml) }])),
      notices: { ended: { xml: data.notices.ended, hash: sha(data.notices.ended) }, invalid: { xml: data.notices.invalid, hash: sha(data.notices.invalid) } },
      lastModified: builtAt.toUTCString(),
      // HTTP dates have whole seconds.
      builtAt: Math.floor(builtAt.getTime() / 1000) * 1000,
    };
    prepared.set(data, p);
  }
  return p;
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', ...headers },
  });

/** Does `If-None-Match` name this ETag (weak comparison, as RFC 9110 asks for a GET)? */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

export interface FeedRequest {
  secret: string;
  /** `tous` or a show's slug (the path's last segment without `.xml`). */
  feed: string;
  method: 'GET' | 'HEAD';
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  /** The client's address (for the sharing count, hashed by network; never stored as such). */
  address: string;
  now: Date;
}

export async function personalFeedResponse(db: Kysely<Database>, data: PersonalFeedsData | undefined, request: FeedRequest): Promise<Response> {
  if (!data) return text(503, 'Les flux personnels sont momentanément indisponibles : réessayez dans quelques minutes.', { 'Retry-After': '300' });
  const p = prepare(data);
  if (!FEED_NAME.test(request.feed) || !p.byName.has(request.feed)) return text(404, UNKNOWN_FEED_MESSAGE);
  const access = await resolveFeed(db, request.secret, request.now);
  const template = access.state === 'active' ? p.byName.get(request.feed)! : access.state === 'ended' ? p.notices.ended : p.notices.invalid;
  // The address, echoed in the feed's own link, only when it has the shape of a secret.
  const secret = SECRET_PATTERN.test(request.secret) ? request.secret : 'adresse-invalide';
  const etag = `"${sha(`${access.state}:${template.hash}:${secret}:${request.feed}`).slice(0, 32)}"`;
  const headers: Record<string, string> = { ...FEED_HEADERS, ETag: etag };
  if (access.state === 'active') {
    headers['Last-Modified'] = p.lastModified;
    recordFetch(db, access.userId, request.address, request.now);
  }
  const since = request.ifModifiedSince ? Date.parse(request.ifModifiedSince) : Number.NaN;
  const fresh = request.ifNoneMatch !== null ? etagMatches(request.ifNoneMatch, etag) : access.state === 'active' && !Number.isNaN(since) && since >= p.builtAt;
  if (fresh) return new Response(null, { status: 304, headers });
  let xml = template.xml;
  // A notice's own link is the all-shows address: it is the address asked for that it names.
  if (access.state !== 'active')
    xml = xml.replaceAll(personalFeedPath(FEED_SECRET_PLACEHOLDER, ALL_SHOWS_FEED), personalFeedPath(FEED_SECRET_PLACEHOLDER, request.feed));
  xml = xml.replaceAll(FEED_SECRET_PLACEHOLDER, secret);
  return new Response(request.method === 'HEAD' ? null : xml, { status: 200, headers });
}

/** The audio of a supporters-only episode in a personal feed: a redirect to a fresh signed address, for a supporter only. */
export async function personalAudioResponse(
  db: Kysely<Database>,
  episodes: readonly SupportersEpisode[],
  request: { secret: string; podcast: string; filename: string; now: Date; siteUrl: URL },
): Promise<Response> {
  const episode = episodes.find((e) => e.podcast === request.podcast && e.filename === request.filename);
  const access = await resolveFeed(db, request.secret, request.now);
  if (access.state === 'invalid') return text(403, AUDIO_INVALID_MESSAGE);
  if (!episode) return text(404, AUDIO_UNKNOWN_MESSAGE);
  if (access.state === 'ended') return text(403, AUDIO_ENDED_MESSAGE);
  return new Response(null, {
    status: 302,
    // Absolute: some podcast apps still follow only an absolute Location.
    headers: {
      Location: new URL(signedAudioPath({ podcast: episode.podcast, filename: episode.filename }, request.now), request.siteUrl).href,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/**
 * The transcript of a supporters-only episode in a personal feed (`podcast:transcript`,
 * `/flux-soutiens/<secret>/transcription/<show>/<episode>.vtt`): the WebVTT file for a supporter,
 * 403 otherwise, as the audio.
 */
export async function personalTranscriptResponse(
  db: Kysely<Database>,
  episodes: readonly (SupportersEpisode & { transcript?: { vtt: string } | undefined })[],
  request: { secret: string; podcast: string; file: string; now: Date },
): Promise<Response> {
  const slug = request.file.endsWith('.vtt') ? request.file.slice(0, -'.vtt'.length) : null;
  const episode = episodes.find((e) => e.podcast === request.podcast && e.slug === slug && e.transcript);
  const access = await resolveFeed(db, request.secret, request.now);
  if (access.state === 'invalid') return text(403, AUDIO_INVALID_MESSAGE);
  if (!episode?.transcript) return text(404, TRANSCRIPT_UNKNOWN_MESSAGE);
  if (access.state === 'ended') return text(403, AUDIO_ENDED_MESSAGE);
  return new Response(episode.transcript.vtt, {
    status: 200,
    headers: {
      'Content-Type': 'text/vtt; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
