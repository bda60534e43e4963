/**
 * A reach into Astro's private code (listed in ./surface.ts, which gives its figure): a Vite
 * plugin on the page map Astro writes (astro/dist/vite-plugin-pages/pages.js), which takes work
 * off every prerendered page (issue 13, goal 5; the profile is in docs/performance.md). Speed
 * only: if Astro writes its page map differently, the build warns and nothing changes.
 */
import type { Plugin } from 'vite';

const PAGES_MODULE = '\0virtual:astro:pages';
const PAGE_IMPORT = /const (_page\d+) = \(\) => import\(("[^"]+")\);/g;

/**
 * Imports each page's module once. Astro's page map holds `() => import(page)`, called for
 * every page rendered; during `astro build` Vite has registered a module resolution hook, so
 * each of those calls resolved the module again through Node's loader, reading package.json
 * scopes on the way: 1.7 ms a page, 4.7 s of a 2,000-story build's 62 s of rendering. The
 * promise of the first import is kept instead: the same module, as Node would have returned it.
 * If a later Astro writes its page map differently, the build warns and nothing changes.
 */
export function pageModulesOnce(): Plugin {
  return {
    name: 'contrechamp:page-modules-once',
    transform(code, id) {
      if (id !== PAGES_MODULE) return undefined;
      let found = 0;
      const out = code.replace(PAGE_IMPORT, (_, name: string, specifier: string) => {
        found += 1;
        return `let ${name}$; const ${name} = () => (${name}$ ??= import(${specifier}));`;
      });
      if (found === 0) {
        this.warn('Table des pages d’Astro non reconnue : chaque page importera de nouveau son module.');
        return undefined;
      }
      return { code: out, map: null };
    },
  };
}
