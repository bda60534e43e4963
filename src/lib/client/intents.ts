/**
 * What a reader asked for before the island that serves it had hydrated, shared between the
 * client directives (src/directives/) and the islands' modules: one object on `window`. A build
 * puts both in one chunk (src/astro-private/island-runtime.ts), but `astro dev` still inlines the
 * directives, bundled apart, which share no module with the islands.
 *
 * - `requestIntent(name, value)` records a request (e.g. search opened by Ctrl+K, with the
 *   characters typed while its code loads) and tells the directives waiting on `name`.
 * - `takeIntent(name)` hands the request to the island once it runs, and forgets it.
 * - `claimIntent(name)` says an island now serves `name` itself: the directive's own
 *   listeners then stand aside. It returns the release, for when the island unmounts.
 */
export const INTENT_EVENT = 'contrechamp:intent';

export interface Intent {
  /** Text typed while the island's code was loading (search). */
  text: string;
}

interface Intents {
  pending: Record<string, Intent>;
  live: Record<string, number>;
}

declare global {
  interface Window {
    __contrechampIntents?: Intents;
  }
}

function intents(): Intents {
  window.__contrechampIntents ??= { pending: {}, live: {} };
  return window.__contrechampIntents;
}

/** The pending request for `name`, if any (still pending). */
export function peekIntent(name: string): Intent | undefined {
  return intents().pending[name];
}

export function requestIntent(name: string): Intent {
  const all = intents();
  const intent = (all.pending[name] ??= { text: '' });
  document.dispatchEvent(new CustomEvent(INTENT_EVENT, { detail: name }));
  return intent;
}

export function takeIntent(name: string): Intent | undefined {
  const all = intents();
  const intent = all.pending[name];
  delete all.pending[name];
  return intent;
}

export function claimIntent(name: string): () => void {
  const live = intents().live;
  live[name] = (live[name] ?? 0) + 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    live[name] = Math.max(0, (live[name] ?? 1) - 1);
  };
}

export function isClaimed(name: string): boolean {
  return (intents().live[name] ?? 0) > 0;
}
