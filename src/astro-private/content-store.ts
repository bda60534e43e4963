/**
 * A reach into Astro's private code (listed in ./surface.ts, which gives its figure): a Vite
 * plugin on Astro's content store (astro/dist/content/data-store.js) and on the table of the
 * content's images it generates (.astro/content-assets.mjs), for the resident builder's fast
 * publication. Speed only: if either is written differently, the build warns, and publications
 * are full builds.
 */
import type { Plugin } from 'vite';
import { hookExpression } from '../lib/process-hooks';

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
