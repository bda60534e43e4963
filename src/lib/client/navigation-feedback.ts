/**
 * What happens around client-side navigations, bundled once for the whole visit:
 * - a 3 px loading bar while a page is being fetched (it fills over 2000 ms, SPEC §9);
 * - pages fetched ahead on intent, at most 5 at once;
 * - a reload, guarded, when a script chunk of an older build is gone;
 * - a full load instead of a swap when the next page comes from a newer build.
 */
import { claimReload, isChunkLoadError } from './reload-guard';
import { createPrefetchQueue, prefetchTarget } from './prefetch';

/** Navigations faster than this show no bar at all. (The bar's 2000 ms fill is its CSS, global.css.) */
const LOADING_BAR_DELAY_MS = 120;

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function setupLoadingBar() {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bar = () => document.querySelector<HTMLElement>('[data-loading-bar]');
  document.addEventListener('astro:before-preparation', () => {
    clearTimeout(timer);
    timer = setTimeout(() => bar()?.setAttribute('data-state', 'loading'), LOADING_BAR_DELAY_MS);
  });
  const finish = () => {
    clearTimeout(timer);
    const element = bar();
    if (element?.getAttribute('data-state') !== 'loading') return;
    element.setAttribute('data-state', 'done');
    // Back to empty once it has faded out.
    setTimeout(() => {
      if (element.getAttribute('data-state') === 'done') element.removeAttribute('data-state');
    }, 400);
  };
  document.addEventListener('astro:after-swap', finish);
  document.addEventListener('astro:page-load', finish);
  // A navigation that fails falls back to a full load; nothing to finish then.
}

function setupPrefetch() {
  const queue = createPrefetchQueue(
    (url) =>
      new Promise<void>((resolve, reject) => {
        const link = document.createElement('link');
        link.rel = 'prefetch';
        link.href = url;
        link.onload = () => resolve();
        link.onerror = () => reject(new Error(`prefetch ${url}`));
        document.head.append(link);
      }),
  );
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  if (connection?.saveData || /2g/.test(connection?.effectiveType ?? '')) return;
  let hover: ReturnType<typeof setTimeout> | undefined;
  const intent = (event: Event, delay: number) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link) return;
    const url = prefetchTarget(link, location);
    if (!url) return;
    clearTimeout(hover);
    if (delay === 0) queue.add(url);
    else hover = setTimeout(() => queue.add(url), delay);
  };
  document.addEventListener('pointerover', (event) => intent(event, 80), { passive: true });
  document.addEventListener('pointerout', () => clearTimeout(hover), { passive: true });
  document.addEventListener('focusin', (event) => intent(event, 0));
  document.addEventListener('touchstart', (event) => intent(event, 0), { passive: true });
}

function setupReloadGuard() {
  const reload = (reason: unknown, event: Event) => {
    if (!isChunkLoadError(reason) && event.type !== 'vite:preloadError') return;
    if (claimReload(location.pathname, Date.now(), sessionStore())) {
      event.preventDefault();
      location.reload();
    }
  };
  window.addEventListener('vite:preloadError', (event) => reload((event as Event & { payload?: unknown }).payload, event));
  window.addEventListener('unhandledrejection', (event) => reload(event.reason, event));
}

/**
 * After a deployment, the next page's islands would load the new build's modules beside the
 * old ones (two copies of each store): that page is loaded in full instead. No request is
 * needed to find out, the page says which build it comes from.
 */
function setupBuildCheck() {
  const buildOf = (doc: Document) => doc.querySelector<HTMLMetaElement>('meta[name="build-id"]')?.content;
  document.addEventListener('astro:before-swap', (event) => {
    const next = buildOf(event.newDocument);
    // The router records the new address right after the swap: the full load takes that entry.
    if (next && next !== buildOf(document)) event.swap = () => window.location.replace(event.to.href);
  });
}

setupLoadingBar();
setupBuildCheck();
setupPrefetch();
setupReloadGuard();
