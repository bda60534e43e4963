/**
 * Vite plugins that take work off every prerendered page (issue 13, goal 5; the profile is in
 * docs/performance.md).
 */
import type { Plugin } from 'vite';
import { hookExpression } from '../lib/process-hooks';

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

const DATA_STORE_MODULE = /[\\/]astro[\\/]dist[\\/]content[\\/]data-store\.js$/;
const CONTENT_ASSETS_MODULE = /[\\/]\.astro[\\/]content-assets\.mjs$/;
const CONTENT_ASSETS_EXPORT = /export default (new Map\(\[[\s\S]*\]\));?\s*$/;

/**
 * Hands the pages' content store and the table of the content's images to the resident builder
 * (src/host/publish-fast.ts), which replaces the entries of a publication in the store and
 * renders the pages they change, without a new `astro build`. Only in the pages' bundle.
 */
export function exposeContentStore(): Plugin {
  return {
    name: 'contrechamp:expose-content-store',
    applyToEnvironment: (environment) => environment.name === 'prerender',
    transform(code, id) {
      if (DATA_STORE_MODULE.test(id)) {
        if (!code.includes('const globalDataStore = dataStoreSingleton();')) {
          this.warn('Magasin de contenu d’Astro non reconnu : la publication rapide est désactivée.');
          return undefined;
        }
        return { code: `${code}\n${hookExpression('contentStore')} = globalDataStore;\n`, map: null };
      }
      if (CONTENT_ASSETS_MODULE.test(id)) {
        if (!CONTENT_ASSETS_EXPORT.test(code)) {
          this.warn('Table des images du contenu non reconnue : la publication rapide est désactivée.');
          return undefined;
        }
        const out = code.replace(
          CONTENT_ASSETS_EXPORT,
          (_, map: string) => `const contentAssets = ${map};\n${hookExpression('contentAssets')} = contentAssets;\nexport default contentAssets;\n`,
        );
        return { code: out, map: null };
      }
      return undefined;
    },
  };
}
