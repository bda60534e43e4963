/**
 * The addresses of the supporters' personal feeds, shared by the build (src/lib/podcast-feed.ts,
 * which renders their templates) and the server (src/server/podcasts/feed-answer.ts, which fills
 * them with each supporter's secret).
 */

/** Stands for the supporter's secret in a personal feed's template (never a valid secret: 35 characters). */
export const FEED_SECRET_PLACEHOLDER = '__FLUX_PERSONNEL_SECRET_A_REMPLIR__';

/** The name of the all-shows personal feed (a show's own is its slug). */
export const ALL_SHOWS_FEED = 'tous';

/** The address of a personal feed, relative to the site. */
export const personalFeedPath = (secret: string, feed: string) => `/flux-soutiens/${secret}/${feed}.xml`;

/** The address of a supporters-only episode's audio in a personal feed, relative to the site. */
export const personalAudioPath = (secret: string, podcast: string, filename: string) => `/flux-soutiens/${secret}/audio/${podcast}/${filename}`;

/** The address of a supporters-only episode's transcript (WebVTT) in a personal feed, relative to the site. */
export const personalTranscriptPath = (secret: string, podcast: string, slug: string) => `/flux-soutiens/${secret}/transcription/${podcast}/${slug}.vtt`;
