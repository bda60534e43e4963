import { describe, expect, it } from 'vitest';
import { listPages, paginate } from './lists';

describe('pagination', () => {
  it('cuts lists into pages of twelve', () => {
    const pages = paginate(Array.from({ length: 25 }, (_, i) => i));
    expect(pages.map((p) => p.length)).toEqual([12, 12, 1]);
  });

  it('always has a first page, even for an empty list', () => {
    expect(paginate([])).toEqual([[]]);
  });

  it('names each page by its path below the list', () => {
    const pages = listPages(
      Array.from({ length: 13 }, (_, i) => i),
      'politique',
    );
    expect(pages.map((p) => p.rest)).toEqual(['politique', 'politique/page/2']);
    expect(pages[1]).toMatchObject({ current: 2, total: 2, items: [12] });
    expect(listPages([1, 2]).map((p) => p.rest)).toEqual([undefined]);
  });
});
