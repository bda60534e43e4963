/**
 * The search page (/rechercher): the query and filters live in the URL (`?q=…&type=…&annee=…`)
 * so that a search can be shared or reloaded; results come ten at a time.
 */
import { useEffect, useRef, useState } from 'react';
import { NO_FILTERS, SEARCH_KINDS, readSearchParams, resultsLabel, searchUrl, type SearchFilters, type SearchKind } from '../../lib/search';
import { Excerpt, HitMeta } from './HitParts';
import { indexedYears } from './pagefind';
import { useSearch } from './use-search';
import './SearchPage.css';

const PAGE_SIZE = 10;
/** The address follows the field a little behind the keystrokes (browsers limit history updates). */
const URL_DELAY_MS = 300;

export default function SearchPage() {
  const [query, setQuery] = useState('');
  const [filters, setFilters] = useState<SearchFilters>(NO_FILTERS);
  const [years, setYears] = useState<string[]>([]);
  const [fromUrl, setFromUrl] = useState(false);
  const { status, query: answered, total, hits, hasMore, more } = useSearch(query, filters, PAGE_SIZE);
  const list = useRef<HTMLOListElement>(null);
  const focusFrom = useRef<number | null>(null);

  // The page is prerendered: the query is read from the address once in the browser.
  useEffect(() => {
    const initial = readSearchParams(window.location.search);
    setQuery(initial.query);
    setFilters(initial.filters);
    setFromUrl(true);
    indexedYears().then(setYears, () => undefined);
  }, []);

  useEffect(() => {
    if (!fromUrl) return;
    const timer = setTimeout(() => {
      const url = searchUrl(query, filters);
      // Keeps the ClientRouter's own state, so that Back and Forward still work.
      if (url !== window.location.pathname + window.location.search) window.history.replaceState(window.history.state, '', url);
    }, URL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, filters, fromUrl]);

  // After "Plus de résultats", focus moves to the first new result.
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || hits.length <= from) return;
    focusFrom.current = null;
    list.current?.querySelectorAll<HTMLAnchorElement>('h2 a')[from]?.focus();
  }, [hits]);

  const toggleKind = (kind: SearchKind, on: boolean) =>
    setFilters((current) => ({
      ...current,
      kinds: on ? SEARCH_KINDS.filter((k) => k === kind || current.kinds.includes(k)) : current.kinds.filter((k) => k !== kind),
    }));

  const yearOptions = filters.year && !years.includes(filters.year) ? [filters.year, ...years] : years;

  let statusText = '';
  if (status === 'error') statusText = 'La recherche est indisponible pour le moment. Réessayez dans un instant.';
  else if (status === 'loading' && hits.length === 0) statusText = 'Recherche…';
  else if (answered) statusText = resultsLabel(total, answered);

  return (
    <div className="search-page">
      <form role="search" className="search-page-form" action="/rechercher" method="get" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="search-page-field" className="sr-only">
          Rechercher dans les contenus
        </label>
        <input
          id="search-page-field"
          className="input"
          type="search"
          name="q"
          placeholder="Un mot, un lieu, un nom…"
          autoComplete="off"
          enterKeyHint="search"
          data-search-field
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </form>

      <div className="search-filters">
        <fieldset>
          <legend>Type de contenu</legend>
          <ul className="chips">
            {SEARCH_KINDS.map((kind) => (
              <li key={kind}>
                <label className="search-chip">
                  <input
                    type="checkbox"
                    name="type"
                    value={kind}
                    checked={filters.kinds.includes(kind)}
                    onChange={(event) => toggleKind(kind, event.target.checked)}
                  />
                  <span>{kind}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        <div className="search-year">
          <label className="search-year-label" htmlFor="search-page-year">
            Année de publication
          </label>
          <select
            id="search-page-year"
            className="input"
            name="annee"
            value={filters.year}
            onChange={(event) => setFilters((current) => ({ ...current, year: event.target.value }))}
          >
            <option value="">Toutes les années</option>
            {yearOptions.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </select>
        </div>
      </div>

      <p className="search-page-status" role="status">
        {statusText}
      </p>

      {hits.length > 0 && (
        <ol ref={list} className="search-results" aria-label="Résultats de la recherche">
          {hits.map((hit) => (
            <li key={hit.id}>
              <HitMeta hit={hit} className="search-result-meta" />
              <h2>
                <a href={hit.url}>{hit.title}</a>
              </h2>
              {hit.excerpt.length > 0 && (
                <p className="search-result-excerpt">
                  <Excerpt parts={hit.excerpt} />
                </p>
              )}
            </li>
          ))}
        </ol>
      )}

      {hasMore && (
        <button
          type="button"
          className="btn btn-outline search-more"
          onClick={() => {
            focusFrom.current = hits.length;
            void more();
          }}
        >
          Plus de résultats
        </button>
      )}
    </div>
  );
}
