/**
 * A reach into Astro's private code (listed in ./surface.ts, which gives its figure): what the
 * resident builder's fast publication (src/host/publish-fast.ts) takes from Astro's `dist/` to
 * read stories into the content store and render pages without `astro build`: six private modules,
 * the digest Astro's content layer uses (xxhash-wasm, Astro's own dependency), the prerenderer's
 * cache of each route's getStaticPaths(), and the image service's `astroAsset` global.
 *
 * Speed only: when this module cannot load, the resident builder says why and every publication
 * is a full build (src/host/builder.ts); `npm run bench:publish -- N --verify` and
 * tests/e2e/publishing.spec.ts check that its pages are, byte for byte, a full build's.
 *
 * Node runs it as is (type stripping), from the resident builder: it imports only Node's modules.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroPrerenderer } from 'astro';

const root = resolve(import.meta.dirname, '../..');
/** One of Astro's private modules (each listed in ./surface.ts): untyped. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const astroDist = (path: string): Promise<any> => import(pathToFileURL(join(root, 'node_modules/astro/dist', path)).href);
const require = createRequire(join(root, 'node_modules/astro/package.json'));

export const [
  { MutableDataStore },
  { globalContentConfigObserver, getEntryData },
  { markdownContentEntryType },
  { createRequest },
  { imageSrcToImportId },
  { redirectTemplate },
] = await Promise.all([
  astroDist('content/mutable-data-store.js'),
  astroDist('content/utils.js'),
  astroDist('vite-plugin-markdown/content-entry-type.js'),
  astroDist('core/request.js'),
  astroDist('assets/utils/resolveImports.js'),
  astroDist('core/routing/3xx.js'),
]);

const { default: xxhash } = await import(pathToFileURL(require.resolve('xxhash-wasm')).href);
/** The digest Astro's content layer gives an entry (its `generateDigest`). */
export const { h64ToString } = (await xxhash()) as { h64ToString: (input: string) => string };

/** Empties Astro's prerenderer's cache of each route's getStaticPaths(), kept for a whole build. */
export function clearRouteCache(prerenderer: AstroPrerenderer): void {
  (prerenderer as AstroPrerenderer & { app: { routeCache: { clearAll(): void } } }).app.routeCache.clearAll();
}

/** Astro's image service's record of the images a build makes (the `astroAsset` global). */
export type AstroAssets = {
  addStaticImage?: unknown;
  staticImages: Map<string, { transforms: Map<string, { finalPath: string }> }>;
};
export const astroAssets = (): AstroAssets => (globalThis as unknown as { astroAsset: AstroAssets }).astroAsset;
