/**
 * Where a build works, shared by the one-off build (src/host/build.ts) and the resident
 * builder (src/host/builder.ts): the cache, the staging folder Astro builds into, and the pages
 * staged there before a build.
 *
 * A build must never write a file the live build shares. The pages Astro skips (their cacheKey
 * and code unchanged, astro.config.mjs `experimental.incrementalBuild`) are the live build's own
 * files, hard-linked into the new one, since copying them would cost 660 MB at 10,000 stories.
 * Those links are laid only after Astro has written its last page, on public ground (the first
 * `astro:build:done` hook, `finishStaging`); while Astro builds, neither its output folder nor its
 * folder of cached pages holds a file any build shares:
 *
 * 1. before the build (`prepareStaging`): Astro's copies of the pages it keyed last time
 *    (`<cacheDir>/dist/`) are moved aside, to `previous`, and the staging folder gets a
 *    placeholder for each: a small file of its own, which tells Astro the page is already in place
 *    (Astro then neither copies it nor renders it, when it may skip it);
 * 2. Astro builds: a page it renders replaces its placeholder's content, and its copy goes to a
 *    new, empty `<cacheDir>/dist/`;
 * 3. after the build (`finishStaging`): each placeholder left is a page Astro skipped, replaced by
 *    a link to its kept copy (in the staging folder and in Astro's cache); pages no longer built
 *    are removed; `previous` is removed.
 *
 * If Astro ever skipped nothing, copied its cache or rendered every page instead, the pages would
 * stay right, the build slower (src/astro-private/page-cache.ts; this file's test names what
 * changed).
 */
