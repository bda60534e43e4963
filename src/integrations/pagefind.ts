/**
 * Builds the site search index (Pagefind) from the prerendered pages, once the build is done,
 * into `<client dir>/pagefind/`. The search interface loads it only when a reader opens
 * search. On-demand pages are not in the build, and are not content anyway.
 *
 * Incremental (see pagefind-delta.ts): a build that changes a few pages leaves the last full
 * index as it is and writes the changed documents into a small second index,
 * `<client dir>/pagefind-delta/`, named by `pagefind/delta.json`. The build cache
 * (`<cacheDir>/pagefind/`) keeps the full index, what it holds, and each page's documents by
 * the page's stamp, so that the pages Astro copied from its cache are not read again.
 */
import type { AstroConfig, AstroIntegration } from 'astro';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import * as pagefind from 'pagefind';
import { documentsOf, pageFile, type IndexDocument } from './pagefind-documents';
import { getHook } from '../lib/process-hooks';
import { pageCopies } from '../astro-private/page-cache';
import { DELTA_DIR, DELTA_FILE, contentHash, deltaLimit, planIndex, type BaseDocuments, type DeltaManifest } from './pagefind-delta';

export const PAGEFIND_DIR = 'pagefind';

/** Pagefind's ready-made interfaces, which this site does not use (it has its own, in French). */
const UNUSED_FILES = [
  'pagefind-ui.js',
  'pagefind-ui.css',
  'pagefind-modular-ui.js',
  'pagefind-modular-ui.css',
  'pagefind-component-ui.js',
  'pagefind-component-ui.css',
  'pagefind-highlight.js',
];

/** Files read at once: enough to keep Pagefind busy, few enough for large corpora. */
const CONCURRENCY = 16;
// 2: stamps from the cached copies' file status instead of Astro's manifest.
const STATE_VERSION = 2;

/** What the cache keeps between builds (`<cacheDir>/pagefind/state.json`). */
interface State {
  version: number;
  /** Each page's stamp and its documents (URL, content hash). */
  files: Record<string, { stamp: string; documents: { url: string; hash: string }[] }>;
  /** What the full index in `<cacheDir>/pagefind/base/` holds. */
  base: BaseDocuments | null;
}

/** A document of this build; its content is read only when it must be indexed. */
interface Document {
  url: string;
  hash: string;
  file: string;
  content?: string;
}

