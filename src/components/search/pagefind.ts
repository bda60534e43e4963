/**
 * The search index in the browser: Pagefind's script, loaded on first use only, and its
 * answers turned into what the interface shows. Pagefind then fetches just the index chunks a
 * query needs.
 */
import { excerptParts, typeset, withoutSuperseded, type ExcerptPart, type SearchFilters } from '../../lib/search';

/** Written by the build (src/integrations/pagefind.ts); absent under `astro dev`. */
const PAGEFIND_SCRIPT = '/pagefind/pagefind.js';
/**
 * Names the small index of the pages changed since the full index was made, and the full
 * index's results it replaces (src/integrations/pagefind-delta.ts).
 */
const DELTA_MANIFEST = '/pagefind/delta.json';

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
  mergeIndex: (path: string) => Promise<void>;
}

let loading: Promise<Pagefind> | undefined;
/** The full index's results that a newer version in the delta replaces, or that are gone. */
let superseded: ReadonlySet<string> = new Set();

export function loadPagefind(): Promise<Pagefind> {
  loading ??= (async () => {
    // A run-time URL: the file is not part of the bundle, and the bundler must leave it alone.
    const pagefind = (await import(/* @vite-ignore */ PAGEFIND_SCRIPT)) as Pagefind;
    await pagefind.options({ excerptLength: 26, excerptEllipsis: '…' });
    await pagefind.init();
    const delta = (await fetch(DELTA_MANIFEST).then((response) => (response.ok ? response.json() : null))) as { index: string; superseded: string[] } | null;
    if (delta?.index) await pagefind.mergeIndex(delta.index);
    superseded = new Set(delta?.superseded ?? []);
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
  return withoutSuperseded(response?.results ?? [], superseded);
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
