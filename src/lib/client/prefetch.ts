/**
 * Fetches a page ahead when the reader shows intent (pointer resting on a link, focus, touch),
 * so the view transition that follows is instant. At most 5 routes load at once (SPEC §9);
 * each is asked once. Pages made for one user, the API and files are never fetched ahead.
 */
export const MAX_CONCURRENT_PREFETCHES = 5;

const NEVER_AHEAD = /^\/(?:api|mon-compte|login|welcome|modifier-mon-|mailinglist|account|shop|shareholder|soutenir\/dons\/merci)(?:\/|$)/;

/** The same-origin page address worth fetching ahead for this link, if any. */
export function prefetchTarget(
  link: HTMLAnchorElement | { href: string; target: string; hasAttribute(name: string): boolean },
  location: { origin: string; pathname: string; search: string },
): string | null {
  if (!link.href || (link.target && link.target !== '_self')) return null;
  if (link.hasAttribute('download') || link.hasAttribute('data-astro-reload') || link.hasAttribute('data-no-prefetch')) return null;
  let url: URL;
  try {
    url = new URL(link.href, location.origin);
  } catch {
    return null;
  }
  if (url.origin !== location.origin) return null;
  if (url.pathname === location.pathname && url.search === location.search) return null;
  if (NEVER_AHEAD.test(url.pathname) || /\.[a-z0-9]{2,5}$/i.test(url.pathname)) return null;
  return url.pathname + url.search;
}

/** A queue that never runs more than `limit` loads at once and never the same URL twice. */
export function createPrefetchQueue(load: (url: string) => Promise<unknown>, limit = MAX_CONCURRENT_PREFETCHES) {
  const seen = new Set<string>();
  const waiting: string[] = [];
  let running = 0;
  const pump = () => {
    while (running < limit && waiting.length > 0) {
      const url = waiting.shift()!;
      running++;
      void load(url)
        .catch(() => undefined)
        .finally(() => {
          running--;
          pump();
        });
    }
  };
  return {
    add(url: string) {
      if (seen.has(url)) return;
      seen.add(url);
      waiting.push(url);
      pump();
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
