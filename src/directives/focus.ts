/**
 * `client:focus`: hydrates a form island when the reader first goes to it (focus, a press, or
 * typing, e.g. after autofill). Server-rendered, the form already works (a POST); whatever is
 * typed while the code loads stays in the field, and the island takes it up.
 */
import type { ClientDirective } from 'astro';
import { hydrator } from './common';

const EVENTS = ['focusin', 'pointerdown', 'input'] as const;

const focusDirective: ClientDirective = (load, _options, el) => {
  const hydrate = hydrator(load);
  const start = () => {
    for (const type of EVENTS) el.removeEventListener(type, start);
    void hydrate();
  };
  for (const type of EVENTS) el.addEventListener(type, start);
  if (el.contains(document.activeElement)) start();
};

export default focusDirective;
