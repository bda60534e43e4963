/**
 * Every public URL is built here, so that pages, feeds, the sitemap and tests agree.
 * Pure helpers, safe on both sides.
 */
import type { StoryScheme } from './content-constants';
import { parisYear } from './dates';

export interface StoryRef {
  scheme: StoryScheme;
  slug: string;
  published: Date;
}

/** The first page has no suffix; page n ≥ 2 lives under `/page/n`. */
export function withPage(base: string, page: number): string {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`Invalid page: ${page}`);
  return page === 1 ? base : `${base}/page/${page}`;
}

export const schemeUrl = (scheme: StoryScheme, page = 1) => withPage(`/${scheme}`, page);
export const categoryUrl = (scheme: StoryScheme, category: string, page = 1) => withPage(`/${scheme}/${category}`, page);

/**
 * A story's own page: `/{scheme}/{year}/{slug}` where the year is the publication year in
 * Paris. Brèves have no page: they are read in their list, so their URL is an anchor there
 * (`listPage` says which page of the list holds them).
 */
export function storyUrl(story: StoryRef, listPage = 1): string {
  if (story.scheme === 'breves') return `${schemeUrl('breves', listPage)}#${breveAnchor(story.slug)}`;
  return `/${story.scheme}/${parisYear(story.published)}/${story.slug}`;
}

/** The id of a brève in its list; prefixed so that it never collides with other ids of the page. */
export const breveAnchor = (slug: string) => `breve-${slug}`;

export const authorUrl = (slug?: string, page = 1) => (slug ? withPage(`/auteurs/${slug}`, page) : '/auteurs');
export const tagUrl = (slug?: string, page = 1) => (slug ? withPage(`/tags/${slug}`, page) : '/tags');
export const dossierUrl = (slug?: string) => (slug ? `/dossiers/${slug}` : '/dossiers');
export const podcastUrl = (slug?: string) => (slug ? `/podcasts/${slug}` : '/podcasts');
export const podcastFeedUrl = (slug: string) => `/podcasts/${slug}/rss.xml`;
/** A show's episodes as the player reads them, newest first (prerendered JSON). */
export const podcastEpisodesUrl = (slug: string) => `/podcasts/${slug}/episodes.json`;
/** A fresh signed address of a supporters-only episode's audio, for a signed-in supporter (on demand). */
export const supportersListenApiUrl = (podcast: string, episode: string) =>
  `/api/podcasts/ecoute?podcast=${encodeURIComponent(podcast)}&episode=${encodeURIComponent(episode)}`;
export const episodeUrl = (podcast: string, episode: string) => `/podcasts/${podcast}/${episode}`;
/** An episode's transcript on a page of its own, and as a WebVTT file (src/lib/transcripts.ts). */
export const episodeTranscriptUrl = (podcast: string, episode: string) => `/podcasts/${podcast}/${episode}/transcription`;
export const episodeTranscriptVttUrl = (podcast: string, episode: string) => `/podcasts/${podcast}/${episode}/transcription.vtt`;
/** A supporters-only episode's transcript, rendered on demand for supporters. */
export const supportersTranscriptUrl = (podcast: string, episode: string) => `/podcasts/${podcast}/${episode}/transcription-soutiens`;
export const supportersTranscriptVttUrl = (podcast: string, episode: string) => `/podcasts/${podcast}/${episode}/transcription-soutiens.vtt`;
export const latestEpisodesUrl = (page = 1) => withPage('/podcasts/publications', page);

/** The audio address: the folder URL joined with the file name (SPEC §3). */
export function audioUrl(contentFolderUrl: string, filename: string): string {
  return `${contentFolderUrl.replace(/\/+$/, '')}/${encodeURIComponent(filename)}`;
}
