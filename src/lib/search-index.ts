/**
 * What a page tells the search index (Pagefind) about itself, as attributes for the element
 * that holds its main content. Pages without them are not indexed at all: lists, accounts,
 * forms and the like are not search results.
 */
import type { StoryScheme } from './content-constants';
import { formatDate, parisYear } from './dates';
import type { SearchKind } from './search';

/** A story's kind in search results. */
export const STORY_KINDS: Record<StoryScheme, SearchKind> = { articles: 'Article', emissions: 'Émission', breves: 'Brève' };

export interface SearchIndexOptions {
  /** The publication date, when the content has one: shown in results and filtered by year. */
  published?: Date | undefined;
  /**
   * `false` for a record inside a list page (a brève): the build extracts it as its own
   * result, and the list page itself stays out of the index.
   */
  body?: boolean;
}

/**
 * Spread on the element that holds what is worth finding: `<article {...searchIndex('Article', { published })}>`.
 * Pagefind reads filters and metadata from the element's own attributes, so values never have
 * to be parsed out of the visible text.
 */
export function searchIndex(kind: SearchKind, { published, body = true }: SearchIndexOptions = {}): Record<string, string> {
  const attributes: Record<string, string> = {
    'data-search-kind': kind,
    'data-pagefind-filter': published ? 'kind[data-search-kind], year[data-search-year]' : 'kind[data-search-kind]',
  };
  if (body) attributes['data-pagefind-body'] = '';
  if (published) {
    attributes['data-search-year'] = String(parisYear(published));
    // Formatted here, as on the page ("1er janvier 2026"): the browser needs no date code.
    attributes['data-search-date'] = formatDate(published);
    attributes['data-pagefind-meta'] = 'date[data-search-date]';
  }
  return attributes;
}
