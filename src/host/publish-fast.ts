/**
 * A publication without `astro build`: in the process that ran the last build (the resident
 * builder, src/host/builder.ts), the stories that changed are read into the pages' content
 * store, the pages whose cacheKey changed (and those without one) are rendered by the same
 * prerenderer, and a new build folder is made of the previous one's files (hard links) with
 * those pages in their place.
 *
 * Used only when the stories' files are all that changed, and their images are images the
 * bundle already holds; anything else (code, other collections, a new image) takes a full build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import type { AstroConfig, AstroIntegration, AstroPrerenderer, RouteData } from 'astro';
import { linkTree } from './build-places.ts';
import { ENTRY } from './protocol.ts';
import {
  MutableDataStore,
  astroAssets,
  clearRouteCache,
  createRequest,
  getEntryData,
  globalContentConfigObserver,
  h64ToString,
  imageSrcToImportId,
  markdownContentEntryType,
  redirectTemplate,
} from '../astro-private/fast-publication.ts';
import { getHook, setHook, type ResidentHooks } from '../lib/process-hooks.ts';
import { BROTLI_QUALITY, COMPRESSIBLE, GZIP_LEVEL, MIN_BYTES } from '../integrations/precompress.mjs';

const root = resolve(import.meta.dirname, '../..');

type PathWithRoute = Awaited<ReturnType<AstroPrerenderer['getStaticPaths']>>[number];

/** What the build leaves for publications (src/integrations/pagefind.ts calls these hooks). */
const resident: { config?: AstroConfig; prerenderer?: AstroPrerenderer; paths: PathWithRoute[]; addStaticImage?: unknown } = { paths: [] };
const hooks: ResidentHooks = {
  publishing: false,
  paths(config, prerenderer, paths) {
    Object.assign(resident, { config, prerenderer, paths });
  },
  async teardown(dir: string) {
    // Astro removes it once the build's images are made; a publication's pages need it to name
    // their images' optimised files (without it, they would point at the /_image endpoint).
    resident.addStaticImage = astroAssets()?.addStaticImage;
    const { readdir } = await import('node:fs/promises');
    for (const file of await readdir(dir, { recursive: true })) if (file.endsWith('.mjs')) await import(pathToFileURL(join(dir, file)).href);
  },
};
setHook('resident', hooks);

type Logger = {
  info(m: string): void;
  debug(): void;
  warn(m: string): void;
  error(m: string): void;
  options: object;
  fork(label: string): Logger;
  label: string;
};
const quiet: Logger = { info() {}, debug() {}, warn: (m) => console.warn(m), error: (m) => console.error(m), options: {}, fork: () => quiet, label: 'publish' };

/** `../../images/a.jpg?astroContentImageFlag&importer=src/content/stories/x.md` → its file. */
function imageFile(id: string): string | undefined {
  const [src, query] = id.split('?');
  const importer = new URLSearchParams(query).get('importer');
  return importer && src ? resolve(root, dirname(importer), src) : undefined;
}

/**
 * Makes the images of the changed entries resolvable: the bundle's table of content images is
 * keyed by image and importing file, so an image an entry uses for the first time is given the
 * bundle's copy of that image, when another entry already has it. A refusal when an image is new
 * to the bundle (its optimised files do not exist yet: a full build makes them).
 */
type StoreEntry = { id: string; filePath?: string; assetImports?: string[]; rendered?: { metadata?: { localImagePaths?: string[] } } };
function resolveImages(entries: StoreEntry[]): string | undefined {
  const table = getHook('contentAssets');
  if (!table) return 'table des images absente';
  const byFile = new Map<string, string>();
  for (const id of table.keys()) {
    const file = imageFile(id);
    if (file && !byFile.has(file)) byFile.set(file, id);
  }
  for (const entry of entries) {
    for (const path of entry.assetImports ?? []) {
      const id = imageSrcToImportId(path, entry.filePath);
      if (!id || table.has(id)) continue;
      const file = imageFile(id);
      const known = file === undefined ? undefined : byFile.get(file);
      if (!known) return `image nouvelle : ${path}`;
      table.set(id, table.get(known));
    }
  }
  return undefined;
}

/**
 * Reads the stories again into the bundle's content store. Returns the ids changed, added and
 * removed, or a reason why a full build is needed.
 */
