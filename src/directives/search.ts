/**
 * `client:search`: the search launcher's shortcuts before React. Listens from the moment the
 * header is parsed: Ctrl+K (⌘K on a Mac), "/" outside a field, and a plain click on the
 * header's search link (which stays a link to /rechercher without script) ask for search
 * (requestIntent('search')), and the launcher is loaded and hydrated; it then opens the
 * dialog. What is typed meanwhile is kept for the dialog's field. On the search page the
 * shortcut only focuses the page's own field. Once the launcher listens itself
 * (claimIntent('search')), this stands aside.
 */
import type { ClientDirective } from 'astro';
import { isClaimed, peekIntent, requestIntent, takeIntent } from '../lib/client/intents';
import { focusPageField, isEditable, searchTrigger } from '../lib/client/search-shortcut';
import { hydrator, isPlainClick } from './common';

const searchDirective: ClientDirective = (load, _options, el) => {
  const hydrate = hydrator(load);
  // A request left by the previous page (swapped out while its dialog loaded) is void here.
  takeIntent('search');
  const trigger = searchTrigger();

  const stop = () => {
    document.removeEventListener('keydown', onKeyDown);
    trigger?.removeEventListener('click', onClick);
  };
  const open = () => {
    if (focusPageField()) return;
    requestIntent('search');
    // Without its code (offline, a new deployment), the search page still works.
    hydrate().catch(() => window.location.assign('/rechercher'));
  };

  function onKeyDown(event: KeyboardEvent) {
    // This page was swapped out by the ClientRouter: the next page's launcher has its own.
    if (!el.isConnected) return stop();
    if (event.defaultPrevented || event.isComposing) return;
    const shortcut = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
    const pending = peekIntent('search');
    if (pending) {
      // The dialog is on its way: what is typed meanwhile is kept for its field (not what is
      // typed into a field of the page).
      if (shortcut) event.preventDefault();
      else if (isEditable(event.target)) return;
      else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        pending.text += event.key;
        event.preventDefault();
      } else if (event.key === 'Backspace') {
        pending.text = pending.text.slice(0, -1);
        event.preventDefault();
      }
      return;
    }
    if (isClaimed('search')) return;
    const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target);
    if (shortcut || slash) {
      event.preventDefault();
      open();
    }
  }
  function onClick(event: MouseEvent) {
    if (!isPlainClick(event) || isClaimed('search')) return;
    event.preventDefault();
    open();
  }

  document.addEventListener('keydown', onKeyDown);
  trigger?.addEventListener('click', onClick);
  // Says the shortcuts are live.
  trigger?.setAttribute('data-search-ready', '');
};

export default searchDirective;
