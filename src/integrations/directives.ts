/**
 * The site's client directives (src/directives/): islands load on the interaction that needs
 * them rather than when the browser is idle, so that a reader who only reads downloads neither
 * React nor any island (`npm run bench:js`).
 *
 * - `client:search`  the search launcher: Ctrl+K, "/", the header's search link.
 * - `client:menu`    the side navigation: when its popover first opens.
 * - `client:focus`   the newsletter form: when the reader first goes to it.
 * - `client:session` the user menu: at once when the session hint cookie is set, else never.
 * - `client:intent`  the player and the toasts: when a script asks for them (requestIntent).
 */
import type { AstroIntegration } from 'astro';
import { fileURLToPath } from 'node:url';
import { SITE_DIRECTIVE_NAMES } from '../lib/island-directive-names';

export default function clientDirectives(): AstroIntegration {
  return {
    name: 'contrechamp:client-directives',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        for (const name of SITE_DIRECTIVE_NAMES) {
          addClientDirective({ name, entrypoint: fileURLToPath(new URL(`../directives/${name}.ts`, import.meta.url)) });
        }
      },
    },
  };
}