export type Refusal = { refused: string };
export async function updateStories(): Promise<Refusal | { refused?: undefined; changed: string[]; removed: string[] }> {
  const config = globalContentConfigObserver.get();
  if (config?.status !== 'loaded') return { refused: 'configuration du contenu non chargée' };
  const collection = config.config.collections.stories;
  const source = await getHook('contentStore')?.get();
  if (!source || !resident.prerenderer || !collection?.loader?.load) return { refused: 'pas de construction résidente' };
  const collections = source.collections();
  const before = new Map(collections.get('stories'));
  const store = new MutableDataStore();
  store._collections = new Map([['stories', new Map(before)]]);
  await collection.loader.load({
    collection: 'stories',
    store: store.scopedStore('stories'),
    meta: store.metaStore('stories'),
    logger: quiet,
    config: resident.config,
    entryTypes: new Map([['.md', markdownContentEntryType]]),
    generateDigest: (data: unknown) => h64ToString(typeof data === 'string' ? data : JSON.stringify(data)),
    parseData: ({ id, data, filePath = '' }: { id: string; data: unknown; filePath?: string }) =>
      getEntryData({ id, collection: 'stories', unvalidatedData: data, _internal: { rawData: undefined, filePath } }, collection, false),
  });
  const after: Map<string, StoreEntry> = store._collections.get('stories');
  const changed: string[] = [];
  for (const [id, entry] of after) if (before.get(id) !== entry) changed.push(id);
  const removed = [...before.keys()].filter((id) => !after.has(id));
  const entries = changed.map((id) => after.get(id)).filter((entry): entry is StoreEntry => entry !== undefined);
  const inText = entries.find((entry) => entry.rendered?.metadata?.localImagePaths?.length);
  if (inText) return { refused: `images dans le texte de ${inText.id}` };
  const images = resolveImages(entries);
  if (images) return { refused: images };
  collections.set('stories', after);
  getHook('forgetCorpus')?.();
  // Astro keeps each route's getStaticPaths() result for the whole build.
  clearRouteCache(resident.prerenderer);
  return { changed, removed };
}

/** The file a path is written to: `<path>/index.html` for a page, the path for an endpoint. */
export function outFile(pathname: string, route: RouteData): string {
  const clean = pathname.replace(/^\/+/, '');
  if (route.type === 'endpoint') return clean;
  if (pathname === '/404' || pathname === '/500') return `${clean}.html`;
  return clean ? `${clean.replace(/\/$/, '')}/index.html` : 'index.html';
}

/** The paths whose page must be rendered again: a new or changed key, or none. */
export async function pagesToRender(): Promise<{ paths: PathWithRoute[]; render: PathWithRoute[]; previous: Map<string, string | undefined> }> {
  const previous = new Map(resident.paths.map((p) => [p.pathname, p.cacheKey]));
  if (!resident.prerenderer) throw new Error('pas de construction résidente');
  const paths = await resident.prerenderer.getStaticPaths();
  const render = paths.filter((p) => p.cacheKey === undefined || previous.get(p.pathname) !== p.cacheKey || !previous.has(p.pathname));
  return { paths, render, previous };
}

/**
 * A story added (or removed) moves every page of the lists it is in, newest first: about 1,150
 * pages at 10,000 stories, a few seconds of rendering. Past this many pages to render, the
 * second and later pages of lists that already existed wait for the next build, which the
 * publisher queues at once (trigger `follow-up`): the story, the first page of every list, the
 * home page, the feeds, the sitemap and the search index go live first.
 */
export const DEFER_FROM = 200;
const LATER_LIST_PAGE = /\/page\/\d+$/;

