/**
 * Where a build works, shared by the one-off build (src/host/build.ts) and the resident
 * builder (src/host/builder.ts): the cache, the staging folder Astro builds into, and the
 * links to the pages Astro cached, laid in the staging folder before a build.
 */
import { existsSync, linkSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { FRESH_WRITES_ENV } from './protocol.ts';

export const root = resolve(import.meta.dirname, '../..');

/**
 * @param buildsDir the folder builds go into (each in `<buildsDir>/<id>`)
 */
export function buildPlaces(buildsDir: string, env: NodeJS.ProcessEnv = process.env) {
  const cache = resolve(env.BUILD_CACHE_DIR ?? join(buildsDir, 'cache'));
  // ASTRO_CACHE_DIR, when set, names Astro's part of the cache.
  const astroCache = resolve(env.ASTRO_CACHE_DIR ?? join(cache, 'astro'));
  return { cache, astroCache, staging: join(cache, 'staging'), linkedList: join(cache, 'linked.json') };
}

/**
 * The environment of an Astro build in these places.
 */
export function astroEnv(places: ReturnType<typeof buildPlaces>, id: string) {
  return {
    ASTRO_OUT_DIR: places.staging,
    ASTRO_CACHE_DIR: places.astroCache,
    BUILD_ID: id,
    ASTRO_TELEMETRY_DISABLED: '1',
    [FRESH_WRITES_ENV]: JSON.stringify([places.staging, places.astroCache]),
    CONTRECHAMP_LINKED_PAGES: places.linkedList,
  };
}

/**
 * Empties the staging folder and lays in it hard links to the pages Astro keeps in its cache
 * (its copy of each page with a cacheKey): the pages it skips are then left where they are
 * instead of copied (13,000 pages, 660 MB at 10,000 stories). The live build shares those files,
 * so no write may happen in place: fresh-writes.ts makes every write in the staging folder and
 * the cache go to a new file. Pages no longer built are removed before the search index and the
 * sitemap read the folder (astro.config.mjs, contrechamp:stale-pages).
 * @returns how many pages were linked
 */
export function prepareStaging(places: ReturnType<typeof buildPlaces>): number {
  rmSync(places.staging, { recursive: true, force: true });
  mkdirSync(places.cache, { recursive: true });
  // Astro imports the pages' bundle from the staging folder while it builds: outside the
  // project, its packages are found through this link.
  const modules = join(places.cache, 'node_modules');
  if (relative(root, places.cache).startsWith('..') && !existsSync(modules)) symlinkSync(join(root, 'node_modules'), modules, 'dir');
  const cachedPages = join(places.astroCache, 'dist', 'client');
  const linked = existsSync(cachedPages) ? linkTree(cachedPages, join(places.staging, 'client')) : [];
  writeFileSync(places.linkedList, JSON.stringify(linked));
  return linked.length;
}

/**
 * Hard-links every file of `from` into `to`, in the same folders.
 * @returns the files, relative to `from`
 */
export function linkTree(from: string, to: string): string[] {
  const files = [];
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = relative(from, join(entry.parentPath, entry.name));
    mkdirSync(dirname(join(to, file)), { recursive: true });
    linkSync(join(from, file), join(to, file));
    files.push(file);
  }
  return files;
}