import { existsSync, linkSync, copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { STAGED_PAGES_ENV } from './protocol.ts';
import { pageCopies } from '../astro-private/page-cache.ts';

export const root = resolve(import.meta.dirname, '../..');

/**
 * @param buildsDir the folder builds go into (each in `<buildsDir>/<id>`)
 */
export function buildPlaces(buildsDir: string, env: NodeJS.ProcessEnv = process.env) {
  const cache = resolve(env.BUILD_CACHE_DIR ?? join(buildsDir, 'cache'));
  // ASTRO_CACHE_DIR, when set, names Astro's part of the cache.
  const astroCache = resolve(env.ASTRO_CACHE_DIR ?? join(cache, 'astro'));
  return {
    cache,
    astroCache,
    staging: join(cache, 'staging'),
    /** The pages laid in the staging folder before a build (relative to its `client/`). */
    stagedList: join(cache, 'staged.json'),
    /** Astro's copies of its keyed pages, moved aside during a build. */
    previous: `${astroCache}-previous`,
  };
}
export type BuildPlaces = ReturnType<typeof buildPlaces>;

/** What the first `astro:build:done` hook needs (STAGED_PAGES_ENV, as JSON). */
export type StagedPages = Pick<BuildPlaces, 'astroCache' | 'stagedList' | 'previous'>;

/**
 * The environment of an Astro build in these places.
 */
export function astroEnv(places: BuildPlaces, id: string) {
  const staged: StagedPages = { astroCache: places.astroCache, stagedList: places.stagedList, previous: places.previous };
  return {
    ASTRO_OUT_DIR: places.staging,
    ASTRO_CACHE_DIR: places.astroCache,
    BUILD_ID: id,
    ASTRO_TELEMETRY_DISABLED: '1',
    [STAGED_PAGES_ENV]: JSON.stringify(staged),
  };
}

/**
 * What a staged page holds until Astro renders it or `finishStaging` links it: never served
 * (a build that could not replace one fails), and unlike any page Astro renders.
 */
export const PLACEHOLDER = '<!-- contrechamp: page kept from the last build (src/host/build-places.ts) -->\n';

/** Astro's copies of the pages it keyed (`<cacheDir>/dist/client/…`). */
const copies = pageCopies;

/**
 * Empties the staging folder and stages in it a placeholder for each page Astro keeps a copy of,
 * after moving those copies aside (above).
 * @returns how many pages were staged, and whether the cache was dropped (a build stopped midway)
 */
export function prepareStaging(places: BuildPlaces): { staged: number; dropped: boolean } {
  rmSync(places.staging, { recursive: true, force: true });
  mkdirSync(places.cache, { recursive: true });
  // Astro imports the pages' bundle from the staging folder while it builds: outside the
  // project, its packages are found through this link.
  const modules = join(places.cache, 'node_modules');
  if (relative(root, places.cache).startsWith('..') && !existsSync(modules)) symlinkSync(join(root, 'node_modules'), modules, 'dir');
  const client = join(places.staging, 'client');
  mkdirSync(client, { recursive: true });
  let dropped = false;
  if (existsSync(places.previous)) {
    // The last build stopped between its two steps: which of the copies match Astro's manifest
    // is unknown. Without copies and without placeholders, Astro renders every page.
    rmSync(places.previous, { recursive: true, force: true });
    rmSync(copies(places.astroCache), { recursive: true, force: true });
    dropped = true;
  } else if (existsSync(copies(places.astroCache))) {
    renameSync(copies(places.astroCache), places.previous);
  }
  // Also what tells `finishStaging` that Astro built (a fast publication stages no copies).
  mkdirSync(places.previous, { recursive: true });
  const kept = join(places.previous, 'client');
  const staged: string[] = [];
  if (existsSync(kept)) {
    for (const entry of readdirSync(kept, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = relative(kept, join(entry.parentPath, entry.name));
      mkdirSync(dirname(join(client, file)), { recursive: true });
      writeFileSync(join(client, file), PLACEHOLDER);
      staged.push(file);
    }
  }
  writeFileSync(places.stagedList, JSON.stringify(staged));
  return { staged: staged.length, dropped };
}

/** The build log's line for what `prepareStaging` did. */
export function stagedLine({ staged, dropped }: ReturnType<typeof prepareStaging>): string {
  if (dropped) return 'the last build stopped midway: Astro’s cached pages dropped, every page rendered again';
  return `${staged} cached pages staged`;
}

/** Whether a staged file still holds its placeholder. */
function isPlaceholder(path: string): boolean {
  const info = statSync(path, { throwIfNoEntry: false });
  return info !== undefined && info.size === Buffer.byteLength(PLACEHOLDER) && readFileSync(path, 'utf8') === PLACEHOLDER;
}

/** Links `source` to `target` (a new name of the same file); copies across file systems. */
function linkOrCopy(source: string, target: string) {
  rmSync(target, { force: true });
  mkdirSync(dirname(target), { recursive: true });
  try {
    linkSync(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    copyFileSync(source, target);
  }
}

/**
 * The first step after Astro has written its pages (or after a fast publication rendered its
 * own, src/host/publish-fast.ts): every staged page not built this time is removed, and every one
 * still a placeholder (Astro skipped it) becomes a link to its kept copy, in the build and in
 * Astro's cache. Throws, failing the build, when a placeholder has no copy to take its place.
 * @param client the build's `client/` folder
 * @param built every file the build made or kept, absolute
 */
export function finishStaging(places: StagedPages, client: string, built: ReadonlySet<string>): { removed: number; linked: number } {
  const staged = JSON.parse(readFileSync(places.stagedList, 'utf8')) as string[];
  // No copies aside: a fast publication, whose staged files are links, never placeholders.
  const astroBuilt = existsSync(places.previous);
  let removed = 0;
  let linked = 0;
  for (const file of staged) {
    const path = join(client, file);
    if (!built.has(path)) {
      rmSync(path, { force: true });
      removed += 1;
      continue;
    }
    if (!astroBuilt || !isPlaceholder(path)) continue;
    const copy = join(places.previous, 'client', file);
    if (!existsSync(copy)) throw new Error(`${file}: Astro a gardé cette page sans la recalculer, mais sa copie de la construction précédente manque.`);
    linkOrCopy(copy, path);
    linkOrCopy(copy, join(copies(places.astroCache), 'client', file));
    linked += 1;
  }
  if (astroBuilt) {
    // A page Astro rendered has two files with the same bytes: the build's and Astro's copy.
    // One is enough: the next build then keeps the very file readers are served.
    for (const path of built) {
      const file = relative(client, path);
      const copy = join(copies(places.astroCache), 'client', file);
      const info = statSync(copy, { throwIfNoEntry: false });
      if (info && info.ino !== statSync(path).ino && info.size === statSync(path).size) linkOrCopy(path, copy);
    }
  }
  rmSync(places.previous, { recursive: true, force: true });
  return { removed, linked };
}

/**
 * The last check before a build goes into place: no placeholder is left (the staged pages'
 * integration ran, astro.config.mjs). Throws, naming the first ones, otherwise.
 */
export function assertStagingFinished(places: BuildPlaces): void {
  const staged = JSON.parse(readFileSync(places.stagedList, 'utf8')) as string[];
  const left = staged.filter((file) => isPlaceholder(join(places.staging, 'client', file)));
  if (left.length > 0)
    throw new Error(
      `${left.length} pages de la construction précédente non remises en place (${left.slice(0, 3).join(', ')}…) : contrechamp:staged-pages n’a pas tourné.`,
    );
}

/**
 * After a build that failed (not one killed: the next build then drops the cache): when Astro
 * wrote no copy of a page, its manifest either was not written or keeps every page as it was, so
 * the copies set aside go back and the next build is incremental still. Otherwise they are left
 * aside, and the next build renders every page.
 */
export function abandonStaging(places: BuildPlaces): void {
  if (!existsSync(places.previous) || existsSync(copies(places.astroCache))) return;
  renameSync(places.previous, copies(places.astroCache));
}

/**
 * The integration that runs `finishStaging` (astro.config.mjs lists it first): each page Astro
 * skipped becomes the page it kept, and a page it no longer builds (a deleted story, a list page
 * fewer) is removed, before the search index and the sitemap read the folder. A fast publication
 * (src/host/publish-fast.ts) runs it too, on its staging folder of links. Without
 * STAGED_PAGES_ENV (a plain `astro build`), it does nothing.
 */
export function stagedPages(): AstroIntegration {
  return {
    name: 'contrechamp:staged-pages',
    hooks: {
      'astro:build:done': ({ dir, assets, logger }) => {
        const places = process.env[STAGED_PAGES_ENV];
        if (!places) return;
        const built = new Set([...assets.values()].flat().map((url) => fileURLToPath(url)));
        const { removed, linked } = finishStaging(JSON.parse(places) as StagedPages, fileURLToPath(dir), built);
        logger.info(`${linked} pages kept from the last build, ${removed} no longer built removed`);
      },
    },
  };
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
