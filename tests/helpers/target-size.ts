/**
 * WCAG 2.2 success criterion 2.5.8, « Target Size (Minimum) », measured in the page as its text
 * says: a pointer target is at least 24 × 24 CSS px, or, if smaller, a 24 px circle centred on its
 * box meets no other target and no other small target's circle. A link set in a sentence is
 * exempt (its size is the line height of the text around it).
 *
 * What counts as a target: links, buttons, form controls, summaries and anything focusable or with
 * a widget role, shown and not inert. Targets in a fixed or sticky layer (the header, the player
 * bar, a modal dialog) are set against the targets of the same layer only: they move over the page.
 * A box is cut to what an ancestor that clips it (overflow: hidden) leaves; one scrolled out of
 * sight in a scrolling box is left out, and one partly in it keeps its size (scrolling shows it).
 */
import type { Page } from '@playwright/test';

/** One line per failing target: what it is, its size, and the target it comes too close to. */
export function undersizedTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SELECTOR = [
      'a[href]',
      'button',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="slider"]',
      '[role="link"]',
      '[role="tab"]',
      '[role="checkbox"]',
      '[role="switch"]',
      '[role="option"]',
      '[tabindex]:not([tabindex="-1"])',
    ].join(', ');
    const MIN = 24;
    const describe = (el: Element) => {
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      const href = el.getAttribute('href');
      return `${el.tagName.toLowerCase()}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}${href ? `[href="${href.slice(0, 60)}"]` : ''} « ${name} »`;
    };
    const shown = (el: Element) =>
      !el.closest('[inert], .sr-only') &&
      el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true }) &&
      getComputedStyle(el).pointerEvents !== 'none';
    /** Set inline in a block that holds other text: a link in a sentence. */
    const inSentence = (el: Element) => {
      if (getComputedStyle(el).display !== 'inline') return false;
      let block = el.parentElement;
      while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
      if (!block) return false;
      const all = (block.textContent ?? '').trim().length;
      const inTargets = [...block.querySelectorAll(SELECTOR)].reduce((n, t) => n + (t.textContent ?? '').trim().length, 0);
      return inTargets < all;
    };
    const layer = (el: Element) => {
      for (let a: Element | null = el; a; a = a.parentElement) {
        const position = getComputedStyle(a).position;
        if (position === 'fixed' || position === 'sticky') return a;
      }
      return null;
    };
    /** The part of the box left visible, in page coordinates; null when none is. */
    const visibleBox = (el: Element) => {
      const r = el.getBoundingClientRect();
      let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        const scrolls = (o: string) => o === 'auto' || o === 'scroll';
        if (scrolls(s.overflowX) || scrolls(s.overflowY)) {
          if (r.right <= c.left || r.left >= c.right || r.bottom <= c.top || r.top >= c.bottom) return null;
          continue;
        }
        if (s.overflowX !== 'visible') [left, right] = [Math.max(left, c.left), Math.min(right, c.right)];
        if (s.overflowY !== 'visible') [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
      }
      // Under 2 px either way: visually hidden (a skip link parked off screen, a collapsed box).
      if (right - left < 2 || bottom - top < 2 || bottom + scrollY <= 0 || right + scrollX <= 0) return null;
      return { x: left + scrollX, y: top + scrollY, w: right - left, h: bottom - top };
    };
    const targets = [...document.querySelectorAll(SELECTOR)].filter(shown).flatMap((el) => {
      const box = visibleBox(el);
      if (!box) return [];
      return [
        {
          el,
          box,
          cx: box.x + box.w / 2,
          cy: box.y + box.h / 2,
          layer: layer(el),
          small: box.w < MIN - 0.5 || box.h < MIN - 0.5,
          inline: inSentence(el),
        },
      ];
    });
    type Target = (typeof targets)[number];
    const circleMeetsBox = (t: Target, o: Target) => {
      const nx = Math.max(o.box.x, Math.min(t.cx, o.box.x + o.box.w));
      const ny = Math.max(o.box.y, Math.min(t.cy, o.box.y + o.box.h));
      return Math.hypot(t.cx - nx, t.cy - ny) < MIN / 2 - 0.25;
    };
    const circlesMeet = (t: Target, o: Target) => o.small && !o.inline && Math.hypot(t.cx - o.cx, t.cy - o.cy) < MIN - 0.5;
    // A label and its control, or a target inside another, are one target.
    const oneTarget = (a: Target, b: Target) => a.el.contains(b.el) || b.el.contains(a.el);
    const failures: string[] = [];
    for (const t of targets) {
      if (!t.small || t.inline) continue;
      const other = targets.find((o) => o !== t && o.layer === t.layer && !oneTarget(t, o) && (circleMeetsBox(t, o) || circlesMeet(t, o)));
      if (other) failures.push(`${describe(t.el)}, ${Math.round(t.box.w)} × ${Math.round(t.box.h)} px, is too close to ${describe(other.el)}`);
    }
    return [...new Set(failures)];
  });
}
