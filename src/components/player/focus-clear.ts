/**
 * Keeps the focused element clear of the player bar (WCAG 2.2, 2.4.11 Focus Not Obscured).
 * Chromium brings a focused element into view only when it lies outside the viewport, and the
 * fixed bar covers the viewport's last 85 px: tabbing down a page, a link landing in that band
 * stayed hidden under the bar (`scroll-padding-bottom` does not change that). After the browser's
 * own scroll, the page moves up by what the bar covers, never taking the element's top under
 * the sticky header.
 */
const GAP = 8;

export function keepFocusClearOf(bar: HTMLElement): () => void {
  let frame = 0;
  const onFocus = (event: FocusEvent) => {
    const target = event.target;
    if (!(target instanceof Element) || bar.contains(target)) return;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const box = target.getBoundingClientRect();
      const covered = box.bottom - (bar.getBoundingClientRect().top - GAP);
      if (covered <= 0) return;
      const topPadding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
      const by = Math.min(covered, box.top - topPadding);
      if (by > 0) window.scrollBy({ top: by, behavior: 'instant' });
    });
  };
  document.addEventListener('focusin', onFocus);
  return () => {
    cancelAnimationFrame(frame);
    document.removeEventListener('focusin', onFocus);
  };
}
