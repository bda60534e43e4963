/**
 * The search index in the browser: Pagefind's script, loaded on first use only, and its
 * answers turned into what the interface shows. Pagefind then fetches just the index chunks a
 * query needs.
 */
import { excerptParts, typeset, type ExcerptPart, type SearchFilters } from '../../lib/search';

/** Written by the build (src/integrations/pagefind.ts); absent under `astro dev`. */
const PAGEFIND_SCRIPT = '/pagefind/pagefind.js';

interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
  filters: Record<string, string[] | undefined>;
}

export interface PagefindResult {
  id: string;
  data: () => Promise<PagefindResultData>;
}

interface PagefindResponse {
  results: PagefindResult[];
}

type PagefindFilterQuery = Record<string, string | { any: string[] }>;

/** The part of Pagefind's API this site uses (pagefind.js, 1.x). */
interface Pagefind {
  options: (options: Record<string, unknown>) => Promise<void>;
  init: () => Promise<void>;
  search: (term: string | null, options?: { filters?: PagefindFilterQuery }) => Promise<PagefindResponse | null>;
  filters: () => Promise<Record<string, Record<string, number>>>;
}

let loading: Promise<Pagefind> | undefined;

export function loadPagefind(): Promise<Pagefind> {
  loading ??= (async () => {
    // A run-time URL: the file is not part of the bundle, and the bundler must leave it alone.
    const pagefind = (await import(/* @vite-ignore */ PAGEFIND_SCRIPT)) as Pagefind;
    await pagefind.options({ excerptLength: 26, excerptEllipsis: '…' });
    await pagefind.init();
    return pagefind;
  })();
  // A failed load (offline, say) is tried again next time.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

function filterQuery({ kinds, year }: SearchFilters): PagefindFilterQuery {
  const query: PagefindFilterQuery = {};
  if (kinds.length > 0) query.kind = { any: kinds };
  if (year) query.year = year;
  return query;
}

/** Every match, best first; each one's content is fetched later, only when shown (`toHit`). */
export async function search(query: string, filters: SearchFilters): Promise<PagefindResult[]> {
  const pagefind = await loadPagefind();
  const response = await pagefind.search(query, { filters: filterQuery(filters) });
  return response?.results ?? [];
}

/** The years that have content, most recent first, for the year filter. */
export async function indexedYears(): Promise<string[]> {
  const pagefind = await loadPagefind();
  const years = (await pagefind.filters()).year ?? {};
  return Object.keys(years).sort((a, b) => b.localeCompare(a));
}

export interface SearchHit {
  id: string;
  url: string;
  title: string;
  kind: string | undefined;
  /** Already formatted by the build: "1er janvier 2026". */
  date: string | undefined;
  excerpt: ExcerptPart[];
}

export async function toHit(result: PagefindResult): Promise<SearchHit> {
  const data = await result.data();
  return {
    id: result.id,
    url: data.url,
    title: typeset(data.meta.title ?? data.url),
    kind: data.filters.kind?.[0],
    date: data.meta.date && typeset(data.meta.date),
    excerpt: excerptParts(data.excerpt),
  };
}
