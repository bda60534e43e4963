/**
 * The incremental search index, its pure part (unit-tested in pagefind-delta.test.ts).
 *
 * Pagefind cannot update an index: indexing 10,000 stories takes some 20 s, most of it in
 * Pagefind itself (adding and writing the documents). So a build that changes a few pages keeps
 * the last full index (the base, in the build cache) as it is, and indexes only the documents
 * that differ from it into a second, small index (the delta). The search interface merges the
 * two (Pagefind's mergeIndex) and drops the base's results that the delta supersedes: changed
 * or deleted pages (src/components/search/pagefind.ts). When the delta grows too large, the
 * next build indexes everything again and the delta is gone.
 */
import { createHash } from 'node:crypto';

/** The file in the base index folder that names the delta and what it supersedes. */
export const DELTA_FILE = 'delta.json';
export const DELTA_DIR = 'pagefind-delta';

export interface DeltaManifest {
  /** Where the delta index is, to merge it. */
  index: string;
  /** Results of the base index (page hashes) that are stale: changed or deleted pages. */
  superseded: string[];
}

/** What the base index holds: each document's URL, its content's hash and its Pagefind page hash. */
export type BaseDocuments = Record<string, { hash: string; id: string }>;

export function contentHash(content: string): string {
  return createHash('sha256').update(content).digest('base64url').slice(0, 22);
}

export type IndexPlan = { mode: 'full'; reason: string } | { mode: 'delta'; changed: string[]; superseded: string[] };

/**
 * Index everything again, or only what differs from the base: documents added or changed since
 * the base (by URL and content hash), and the base's documents gone since.
 */
export function planIndex(base: BaseDocuments | null, documents: Map<string, string>, limit: number): IndexPlan {
  if (!base) return { mode: 'full', reason: 'no previous index' };
  const changed = [...documents].filter(([url, hash]) => base[url]?.hash !== hash).map(([url]) => url);
  const removed = Object.keys(base).filter((url) => !documents.has(url));
  if (changed.length + removed.length > limit)
    return { mode: 'full', reason: `${changed.length + removed.length} documents changed since the last full index` };
  const superseded = [...changed, ...removed].flatMap((url) => (base[url] ? [base[url].id] : []));
  return { mode: 'delta', changed, superseded };
}

/** The most documents a delta holds before the index is made again in full. */
export function deltaLimit(documents: number): number {
  return Math.max(200, Math.round(documents * 0.05));
}

interface IncrementalManifest {
  routes?: Record<
    string,
    { dependencyHash?: string; paths?: Record<string, { cacheKey?: string; outputFile?: string; contentHashes?: Record<string, string> }> }
  >;
}

/**
 * Each built page's stamp from Astro's incremental build manifest, by its path in the client
 * folder: a page with the same stamp as in an earlier build has the same HTML (Astro copied it
 * from its cache, for the same reasons). Pages without a cacheKey have no stamp.
 * `clientPrefix` is the client folder relative to the output folder ('client/'), as the
 * manifest's file names start with it.
 */
export function pageStamps(manifest: IncrementalManifest, clientPrefix: string): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const route of Object.values(manifest.routes ?? {})) {
    for (const entry of Object.values(route.paths ?? {})) {
      if (entry.cacheKey === undefined || !entry.outputFile?.startsWith(clientPrefix)) continue;
      const file = decodeURI(entry.outputFile.slice(clientPrefix.length));
      stamps.set(file, contentHash(JSON.stringify([route.dependencyHash ?? '', entry.cacheKey, entry.contentHashes ?? {}])));
    }
  }
  return stamps;
}
