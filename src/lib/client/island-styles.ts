/**
 * Stylesheets of islands that are not on screen when a page first paints (the player bar, the
 * toasts, the user menu's dropdown): they come with the island's code, not in the page's one
 * stylesheet (docs/performance.md, goal 2). An island imports its stylesheet as a URL
 * (`import href from './x.css?url'`: Astro adds an imported stylesheet to every page that
 * renders the island) and waits for `loadIslandStyles(href)` beside its code, so it never shows
 * unstyled.
 *
 * The link goes in <head>, where the ClientRouter removes on each navigation the stylesheets
 * that the next page does not list: those loaded here are added to the next page's head before
 * the swap, so that the router keeps them (a persisted island, the player bar, stays styled).
 */
import type { TransitionBeforeSwapEvent } from 'astro:transitions/client';

const loaded = new Map<string, Promise<void>>();

function selector(href: string): string {
  return `link[rel="stylesheet"][href="${CSS.escape(href)}"]`;
}

function keepAcrossSwaps(event: TransitionBeforeSwapEvent): void {
  const head = event.newDocument.head;
  for (const href of loaded.keys()) {
    if (head.querySelector(selector(href))) continue;
    const link = event.newDocument.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    head.append(link);
  }
}

/** Resolves once the stylesheet applies (or failed: the island then shows unstyled, not broken). */
export function loadIslandStyles(href: string): Promise<void> {
  const known = loaded.get(href);
  if (known) return known;
  if (loaded.size === 0) document.addEventListener('astro:before-swap', keepAcrossSwaps);
  const loading = new Promise<void>((resolve) => {
    const existing = document.head.querySelector<HTMLLinkElement>(selector(href));
    if (existing?.sheet) {
      resolve();
      return;
    }
    const link = existing ?? document.createElement('link');
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        // Tried again by the next island that needs it.
        loaded.delete(href);
        link.remove();
        resolve();
      },
      { once: true },
    );
    if (!existing) {
      link.rel = 'stylesheet';
      link.href = href;
      document.head.append(link);
    }
  });
  loaded.set(href, loading);
  return loading;
}

/** `lazy()`'s loader for an island part whose code and stylesheet are fetched together. */
export function withIslandStyles<T>(load: () => Promise<T>, ...hrefs: string[]): () => Promise<T> {
  return () => Promise.all([load(), ...hrefs.map(loadIslandStyles)]).then(([module]) => module);
}
