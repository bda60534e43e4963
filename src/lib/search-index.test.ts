import { describe, expect, it } from 'vitest';
import { searchIndex } from './search-index';

describe('search index attributes', () => {
  it('mark the body, its kind, and its date and year in Paris time', () => {
    // 00:30 on 1 January 2026 in Paris is still 2025 in UTC.
    expect(searchIndex('Article', { published: new Date('2025-12-31T23:30:00Z') })).toEqual({
      'data-pagefind-body': '',
      'data-search-kind': 'Article',
      'data-search-year': '2026',
      'data-search-date': '1er janvier 2026',
      'data-pagefind-filter': 'kind[data-search-kind], year[data-search-year]',
      'data-pagefind-meta': 'date[data-search-date]',
    });
  });

  it('leave out the date when there is none, and the body for a record in a list', () => {
    expect(searchIndex('Podcast')).toEqual({ 'data-pagefind-body': '', 'data-search-kind': 'Podcast', 'data-pagefind-filter': 'kind[data-search-kind]' });
    expect(searchIndex('Brève', { published: new Date('2026-03-01T10:00:00Z'), body: false })).not.toHaveProperty('data-pagefind-body');
  });
});
