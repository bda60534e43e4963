// @ts-check
/**
 * Precompression at build: every text file of the static output (HTML, CSS, JavaScript, JSON,
 * XML feeds and sitemaps, SVG, text) of at least 256 bytes gets a `.br` (brotli) and a `.gz`
 * (gzip) beside it, which the front process sends to browsers that accept them
 * (src/host/static.ts); nginx's gzip_static and brotli_static read the same files.
 *
 * Incremental: the compressed files are kept in the build cache under the SHA-1 of the file they
 * compress and the levels used (`<cacheDir>/precompressed/`), and a build links them into place: only files whose
 * content is new are compressed. A file Astro reused from its cache (a hard link, same inode, size
 * and time as last build) is not even read. Compression runs on worker threads
 * (src/host/compress-worker.ts): pages at brotli quality 4 and gzip level 4, the measured
 * trade-off (docs/performance.md, « Compression »); hashed assets at the highest levels, since
 * they change only with the code.
 *
 * It runs last among the build hooks (after the search index and the sitemap wrote their files).
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync, renameSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Text files worth compressing: the same list as src/host/static.ts. */
export const COMPRESSIBLE = /\.(?:html?|css|m?js|json|map|webmanifest|xml|txt|csv|vtt|svg)$/;
export const MIN_BYTES = 256;
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 4;
/**
 * Hashed assets (Vite's `_astro/` scripts and stylesheets) change only with the code, and the
 * cache keeps them across builds: they get the smallest files, compressed once.
 */
const HASHED_ASSET = /^_astro\//;
export const ASSET_BROTLI_QUALITY = 11;
export const ASSET_GZIP_LEVEL = 9;

/**
 * Links `source` to `target`, replacing what is there (a link never changes the file another
 * build shares); copies when the two are on different file systems.
 * @param {string} source @param {string} target
 */
function place(source, target) {
  // Already this file (a build made from the previous one's links): nothing to do.
  const there = statSync(target, { throwIfNoEntry: false });
  if (there && there.ino === statSync(source).ino) return;
  rmSync(target, { force: true });
  try {
    linkSync(source, target);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EXDEV') throw error;
    copyFileSync(source, target);
  }
}

/**
 * Precompresses a folder's text files, reusing what `cacheDir` holds.
 * @param {string} clientDir @param {string} cacheDir
 * @param {{ workerScript: string, threads?: number }} options
 * @returns {Promise<{ files: number, compressed: number, reused: number, ms: number, bytes: number, brBytes: number, gzBytes: number }>}
 */
export async function precompress(clientDir, cacheDir, options) {
  const started = performance.now();
  mkdirSync(cacheDir, { recursive: true });
  const manifestFile = join(cacheDir, 'manifest.json');
  /** @type {Record<string, [number, number, number, string]>} */
  let previous = {};
  try {
    previous = JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    // First build, or a cache deleted: everything is compressed.
  }
  /** @type {Record<string, [number, number, number, string]>} */
  const manifest = {};
  /** @type {{ rel: string, path: string, key: string }[]} */
  const files = [];
  /** @type {Map<string, { source: string, target: string, brotliQuality: number, gzipLevel: number }>} */
  const toCompress = new Map();
  let bytes = 0;
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const s = statSync(path);
    if (s.size < MIN_BYTES) continue;
    const rel = relative(clientDir, path);
    const known = previous[rel];
    let hash;
    if (known && known[0] === s.ino && known[1] === s.size && known[2] === s.mtimeMs) hash = known[3];
    else hash = createHash('sha1').update(readFileSync(path)).digest('hex');
    manifest[rel] = [s.ino, s.size, s.mtimeMs, hash];
    bytes += s.size;
    const asset = HASHED_ASSET.test(rel.split('\\').join('/'));
    const brotliQuality = asset ? ASSET_BROTLI_QUALITY : BROTLI_QUALITY;
    const gzipLevel = asset ? ASSET_GZIP_LEVEL : GZIP_LEVEL;
    // The levels are part of the name: a change of levels compresses again.
    const key = `${hash}-${brotliQuality}-${gzipLevel}`;
    files.push({ rel, path, key });
    const cached = join(cacheDir, key);
    if (toCompress.has(key) || (existsSync(`${cached}.br`) && existsSync(`${cached}.gz`))) continue;
    toCompress.set(key, { source: path, target: cached, brotliQuality, gzipLevel });
  }

  // Compress what is new, on worker threads, the biggest files spread first.
  const jobs = [...toCompress.values()];
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.ceil(jobs.length / 20)));
  /** @type {(typeof jobs)[]} */
  const shares = Array.from({ length: threads }, () => []);
  // The slow ones (assets at the highest quality) first, spread over the threads.
  jobs.sort((a, b) => b.brotliQuality - a.brotliQuality);
  jobs.forEach((job, i) => /** @type {typeof jobs} */ (shares[i % threads]).push(job));
  await Promise.all(
    shares
      .filter((s) => s.length > 0)
      .map(
        (share) =>
          new Promise((resolve, reject) => {
            const worker = new Worker(options.workerScript, { workerData: { jobs: share } });
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.once('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`compression worker exited with ${code}`))));
          }),
      ),
  );

  let brBytes = 0;
  let gzBytes = 0;
  for (const { path, key } of files) {
    const cached = join(cacheDir, key);
    place(`${cached}.br`, `${path}.br`);
    place(`${cached}.gz`, `${path}.gz`);
    brBytes += statSync(`${path}.br`).size;
    gzBytes += statSync(`${path}.gz`).size;
  }

  // Forget what this build no longer has (a live build keeps its own links to them).
  const used = new Set(files.map((f) => f.key));
  for (const name of readdirSync(cacheDir)) {
    if (name !== 'manifest.json' && !used.has(name.replace(/\.(?:br|gz)$/, ''))) unlinkSync(join(cacheDir, name));
  }
  writeFileSync(`${manifestFile}.tmp`, JSON.stringify(manifest));
  renameSync(`${manifestFile}.tmp`, manifestFile);
  return {
    files: files.length,
    compressed: jobs.length,
    reused: files.length - jobs.length,
    ms: Math.round(performance.now() - started),
    bytes,
    brBytes,
    gzBytes,
  };
}

/** @returns {import('astro').AstroIntegration} */
export default function precompressIntegration() {
  /** @type {string} */
  let cacheDir = '';
  /** @type {string} */
  let workerScript = '';
  return {
    name: 'contrechamp:precompress',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = join(fileURLToPath(config.cacheDir), 'precompressed');
        workerScript = fileURLToPath(new URL('src/host/compress-worker.ts', config.root));
      },
      'astro:build:done': async ({ dir, logger }) => {
        const r = await precompress(fileURLToPath(dir), cacheDir, { workerScript });
        const mb = (/** @type {number} */ n) => (n / 1e6).toFixed(1);
        logger.info(
          `${r.files} text files: ${r.compressed} compressed, ${r.reused} reused, in ${(r.ms / 1000).toFixed(1)} s (${mb(r.bytes)} MB → br ${mb(r.brBytes)} MB, gzip ${mb(r.gzBytes)} MB)`,
        );
      },
    },
  };
}
