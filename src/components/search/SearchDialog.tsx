/**
 * The search dialog (Ctrl+K / ⌘K, or the header's search button): a modal <dialog> with a
 * combobox and its listbox of results. Loaded by SearchLauncher only when a reader opens it.
 *
 * Focus stays in the field; ↑ and ↓ move through the results (aria-activedescendant), Enter
 * opens the active one, Escape closes. Results are links, so a click (or Enter) goes
 * through the ClientRouter like any other link.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { takeIntent } from '../../lib/client/intents';
import { NO_FILTERS, resultsLabel, searchUrl } from '../../lib/search';
import { CloseIcon, SearchIcon } from '../ui/icons';
import { Excerpt, HitMeta } from './HitParts';
import { loadPagefind } from './pagefind';
import { useSearch } from './use-search';
// A URL, not a CSS import: Astro would add an imported stylesheet to every page that has the
// launcher. The link is rendered with the dialog, in the body: the ClientRouter drops from
// <head> what the next page does not list, so a stylesheet added there would not survive.
import stylesheet from './SearchDialog.css?url';

/** Results listed in the dialog; the search page has them all, with filters. */
const RESULTS_SHOWN = 8;

/** The last query, offered again when the dialog reopens (the module outlives page changes). */
let lastQuery = '';

export interface SearchDialogProps {
  /** Called once the dialog has closed; `restoreFocus` is false when a result was followed. */
  onClose: (restoreFocus: boolean) => void;
}

export default function SearchDialog({ onClose }: SearchDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const allResults = useRef<HTMLAnchorElement>(null);
  const followed = useRef(false);
  const [query, setQuery] = useState(lastQuery);
  const [active, setActive] = useState(-1);
  const [styled, setStyled] = useState(false);
  const { status, query: answered, total, hits } = useSearch(query, NO_FILTERS, RESULTS_SHOWN);
  const id = useId();
  const listId = `${id}-results`;
  const optionId = (index: number) => `${id}-result-${index}`;

  // Fetch the index's entry files while the stylesheet loads and the reader types.
  useEffect(() => {
    loadPagefind().catch(() => undefined);
  }, []);

  // Shown once styled (the stylesheet is cached after the first time).
  useEffect(() => {
    if (!styled) return;
    const element = dialog.current!;
    element.showModal();
    // What the reader typed while the dialog loaded (src/directives/search.ts) replaces the last query.
    const typed = takeIntent('search')?.text;
    if (typed) {
      setQuery(typed);
      // The field shows it at once: a key pressed before React renders the new query then adds
      // to it, where it would otherwise replace it (the field's change comes after setQuery).
      if (input.current) input.current.value = typed;
      input.current?.focus();
    } else {
      input.current?.select();
    }
    return () => {
      if (element.open) element.close();
    };
  }, [styled]);

  useEffect(() => {
    lastQuery = query;
  }, [query]);

  // New results: the first one is active, so that Enter opens the best match.
  useEffect(() => {
    setActive(hits.length > 0 ? 0 : -1);
  }, [hits]);

  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  // The launcher hears of the close at once: the dialog's `close` event comes a task later, and a
  // shortcut pressed in between (Escape, then Ctrl+K at once) would find search still open.
  const closed = useRef(false);
  const finish = () => {
    if (closed.current) return;
    closed.current = true;
    onClose(!followed.current);
  };
  const close = () => {
    dialog.current?.close();
    finish();
  };

  const follow = () => {
    followed.current = true;
    // After the click has been handled (by the ClientRouter, or by the browser for an anchor
    // on this same page), so that the link is still in the document while it is followed.
    setTimeout(close, 0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = hits.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (count > 0) setActive((i) => (i + 1) % count);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (count > 0) setActive((i) => (i <= 0 ? count - 1 : i - 1));
        break;
      case 'Enter': {
        event.preventDefault();
        // The active result, or else the search page with this query.
        if (active >= 0) document.getElementById(optionId(active))?.click();
        else if (answered) allResults.current?.click();
        break;
      }
      case 'Escape':
        // Closes at once, even when the field has text (which Escape would otherwise clear).
        event.preventDefault();
        close();
        break;
    }
  };

  // \u00a0: the no-break space French puts before a colon (src/lib/typography.ts).
  let statusText = 'Articles, émissions, brèves, podcasts, dossiers\u00a0: tapez un ou plusieurs mots.';
  if (status === 'error') statusText = 'La recherche est indisponible pour le moment. Réessayez dans un instant.';
  else if (status === 'loading' && hits.length === 0) statusText = 'Recherche…';
  else if (answered) statusText = resultsLabel(total, answered);

  return (
    <>
      <link rel="stylesheet" href={stylesheet} onLoad={() => setStyled(true)} onError={() => setStyled(true)} />
      <dialog
        ref={dialog}
        className="search-dialog"
        aria-label="Recherche"
        onClose={finish}
        // A click on the backdrop (the dialog element itself, around the panel) closes it.
        onClick={(event) => {
          if (event.target === event.currentTarget) close();
        }}
      >
        <div className="search-panel">
          <form role="search" className="search-bar" action="/rechercher" method="get" onSubmit={(event) => event.preventDefault()}>
            <SearchIcon size={22} />
            <label htmlFor={`${id}-input`} className="sr-only">
              Rechercher
            </label>
            <input
              ref={input}
              id={`${id}-input`}
              className="search-input"
              type="search"
              placeholder="Rechercher…"
              autoComplete="off"
              spellCheck={false}
              enterKeyHint="search"
              role="combobox"
              aria-expanded={hits.length > 0}
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={active >= 0 ? optionId(active) : undefined}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={onKeyDown}
            />
            <button type="button" className="icon-btn search-close" aria-label="Fermer la recherche" title="Fermer (Échap)" onClick={close}>
              <CloseIcon size={22} />
            </button>
          </form>

          <p className="search-status" role="status">
            {statusText}
          </p>

          <div id={listId} role="listbox" aria-label="Résultats" className="search-options" hidden={hits.length === 0}>
            {hits.map((hit, index) => (
              <a
                key={hit.id}
                id={optionId(index)}
                href={hit.url}
                role="option"
                aria-selected={index === active}
                tabIndex={-1}
                className="search-option"
                onMouseMove={() => setActive(index)}
                onClick={follow}
              >
                <span className="search-option-title">{hit.title}</span>
                <HitMeta hit={hit} className="search-option-meta" />
                {hit.excerpt.length > 0 && (
                  <span className="search-option-excerpt">
                    <Excerpt parts={hit.excerpt} />
                  </span>
                )}
              </a>
            ))}
          </div>

          <div className="search-foot">
            {answered ? (
              <a ref={allResults} href={searchUrl(answered)} onClick={follow}>
                {total > hits.length ? `Voir les ${total} résultats` : 'Affiner sur la page de recherche'}
              </a>
            ) : (
              <a ref={allResults} href={searchUrl('')} onClick={follow}>
                Recherche avancée
              </a>
            )}
            <span className="search-keys" aria-hidden="true">
              <kbd>↑</kbd> <kbd>↓</kbd> choisir · <kbd>Entrée</kbd> ouvrir · <kbd>Échap</kbd> fermer
            </span>
          </div>
        </div>
      </dialog>
    </>
  );
}
