/**
 * Opens search from any page (SPEC §2): Ctrl+K (⌘K on a Mac), "/" outside a field, or the
 * header's search button, which stays a plain link to /rechercher without JavaScript (and
 * for a Ctrl/⌘-click or a middle click). This island is tiny on purpose: the dialog and the
 * index are only downloaded when a reader opens search.
 *
 * It hydrates with `client:search` (src/directives/search.ts): until a reader asks for search,
 * the shortcuts are that directive's, and neither React nor this island is downloaded. The
 * request that made it load (requestIntent('search')) opens the dialog as soon as it runs.
 */
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { claimIntent, peekIntent, requestIntent, takeIntent } from '../../lib/client/intents';
import { focusPageField, isEditable, searchTrigger } from '../../lib/client/search-shortcut';
import type { SearchDialogProps } from './SearchDialog';

export default function SearchLauncher() {
  const [Dialog, setDialog] = useState<ComponentType<SearchDialogProps> | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const isOpen = useRef(false);

  useEffect(() => {
    const trigger = searchTrigger<HTMLAnchorElement>();

    const open = () => {
      if (focusPageField()) return;
      if (isOpen.current) return;
      isOpen.current = true;
      // Keystrokes made while the dialog loads are kept for its field (src/directives/search.ts).
      requestIntent('search');
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      import('./SearchDialog')
        .then((module) => setDialog(() => module.default))
        // Without its code (offline, a new deployment), the search page still works.
        .catch(() => window.location.assign('/rechercher'));
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const shortcut = (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target);
      if (shortcut || slash) {
        event.preventDefault();
        open();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      open();
    };

    document.addEventListener('keydown', onKeyDown);
    trigger?.addEventListener('click', onClick);
    const release = claimIntent('search');
    // Says the shortcuts are live (the island hydrates before its effects run).
    trigger?.setAttribute('data-search-ready', '');
    // Loaded because a reader asked for search: the dialog opens now.
    if (peekIntent('search')) open();
    return () => {
      release();
      trigger?.removeAttribute('data-search-ready');
      document.removeEventListener('keydown', onKeyDown);
      trigger?.removeEventListener('click', onClick);
    };
  }, []);

  if (!Dialog) return null;
  return (
    <Dialog
      onClose={(restore) => {
        isOpen.current = false;
        takeIntent('search');
        setDialog(null);
        if (restore && returnFocus.current?.isConnected) returnFocus.current.focus();
      }}
    />
  );
}