/** Renders one path as Astro's build does; the body, or null for none. */
export async function renderPath({ pathname, route }: PathWithRoute, prerenderer: AstroPrerenderer | undefined = resident.prerenderer): Promise<Buffer | null> {
  const config = resident.config;
  if (!config || !prerenderer) throw new Error('pas de construction résidente');
  const origin = new URL(config.site ?? 'http://localhost:4321').origin;
  const ending = route.type === 'page' && !pathname.endsWith('/') ? '/' : '';
  const url = new URL(`${pathname}${route.type === 'endpoint' ? '' : ending}`, origin);
  const request = createRequest({ url, headers: new Headers(), logger: quiet, isPrerendered: true, routePattern: route.component });
  const result = await prerenderer.render(request, { routeData: route, collectMetadata: false });
  const response = result instanceof Response ? result : result.response;
  // A redirect is written as Astro writes it: a page that sends the reader on (generate.js).
  if (response.status >= 300 && response.status < 400) {
    if (route.type === 'redirect' && !config.build.redirects) return null;
    const relativeLocation = response.headers.get('location');
    if (!relativeLocation) return null;
    const body = redirectTemplate({
      status: response.status,
      absoluteLocation: config.site ? new URL(relativeLocation, config.site) : relativeLocation,
      relativeLocation,
      from: url.pathname,
    });
    return Buffer.from(config.compressHTML ? body.replaceAll('\n', '') : body);
  }
  if (!response.body) return null;
  return Buffer.from(await response.arrayBuffer());
}

/**
 * The integrations whose `astro:build:done` a publication runs again, in the configuration's
 * order: stale pages, build data, search index, sitemap, compression, fingerprint. The others
 * (the adapter's) concern the server's code, which a publication does not change.
 */
const REPLAYED = /^(contrechamp:|@astrojs\/sitemap$)/;

/** Links every file of `from` into `to`: `cp -al` where there is one (GNU, several times faster), else file by file. */
function linkAll(from: string, to: string): void {
  if (spawnSync('cp', ['-al', from, to]).status === 0) return;
  rmSync(to, { recursive: true, force: true });
  linkTree(from, to);
}

/**
 * Compresses the pages as they are rendered, on a worker thread, into the compression cache
 * (src/integrations/precompress.mjs), where the build's compression step then finds them: the
 * rendering and the compression share the machine's cores instead of following each other.
 */
type CompressJob = { source: string; target: string; brotliQuality: number; gzipLevel: number };
function compressor(cacheDir: string) {
  mkdirSync(cacheDir, { recursive: true });
  const workerScript = join(root, ENTRY.compressWorker);
  // One worker at a time: the other core renders.
  let chain: Promise<void> = Promise.resolve();
  let batch: CompressJob[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const jobs = batch;
    batch = [];
    chain = chain.then(
      () =>
        new Promise<void>((done, fail) => {
          const worker = new Worker(workerScript, { workerData: { jobs } });
          worker.once('error', fail);
          worker.once('exit', (code) => (code === 0 ? done() : fail(new Error(`compression worker exited with ${code}`))));
        }),
    );
  };
  return {
    add(file: string, body: Buffer) {
      if (!COMPRESSIBLE.test(file) || body.length < MIN_BYTES) return;
      const target = join(cacheDir, `${createHash('sha1').update(body).digest('hex')}-${BROTLI_QUALITY}-${GZIP_LEVEL}`);
      if (existsSync(`${target}.br`) && existsSync(`${target}.gz`)) return;
      batch.push({ source: file, target, brotliQuality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL });
      if (batch.length >= 50) flush();
    },
    async done() {
      flush();
      await chain;
    },
  };
}

/** An integration logger writing to the build's log. */
function integrationLogger(label: string): Logger {
  const write = (level: string) => (message: string) => console.log(`[${label}] ${level === 'info' ? '' : `${level}: `}${message}`);
  return { label, options: {}, info: write('info'), warn: write('warn'), error: write('error'), debug() {}, fork: (l: string) => integrationLogger(l) };
}

/**
 * Makes the next build from `baseline` (the last build this process made) and the stories read
 * again: the pages to render are rendered into the staging folder, which starts as links to the
 * baseline's files, then the build's last steps run as after `astro build`, and the folder is
 * moved to `out`. Resolves with what was done, or `{ refused }` when a full build is needed.
 * `defer`: whether later list pages may wait for the next build (DEFER_FROM).
 */
