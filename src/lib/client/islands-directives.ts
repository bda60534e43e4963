/**
 * Registers the client directives for Astro's island runtime (see islands.ts), the way Astro's
 * inline directive scripts did: on `self.Astro`, then an `astro:${name}` event for the islands
 * already waiting. ISLAND_DIRECTIVE_NAMES must name every directive a page uses: the server render
 * refuses any other (src/astro-private/island-runtime.ts), since its islands would never wake.
 */
import type { ClientDirective } from 'astro';
import load from 'astro/runtime/client/load.js';
import focus from '../../directives/focus';
import intent from '../../directives/intent';
import session from '../../directives/session';
import menu from '../../directives/menu';
import search from '../../directives/search';
import { ISLAND_DIRECTIVE_NAMES } from '../island-directive-names';

const directives: Record<(typeof ISLAND_DIRECTIVE_NAMES)[number], ClientDirective> = { load, search, menu, focus, session, intent };

const astro = ((self as unknown as { Astro?: Record<string, ClientDirective> }).Astro ??= {});
for (const name of ISLAND_DIRECTIVE_NAMES) {
  astro[name] = directives[name];
  window.dispatchEvent(new Event(`astro:${name}`));
}