async function directorySize(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Runs `task` over `items`, `CONCURRENCY` at a time. */
async function each<T>(items: T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Every file of a folder, relative to it. */
async function filesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * Copies a folder. Hard links when `linked`: only for files that are never written in place
 * (the cached full index is replaced by deleting it and writing new files, never rewritten).
 */
async function copyTree(from: string, to: string, linked: boolean): Promise<void> {
  await each(await filesOf(from), async (file) => {
    await mkdir(dirname(join(to, file)), { recursive: true });
    if (linked) {
      try {
        await link(join(from, file), join(to, file));
        return;
      } catch {
        // Another file system: copy.
      }
    }
    await copyFile(join(from, file), join(to, file));
  });
}

/** The index's documents by URL and their Pagefind page hashes (a result's id), from its fragments. */
async function fragmentIds(output: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const dir = join(output, 'fragment');
  await each(await readdir(dir), async (name) => {
    const raw = gunzipSync(await readFile(join(dir, name)));
    const fragment = JSON.parse(raw.subarray(raw.indexOf('{')).toString('utf8')) as { url?: string };
    if (fragment.url) ids.set(fragment.url, name.replace(/\.pf_fragment$/, ''));
  });
  return ids;
}

/** A Pagefind index being filled. */
type PagefindIndex = NonNullable<Awaited<ReturnType<typeof pagefind.createIndex>>['index']>;

async function newIndex(): Promise<PagefindIndex> {
  // Figure captions hold image credits ("Illustration : Contrechamp"), not content.
  const { index, errors } = await pagefind.createIndex({ excludeSelectors: ['figcaption', 'video-facade'] });
  if (!index) throw new Error(`Pagefind: ${errors.join('; ')}`);
  return index;
}

/**
 * Indexes documents into `output` (emptied first). `started`: an index the pages were already
 * given to as they were rendered (see `streaming` below), with what it could not index.
 */
async function writeIndex(documents: Document[], output: string, started?: { index: PagefindIndex; problems: string[] }): Promise<void> {
  const index = started?.index ?? (await newIndex());
  const problems: string[] = [...(started?.problems ?? [])];
  try {
    await each(documents, async (document) => {
      const response = await index.addHTMLFile({ url: document.url, content: document.content! });
      problems.push(...response.errors.map((error) => `${document.url}: ${error}`));
    });
    if (problems.length > 0) throw new Error(`Pagefind could not index:\n${problems.join('\n')}`);
    await rm(output, { recursive: true, force: true });
    const written = await index.writeFiles({ outputPath: output });
    if (written.errors.length > 0) throw new Error(`Pagefind: ${written.errors.join('; ')}`);
  } finally {
    await pagefind.close();
  }
  await Promise.all(UNUSED_FILES.map((file) => rm(join(output, file), { force: true })));
}

/**
 * The pages rendered in this build, read as Astro renders them (a prerenderer wrapped around
 * Astro's): their documents need no second reading from disk. When the index is made in full
 * anyway (no previous index: a first build, a cleared cache), each page is given to Pagefind at
 * once, which indexes in its own process while Astro renders the next pages.
 */
/** Pages sent to Pagefind and not yet indexed, at most, while Astro renders. */
const IN_FLIGHT = 64;

interface Streaming {
  /** Documents of the rendered pages, by file, without their content (read again if needed). */
  byFile: Map<string, Document[]>;
  /** The full index being filled, when there is no previous one. */
  started?: { index: PagefindIndex; problems: string[]; pending: Promise<void>[]; urls: Set<string> };
}

export default function pagefindIndex(): AstroIntegration {
  let cacheDir: string | undefined;
  let outDir: string | undefined;
  let config: AstroConfig | undefined;
  // Set by the resident builder (src/host/builder.ts) when it runs the build in its own process.
  const resident = getHook('resident');
  /** In the resident builder: each page's documents in the last build. */
  let lastDocuments: Map<string, Document[]> | undefined;
  let streaming: Streaming | undefined;
  const cacheOf = (root: string) => join(cacheDir ?? join(root, '..', '.pagefind-cache'), 'pagefind');
  return {
    name: 'contrechamp:pagefind',
    hooks: {
      'astro:config:done': ({ config: done }) => {
        config = done;
        cacheDir = fileURLToPath(done.cacheDir);
        outDir = fileURLToPath(done.outDir);
      },
      'astro:build:start': ({ setPrerenderer }) => {
        const stream: Streaming = { byFile: new Map() };
        streaming = stream;
        const full = !existsSync(join(cacheOf(outDir ?? '.'), 'base', 'pagefind-entry.json'));
        let starting: Promise<NonNullable<Streaming['started']>> | undefined;
        const started = () => (starting ??= newIndex().then((index) => (stream.started = { index, problems: [], pending: [], urls: new Set() })));
        setPrerenderer((astro) => ({
          name: 'contrechamp:pagefind',
          setup: () => astro.setup?.() ?? Promise.resolve(),
          getStaticPaths: async () => {
            const paths = await astro.getStaticPaths();
            if (config) resident?.paths(config, astro, paths);
            return paths;
          },
          collectStaticImages: astro.collectStaticImages ? () => astro.collectStaticImages!() : undefined,
          teardown: async () => {
            if (config) await resident?.teardown(fileURLToPath(new URL('./.prerender/', config.build.server)));
            await astro.teardown?.();
          },
          render: async (request, options) => {
            const result = await astro.render(request, options);
            const response = result instanceof Response ? result : result.response;
            if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html') || !response.body) return result;
            const html = await response.text();
            const file = pageFile(new URL(request.url).pathname);
            const documents: Document[] = documentsOf(file, html).map((document) => ({
              url: document.url,
              hash: contentHash(document.content),
              file,
              content: document.content,
            }));
            stream.byFile.set(file, documents);
            if (full) {
              // A page's own result goes to Pagefind now; the records of lists (brèves, printed
              // in several lists) wait, to be indexed once, from the first list in file order.
              const own = documents.filter((document) => !document.url.includes('#'));
              if (own.length > 0) {
                const index = await started();
                for (const document of own) {
                  index.urls.add(document.url);
                  index.pending.push(
                    index.index.addHTMLFile({ url: document.url, content: document.content! }).then((added) => {
                      index.problems.push(...added.errors.map((error) => `${document.url}: ${error}`));
                    }),
                  );
                }
                // Pagefind's process reads what it is sent at its own pace, and what it has not
                // read waits in this process's memory: at most IN_FLIGHT pages ahead of it, or
                // the build held gigabytes at 10,000 stories (docs/performance.md, goal 5).
                const behind = index.pending.at(-IN_FLIGHT - 1);
                if (behind) await behind;
              }
            }
            // Held until the end of the build otherwise: read again from disk when needed.
            for (const document of documents) document.content = undefined;
            const copy = new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
            return result instanceof Response ? copy : { ...result, response: copy };
          },
        }));
      },
      // Astro leaves its prerender entry point out of the bundle when a prerenderer is set (an
      // adapter's own, rendering in another runtime); this one wraps Astro's, which needs it.
      'astro:build:setup': ({ vite, updateConfig }) => {
        if (vite.environments?.prerender?.build?.rolldownOptions?.input) return;
        updateConfig({ environments: { prerender: { build: { rolldownOptions: { input: 'astro/entrypoints/prerender' } } } } });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const output = join(root, PAGEFIND_DIR);
        const deltaOutput = join(root, DELTA_DIR);
        const started = Date.now();
        const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
        const cache = cacheOf(root);
        const stream = streaming;
        streaming = undefined;
        const baseDir = join(cache, 'base');
        const statePath = join(cache, 'state.json');
        const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.html') && !file.startsWith(`${PAGEFIND_DIR}${sep}`)).sort();

        // 1. Every page's documents: from the cache when the page is Astro's cached copy.
        const previous = await readJson<State>(statePath);
        const state: State = previous?.version === STATE_VERSION ? previous : { version: STATE_VERSION, files: {}, base: null };
        // A cache cleared in part: no base to build on.
        if (!existsSync(join(baseDir, 'pagefind-entry.json'))) state.base = null;
        const prefix = `${relative(outDir ?? root, root)
          .split(sep)
          .join('/')}/`.replace(/^\/$/, '');
        // Each page's stamp: its copy in Astro's incremental cache, which Astro writes again
        // (a new file, or at least a new modification time) whenever it renders the page, and
        // leaves alone when it skips it. (Astro's manifest says the same, but it is 230 MB of
        // JSON at 10,000 stories: parsing it cost seconds and a gigabyte.)
        const cachedPages = join(pageCopies(cacheDir ?? join(root, '..', '.pagefind-cache')), prefix);
        // A publication without `astro build` (the resident builder): the pages it did not render
        // are the last build's files, whose documents are known; Astro's cached copies are older
        // than the pages it rendered, so their stamps say nothing of them.
        const publishing = resident?.publishing === true;
        const known = publishing ? lastDocuments : undefined;
        const stamps = new Map<string, string>();
        if (!publishing)
          await each(files, async (file) => {
            const key = file.split(sep).join('/');
            const info = await stat(join(cachedPages, file), { bigint: true }).catch(() => undefined);
            if (info) stamps.set(key, `${info.ino}:${info.size}:${info.mtimeNs}`);
          });
        const byFile = new Map<string, Document[]>();
        let read = 0;
        let rendered = 0;
        await each(files, async (file) => {
          const key = file.split(sep).join('/');
          const captured = stream?.byFile.get(key);
          if (captured) {
            rendered += 1;
            byFile.set(
              file,
              captured.map((document) => ({ ...document, file })),
            );
            return;
          }
          const same = known?.get(file);
          if (same) {
            byFile.set(file, same);
            return;
          }
          const stamp = stamps.get(key);
          const cached = stamp !== undefined ? state.files[key] : undefined;
          if (cached && cached.stamp === stamp) {
            byFile.set(
              file,
              cached.documents.map((document) => ({ ...document, file })),
            );
            return;
          }
          read += 1;
          const documents = documentsOf(file, await readFile(join(root, file), 'utf8'));
          byFile.set(
            file,
            documents.map((document: IndexDocument) => ({ url: document.url, hash: contentHash(document.content), file, content: document.content })),
          );
        });
        // A brève is printed in several lists; it is indexed once, at its canonical anchor.
        const documents = new Map<string, Document>();
        for (const file of files) for (const document of byFile.get(file)!) if (!documents.has(document.url)) documents.set(document.url, document);
        const withContent = async (list: Document[]) =>
          each(
            list.filter((document) => document.content === undefined),
            async (document) => {
              const found = documentsOf(document.file, await readFile(join(root, document.file), 'utf8')).find((d) => d.url === document.url);
              if (!found) throw new Error(`Pagefind: ${document.url} is no longer in ${document.file}`);
              document.content = found.content;
            },
          );
        const readSeconds = seconds(started);

        // 2. Everything again, or what changed since the last full index.
        const plan = planIndex(state.base, new Map([...documents].map(([url, d]) => [url, d.hash])), deltaLimit(documents.size));
        const indexing = Date.now();
        await rm(deltaOutput, { recursive: true, force: true });
        if (plan.mode === 'full') {
          const all = [...documents.values()];
          const started = stream?.started;
          // What the pages already gave Pagefind as they were rendered is not given again.
          const rest = started ? all.filter((document) => !started.urls.has(document.url)) : all;
          await withContent(rest);
          if (started) await Promise.all(started.pending);
          await writeIndex(rest, output, started);
          // The new full index becomes the base: a new folder, never written into afterwards.
          const ids = await fragmentIds(output);
          // Stopped halfway, the next build must not trust a half-replaced base.
          await mkdir(cache, { recursive: true });
          await writeFile(statePath, JSON.stringify({ ...state, base: null }));
          await rm(baseDir, { recursive: true, force: true });
          await copyTree(output, baseDir, false);
          state.base = Object.fromEntries(all.map((d) => [d.url, { hash: d.hash, id: ids.get(d.url) ?? '' }]));
          const size = await directorySize(output);
          logger.info(
            `full index (${plan.reason}): ${documents.size} results in ${PAGEFIND_DIR}/ (${Math.round(size / 1024)} KB); ${rendered} pages taken as rendered${started ? ` (${started.urls.size} results indexed meanwhile)` : ''}, ${read} of ${files.length} pages read in ${readSeconds}, indexed in ${seconds(indexing)}`,
          );
        } else {
          // Only a build without a previous index gives Pagefind its pages while they render.
          if (stream?.started) await pagefind.close();
          // A publication's folder starts as links to the last build's, whose index is already
          // the base's (a base changes only with a full index, which that build then held).
          if (!publishing || !existsSync(join(output, 'pagefind-entry.json'))) {
            await rm(output, { recursive: true, force: true });
            await copyTree(baseDir, output, true);
          }
          if (plan.changed.length > 0) {
            const changed = plan.changed.map((url) => documents.get(url)!);
            await withContent(changed);
            await writeIndex(changed, deltaOutput);
            // A page whose HTML changed but not what Pagefind keeps of it (an attribute, say) has
            // the same result id in both indexes: that result is not stale, it stays (once).
            const deltaIds = new Set((await fragmentIds(deltaOutput)).values());
            plan.superseded = plan.superseded.filter((id) => !deltaIds.has(id));
          }
          logger.info(
            `incremental index: ${plan.changed.length} new or changed and ${plan.superseded.length} superseded results of ${documents.size} in ${DELTA_DIR}/; ${rendered} pages taken as rendered, ${read} of ${files.length} pages read in ${readSeconds}, indexed in ${seconds(indexing)}`,
          );
        }

        // The search interface reads it at every first search: written even when empty, as a new
        // file (the others may be links to the cached index, never to be written into).
        const manifest: DeltaManifest =
          plan.mode === 'delta' ? { index: plan.changed.length > 0 ? `/${DELTA_DIR}/` : '', superseded: plan.superseded } : { index: '', superseded: [] };
        await rm(join(output, DELTA_FILE), { force: true });
        await writeFile(join(output, DELTA_FILE), JSON.stringify(manifest));

        // 3. What the next build needs. After a publication, the pages it rendered lose their
        // stamp (the next `astro build` reads them again); the others keep theirs.
        if (publishing) {
          const present = new Set(files.map((file) => file.split(sep).join('/')));
          for (const key of Object.keys(state.files)) if (!present.has(key) || stream?.byFile.has(key)) delete state.files[key];
        } else {
          state.files = {};
          for (const file of files) {
            const key = file.split(sep).join('/');
            const stamp = stamps.get(key);
            if (stamp !== undefined) state.files[key] = { stamp, documents: byFile.get(file)!.map(({ url, hash }) => ({ url, hash })) };
          }
        }
        // The resident builder's next publication starts from this build's files.
        if (resident) lastDocuments = new Map([...byFile].map(([file, list]) => [file, list.map(({ url, hash }) => ({ url, hash, file }))]));
        await mkdir(cache, { recursive: true });
        await writeFile(statePath, JSON.stringify(state));
        logger.info(`search index done in ${seconds(started)}`);
      },
    },
  };
}
