/**
 * What the search shortcut's two listeners share: the client directive that listens before React
 * (src/directives/search.ts) and the launcher island that takes over (SearchLauncher.island.tsx).
 * No import: the directive is inlined in every page.
 */

/** The header's search link (src/components/shell/Header.astro). */
export const SEARCH_TRIGGER = '[data-search-trigger]';

/** A field the reader is typing in: keys pressed there are not shortcuts. */
export function isEditable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** The header's link, with the shortcut a Mac reader types (⌘K); null when the page has none. */
export function searchTrigger<T extends HTMLElement = HTMLElement>(): T | null {
  const trigger = document.querySelector<T>(SEARCH_TRIGGER);
  if (trigger && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)) {
    trigger.title = 'Rechercher (⌘K)';
    trigger.setAttribute('aria-keyshortcuts', 'Meta+K');
  }
  return trigger;
}

/** On the search page, its own field takes the shortcut: focused and selected; false elsewhere. */
export function focusPageField(): boolean {
  const field = document.querySelector<HTMLInputElement>('[data-search-field]');
  if (!field) return false;
  field.focus();
  field.select();
  return true;
}