export type PublishOptions = { baseline: string; out: string; staging: string; stagedList: string; defer?: boolean };
export type Publication = {
  refused?: undefined;
  changed: string[];
  removed: string[];
  rendered: number;
  deferred: number;
  reused: number;
  phases: Record<string, number>;
  total: number;
};
export async function publishFast({ baseline, out, staging, stagedList, defer = true }: PublishOptions): Promise<Refusal | Publication> {
  const started = performance.now();
  const phase: Record<string, number> = {};
  const lap = (name: string, since: number) => (phase[name] = Math.round(performance.now() - since) / 1000);
  let at = performance.now();
  const update = await updateStories();
  if (update.refused !== undefined) return { refused: update.refused };
  lap('content', at);
  at = performance.now();
  const plan = await pagesToRender();
  let render = plan.render;
  let deferred: PathWithRoute[] = [];
  if (defer && render.length > DEFER_FROM) {
    deferred = render.filter((p) => p.route.type === 'page' && LATER_LIST_PAGE.test(p.pathname) && plan.previous.has(p.pathname));
    const waiting = new Set(deferred);
    render = render.filter((p) => !waiting.has(p));
  }
  lap('plan', at);

  at = performance.now();
  rmSync(staging, { recursive: true, force: true });
  linkAll(baseline, staging);
  const config = resident.config;
  if (!config) return { refused: 'pas de construction résidente' };
  const client = fileURLToPath(config.build.client);
  const previousPages = new Set(resident.paths.map((p) => outFile(p.pathname, p.route)));
  writeFileSync(stagedList, JSON.stringify([...previousPages]));
  lap('link', at);

  // A new search capture for this publication: the index integration's build:start hook.
  // The hooks are called with what these integrations read of them (not every field Astro passes).
  type Replayed = { name: string; hooks: Record<string, ((options: object) => unknown) | undefined> };
  const integrations = (config.integrations as AstroIntegration[]).filter((i) => REPLAYED.test(i.name)) as unknown as Replayed[];
  let prerenderer: AstroPrerenderer | undefined = resident.prerenderer;
  for (const integration of integrations) {
    await integration.hooks['astro:build:start']?.({
      logger: integrationLogger(integration.name),
      setPrerenderer: (made: AstroPrerenderer | ((d: AstroPrerenderer) => AstroPrerenderer)) =>
        (prerenderer = typeof made === 'function' ? made(resident.prerenderer as AstroPrerenderer) : made),
    });
  }
  at = performance.now();
  let rendered = 0;
  const compressing = compressor(fileURLToPath(new URL('precompressed/', config.cacheDir)));
  const astroAsset = astroAssets();
  astroAsset.addStaticImage = resident.addStaticImage;
  astroAsset.staticImages = new Map();
  try {
    for (const path of render) {
      const body = await renderPath(path, prerenderer);
      if (!body) continue;
      const file = join(client, outFile(path.pathname, path.route));
      mkdirSync(dirname(file), { recursive: true });
      rmSync(file, { force: true });
      writeFileSync(file, body);
      compressing.add(file, body);
      rendered += 1;
    }
  } finally {
    delete astroAsset.addStaticImage;
    await compressing.done();
  }
  // Every optimised image the pages name must already exist: the baseline made them. An image
  // at a size never made before needs a full build, which makes it.
  for (const { transforms } of astroAsset.staticImages.values()) {
    for (const { finalPath } of transforms.values()) {
      if (!existsSync(join(client, finalPath))) {
        rmSync(staging, { recursive: true, force: true });
        return { refused: `image à préparer : ${finalPath}` };
      }
    }
  }
  lap('pages', at);

  at = performance.now();
  const assets = new Map<string, URL[]>();
  const pages: { pathname: string }[] = [];
  for (const { pathname, route } of plan.paths) {
    const list = assets.get(route.component) ?? [];
    list.push(pathToFileURL(join(client, outFile(pathname, route))));
    assets.set(route.component, list);
    if (route.type === 'page') pages.push({ pathname: pathname.replace(/\/?$/, '/').replace(/^\//, '') });
  }
  hooks.publishing = true;
  try {
    for (const integration of integrations) {
      await integration.hooks['astro:build:done']?.({ dir: config.build.client, pages, assets, routes: [], logger: integrationLogger(integration.name) });
    }
  } finally {
    hooks.publishing = false;
  }
  lap('done', at);
  rmSync(out, { recursive: true, force: true });
  renameSync(staging, out);
  // The deferred pages keep their last key: the next build renders them.
  const waiting = new Set(deferred.map((p) => p.pathname));
  resident.paths = plan.paths.map((p) => (waiting.has(p.pathname) ? { ...p, cacheKey: plan.previous.get(p.pathname) } : p));
  return {
    ...update,
    rendered,
    deferred: deferred.length,
    reused: plan.paths.length - render.length - deferred.length,
    phases: phase,
    total: Math.round(performance.now() - started) / 1000,
  };
}
