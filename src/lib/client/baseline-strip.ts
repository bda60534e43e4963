/**
 * Shows the header's baseline strip at scroll <= 50 px and hides it below (SPEC §2). It only
 * toggles an attribute on <html>; the page starts with it set, as at the top. Part of the
 * layout's script (one request for the whole layout: src/astro-private/island-runtime.ts).
 */
import { BASELINE_THRESHOLD } from '../ui-constants';

const root = document.documentElement;
let queued = false;
const update = () => {
  queued = false;
  root.toggleAttribute('data-at-top', window.scrollY <= BASELINE_THRESHOLD);
};
window.addEventListener(
  'scroll',
  () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(update);
    }
  },
  { passive: true },
);
document.addEventListener('astro:after-swap', update);
update();
