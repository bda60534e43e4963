/**
 * Helpers of the client directives (src/directives/). The directives travel in the layout's
 * script, before any island's code (src/lib/client/islands.ts), so they must stay tiny: no import
 * but these, src/lib/client/intents.ts and src/lib/client/search-shortcut.ts.
 */
import type { ClientDirective } from 'astro';

type DirectiveLoad = Parameters<ClientDirective>[0];

/** Loads the island's code and hydrates it, once, whatever asks how many times. */
export function hydrator(load: DirectiveLoad): () => Promise<void> {
  let started: Promise<void> | undefined;
  return () => (started ??= load().then((hydrate) => hydrate()));
}

/** A plain left click, not one that opens a new tab or window. */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
}
