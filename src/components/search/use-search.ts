/**
 * A search as the reader types: debounced, and never showing the answer to an older query
 * after a newer one. Results arrive a page at a time (`more`).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { normaliseQuery, type SearchFilters } from '../../lib/search';
import { search, toHit, type PagefindResult, type SearchHit } from './pagefind';

export type SearchStatus = 'idle' | 'loading' | 'done' | 'error';

export interface SearchState {
  status: SearchStatus;
  /** The query the results answer (normalised). */
  query: string;
  total: number;
  hits: SearchHit[];
}

const IDLE: SearchState = { status: 'idle', query: '', total: 0, hits: [] };

/** Long enough to skip the keystrokes of a word being typed, short enough to feel instant. */
export const SEARCH_DEBOUNCE_MS = 150;

export function useSearch(rawQuery: string, filters: SearchFilters, pageSize: number) {
  const [state, setState] = useState<SearchState>(IDLE);
  const results = useRef<PagefindResult[]>([]);
  const generation = useRef(0);
  const query = normaliseQuery(rawQuery);
  const filterKey = JSON.stringify(filters);

  useEffect(() => {
    const current = ++generation.current;
    if (!query) {
      results.current = [];
      setState(IDLE);
      return;
    }
    setState((previous) => ({ ...previous, status: 'loading' }));
    const timer = setTimeout(async () => {
      try {
        const found = await search(query, JSON.parse(filterKey) as SearchFilters);
        const hits = await Promise.all(found.slice(0, pageSize).map(toHit));
        if (current !== generation.current) return;
        results.current = found;
        setState({ status: 'done', query, total: found.length, hits });
      } catch (error) {
        if (current !== generation.current) return;
        console.error('Search failed', error);
        setState({ ...IDLE, status: 'error', query });
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, filterKey, pageSize]);

  const more = useCallback(async () => {
    const current = generation.current;
    const shown = state.hits.length;
    const next = await Promise.all(results.current.slice(shown, shown + pageSize).map(toHit));
    if (current !== generation.current) return;
    setState((previous) => ({ ...previous, hits: [...previous.hits, ...next] }));
  }, [state.hits.length, pageSize]);

  return { ...state, hasMore: state.status === 'done' && state.hits.length < state.total, more };
}
