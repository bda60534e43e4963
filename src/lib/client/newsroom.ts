/**
 * /redaction while a build waits or runs: the state (queue, running build's log) is fetched again
 * every few seconds and swapped in place, until nothing is waiting or running; then the whole page
 * is loaded once more, so that the history and the live build show the outcome. Without
 * JavaScript the page shows the state of the moment, and reloading it shows the next.
 */
const INTERVAL_MS = 3000;
let timer: number | undefined;

export function watchPublication(): void {
  window.clearTimeout(timer);
  const state = document.getElementById('publication-state');
  if (!state?.dataset['watch']) return;
  const page = location.pathname;
  const poll = async () => {
    if (location.pathname !== page) return;
    try {
      const response = await fetch(page, { headers: { Accept: 'text/html' }, credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) throw new Error(String(response.status));
      const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('publication-state');
      const current = document.getElementById('publication-state');
      if (!fresh || !current) return;
      if (!fresh.dataset['watch']) {
        // Done: the outcome changes the whole page (history, live build).
        location.reload();
        return;
      }
      // Keep the reader's place in the log if they scrolled it.
      const log = current.querySelector('.log');
      const atEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
      current.replaceChildren(...Array.from(fresh.childNodes));
      const next = current.querySelector('.log');
      if (next && atEnd) next.scrollTop = next.scrollHeight;
    } catch {
      // Offline for a moment: try again at the next tick.
    }
    timer = window.setTimeout(poll, INTERVAL_MS);
  };
  timer = window.setTimeout(poll, INTERVAL_MS);
}
