/** Paginated lists: page 1 at the base, page n at `base/page/n`. Pure, safe on both sides. */
import { PAGE_SIZE } from './content-constants';

/** Split a list into pages; there is always at least one (possibly empty) page. */
export function paginate<T>(items: T[], pageSize = PAGE_SIZE): T[][] {
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += pageSize) pages.push(items.slice(i, i + pageSize));
  return pages.length ? pages : [[]];
}

export interface ListPage<T> {
  /** The rest parameter below the route's base: undefined, "page/2", "slug", "slug/page/2"… */
  rest: string | undefined;
  current: number;
  total: number;
  items: T[];
}

export function listPages<T>(items: T[], prefix?: string): ListPage<T>[] {
  const pages = paginate(items);
  return pages.map((pageItems, index) => {
    const current = index + 1;
    const suffix = current === 1 ? undefined : `page/${current}`;
    const rest = [prefix, suffix].filter(Boolean).join('/') || undefined;
    return { rest, current, total: pages.length, items: pageItems };
  });
}
