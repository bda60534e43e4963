/**
 * The static files of one build, served by the front process itself (src/host/front.ts)
 * rather than passed to an app process: `<build>/client/`, as the Astro node adapter serves it
 * (a folder's `index.html`, with or without the trailing slash; `trailingSlash: 'ignore'`), with
 * the security headers of every answer (src/config/security-headers.mjs).
 *
 * - Compression: the `.br` and `.gz` made beside text files at build (src/integrations/precompress.mjs)
 *   are sent to a browser that accepts them (brotli first), always with `Vary: Accept-Encoding`.
 *   A text file without them (a build made before, a small file) is compressed once here and kept.
 * - Caching: hashed files (`/_astro/`, Pagefind's index chunks) are immutable for a year; every
 *   other file revalidates (`no-cache`, with ETag and Last-Modified: 304 when unchanged).
 * - Ranges (audio): one range of the identity bytes, `If-Range` honoured.
 * - Files up to 1 MB, with their compressed forms, are kept in memory (at most STATIC_CACHE_MB,
 *   64 MB by default), checked against the disk at most once a second; larger ones are streamed.
 *
 * Anything else goes to the app process, which still serves it the adapter's way: other methods,
 * paths that are not a plain file (on-demand pages, the 404 page), dot files, encoded slashes or
 * dots, unknown extensions, preconditions (If-Match, If-Unmodified-Since) and several ranges.
 */
import { createReadStream, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { SECURITY_HEADERS } from '../config/security-headers.mjs';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Content types, as the adapter (send / mime-types) sends them; a file of another extension goes to the app. */
const TYPES = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json',
  xml: 'application/xml',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  svg: 'image/svg+xml',
  ico: 'image/vnd.microsoft.icon',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  wasm: 'application/wasm',
  // Pagefind's index: already compressed binary files.
  pagefind: 'application/octet-stream',
  pf_meta: 'application/octet-stream',
  pf_index: 'application/octet-stream',
  pf_fragment: 'application/octet-stream',
  pf_filter: 'application/octet-stream',
} as Record<string, string>;

/** Text files worth compressing (the same list as the build's, src/integrations/precompress.mjs). */
export const COMPRESSIBLE = /\.(?:html?|css|m?js|json|map|webmanifest|xml|txt|csv|vtt|svg)$/;
/** Smaller text files are sent as they are. */
export const MIN_COMPRESS_BYTES = 256;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, no-cache';
/** Files named by their content: Vite's assets, Pagefind's index chunks and metadata. */
const HASHED = /^\/(?:_astro\/|pagefind(?:-delta)?\/(?:fragment|index|filter)\/|pagefind(?:-delta)?\/pagefind\.[^/]+\.pf_meta$)/;
/** A path the front may resolve itself: no dot segment or dot file (save /.well-known/, left to the app), no backslash, no NUL. */
const PLAIN_PATH = /^\/(?:[^/.\\\0][^/\\\0]*\/)*(?:[^/.\\\0][^/\\\0]*)?$/;

const MEMORY_FILE_MAX = 1024 * 1024;
const RECHECK_MS = 1000;

/** One form of a file: as is (identity) or precompressed; `body` when held in memory. */
export type Variant = { body?: Buffer; path: string; size: number; etag: string; raw?: string[] };
/** A file of the build as the front serves it. */
export type Entry = {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
  checkedAt: number;
  type: string;
  cacheControl: string;
  lastModified: string;
  compressible: boolean;
  bytes: number;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
};

/**
 * The path of the file a request names, or undefined when the front leaves it to the app.
 */
export function requestPath(url: string) {
  const hash = url.indexOf('#');
  const noHash = hash >= 0 ? url.slice(0, hash) : url;
  const q = noHash.indexOf('?');
  const raw = q >= 0 ? noHash.slice(0, q) : noHash;
  let path = raw;
  if (raw.includes('%')) {
    // Encoded separators and dots stay the app's business (the adapter decodes them its own way).
    if (/%(?:2f|5c|2e|00)/i.test(raw)) return undefined;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  if (!PLAIN_PATH.test(path) || path.includes('//')) return undefined;
  return path;
}

function extension(file: string) {
  const slash = file.lastIndexOf('/');
  const dot = file.lastIndexOf('.');
  return dot > slash ? file.slice(dot + 1).toLowerCase() : '';
}

const etagOf = (s: Stats) => `W/"${s.size.toString(16)}-${s.mtime.getTime().toString(16)}"`;

/** The last header read and what it accepts: a browser sends the same one with every request. */
let lastAcceptEncoding: { header: string | undefined; accepted: { br: boolean; gzip: boolean } } | undefined;

/**
 * The encodings an Accept-Encoding header accepts, of brotli and gzip.
 */
export function acceptedEncodings(header: string | undefined): { readonly br: boolean; readonly gzip: boolean } {
  if (lastAcceptEncoding && lastAcceptEncoding.header === header) return lastAcceptEncoding.accepted;
  const accepted = parseAcceptEncoding(header);
  lastAcceptEncoding = { header, accepted };
  return accepted;
}

function parseAcceptEncoding(header: string | undefined) {
  let br = false;
  let gzipOk = false;
  for (const part of (header ?? '').split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!(q > 0)) continue;
    if (token === 'br') br = true;
    else if (token === 'gzip' || token === 'x-gzip') gzipOk = true;
    else if (token === '*') {
      br = true;
      gzipOk = true;
    }
  }
  return { br, gzip: gzipOk };
}

/**
 * A build's static files. `lookup()` resolves a request path to a file (or undefined: the app's);
 * `serve()` answers with it.
 * @param clientDir the build's `client/` folder
 */
export function createStaticSite(clientDir: string, options: { cacheBytes?: number } = {}) {
  const budget = options.cacheBytes ?? Number(process.env.STATIC_CACHE_MB ?? 64) * 1024 * 1024;
  const entries: Map<string, Entry | null> = new Map();
  const loading: Map<string, Promise<Entry | null>> = new Map();
  /** When a path was last found to be no file (misses are not bounded by the files on disk: forgotten every minute). */
  const knownMisses: Map<string, number> = new Map();
  const sweep = setInterval(() => knownMisses.clear(), 60_000);
  sweep.unref();
  let held = 0;

  function keep(key: string, entry: Entry | null) {
    const old = entries.get(key);
    if (old) held -= old.bytes;
    entries.delete(key);
    entries.set(key, entry);
    if (entry) held += entry.bytes;
    // Oldest first out (Map order: an entry is moved to the end when it is checked again).
    for (const [k, e] of entries) {
      if (held <= budget && entries.size <= 50_000) break;
      entries.delete(k);
      if (e) held -= e.bytes;
    }
  }

  /**
   * @param path a file in clientDir
   */
  async function load(path: string, urlPath: string, s: Stats): Promise<Entry> {
    const ext = extension(path);
    const type = TYPES[ext] as string;
    const compressible = COMPRESSIBLE.test(path) && s.size >= MIN_COMPRESS_BYTES;
    const inMemory = s.size <= MEMORY_FILE_MAX;
    const entry: Entry = {
      path,
      size: s.size,
      mtimeMs: s.mtimeMs,
      ino: s.ino,
      checkedAt: Date.now(),
      type,
      cacheControl: HASHED.test(urlPath) ? IMMUTABLE : REVALIDATE,
      lastModified: s.mtime.toUTCString(),
      compressible,
      bytes: 0,
      identity: { path, size: s.size, etag: etagOf(s) },
    };
    if (inMemory) {
      entry.identity.body = await readFile(path);
      entry.size = entry.identity.body.length;
      entry.identity.size = entry.size;
    }
    if (compressible) {
      for (const [name, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        let variant: Variant | undefined;
        try {
          const vs = await stat(path + suffix);
          if (vs.isFile() && vs.size < entry.size) {
            variant = { path: path + suffix, size: vs.size, etag: `W/"${vs.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}-${name}"` };
            if (inMemory) {
              variant.body = await readFile(path + suffix);
              variant.size = variant.body.length;
            }
          }
        } catch {
          // None at build: made here below, for a file kept in memory.
        }
        if (!variant && entry.identity.body) {
          const body =
            name === 'br'
              ? await brotli(entry.identity.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: entry.size } })
              : await gz(entry.identity.body, { level: 6 });
          if (body.length < entry.size)
            variant = { path: '', body, size: body.length, etag: `W/"${body.length.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}-${name}"` };
        }
        if (variant) entry[name] = variant;
      }
    }
    entry.bytes = (entry.identity.body?.length ?? 0) + (entry.br?.body?.length ?? 0) + (entry.gzip?.body?.length ?? 0) + 512;
    return entry;
  }

  async function resolveFile(urlPath: string): Promise<Entry | null> {
    const statOrNull = (p: string) => stat(p).catch(() => null);
    let file = join(clientDir, urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath);
    let s = await statOrNull(file);
    if (s?.isDirectory() && !urlPath.endsWith('/')) {
      file = join(file, 'index.html');
      s = await statOrNull(file);
    }
    if (!s?.isFile() || !TYPES[extension(file)]) return null;
    const known = entries.get(urlPath);
    if (known && known.path === file && known.size === s.size && known.mtimeMs === s.mtimeMs && known.ino === s.ino) {
      known.checkedAt = Date.now();
      return known;
    }
    return load(file, urlPath, s);
  }

  /**
   * The file a request path names, or null when the app should answer.
   * @param urlPath a path from requestPath()
   */
  function lookup(urlPath: string): Promise<Entry | null> | Entry | null {
    const known = entries.get(urlPath);
    if (known !== undefined && Date.now() - (known ? known.checkedAt : (knownMisses.get(urlPath) ?? 0)) < RECHECK_MS) return known;
    let pending = loading.get(urlPath);
    if (!pending) {
      pending = resolveFile(urlPath).then(
        (entry) => {
          loading.delete(urlPath);
          if (!entry) knownMisses.set(urlPath, Date.now());
          else knownMisses.delete(urlPath);
          keep(urlPath, entry);
          return entry;
        },
        () => {
          loading.delete(urlPath);
          return null;
        },
      );
      loading.set(urlPath, pending);
    }
    return pending;
  }

  return { lookup, serve, close: () => clearInterval(sweep), stats: () => ({ entries: entries.size, bytes: held }) };
}

/**
 * Whether the front can answer this request from the file (else the app does).
 */
export function staticCandidate(req: IncomingMessage) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  if (req.headers['if-match'] || req.headers['if-unmodified-since']) return undefined;
  const range = req.headers.range;
  if (range && range.includes(',')) return undefined;
  return requestPath(req.url ?? '/');
}

function matchesEtag(header: string | undefined, etag: string) {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * The headers of a whole file sent as it is, as a flat list (what writeHead takes fastest).
 */
function fullHeaders(entry: Entry, chosen: Variant, encoding: string | undefined): string[] {
  const raw = Object.entries(SECURITY_HEADERS).flat();
  raw.push('Accept-Ranges', 'bytes', 'Cache-Control', entry.cacheControl, 'Last-Modified', entry.lastModified, 'ETag', chosen.etag);
  if (entry.compressible) raw.push('Vary', 'Accept-Encoding');
  raw.push('Content-Type', entry.type);
  if (encoding) raw.push('Content-Encoding', encoding);
  raw.push('Content-Length', String(chosen.size));
  return raw;
}

/**
 * Answers a request with a file found by lookup().
 */
function serve(entry: Entry, req: IncomingMessage, res: ServerResponse) {
  const head = req.method === 'HEAD';
  const range = req.headers.range;
  // A range is of the identity bytes; otherwise the best encoding the reader accepts.
  let chosen = entry.identity;
  let encoding: string | undefined;
  if (entry.compressible && !range) {
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    if (accepted.br && entry.br) [chosen, encoding] = [entry.br, 'br'];
    else if (accepted.gzip && entry.gzip) [chosen, encoding] = [entry.gzip, 'gzip'];
  }
  // The common case (a whole file, no condition): headers made once per file and encoding.
  if (!range && !req.headers['if-none-match'] && !req.headers['if-modified-since'] && chosen.body) {
    chosen.raw ??= fullHeaders(entry, chosen, encoding);
    res.writeHead(200, chosen.raw);
    res.end(head ? undefined : chosen.body);
    return;
  }
  const headers: Record<string, string | number> = {
    ...SECURITY_HEADERS,
    'Accept-Ranges': 'bytes',
    'Cache-Control': entry.cacheControl,
    'Last-Modified': entry.lastModified,
    ETag: chosen.etag,
  };
  if (entry.compressible) headers['Vary'] = 'Accept-Encoding';

  // Conditional GET: ETag first, else the date.
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const fresh = inm ? matchesEtag(inm, chosen.etag) : ims ? Math.floor(entry.mtimeMs / 1000) * 1000 <= Date.parse(ims) : false;
  if (fresh) {
    res.writeHead(304, headers);
    res.end();
    return;
  }

  headers['Content-Type'] = entry.type;
  if (encoding) headers['Content-Encoding'] = encoding;
  let start = 0;
  let end = chosen.size - 1;
  let status = 200;
  if (range && /^bytes=/.test(range)) {
    const ifRange = String(req.headers['if-range'] ?? '');
    const rangeHolds = !ifRange || (ifRange.includes('"') ? ifRange === chosen.etag : Date.parse(ifRange) >= Math.floor(entry.mtimeMs / 1000) * 1000);
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (rangeHolds && m && (m[1] || m[2])) {
      const size = chosen.size;
      if (m[1]) {
        start = Number(m[1]);
        end = m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
      } else {
        start = Math.max(0, size - Number(m[2]));
        end = size - 1;
      }
      if (start > end || start >= size) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}`, 'Content-Length': 0 });
        res.end();
        return;
      }
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
  }
  headers['Content-Length'] = end - start + 1;
  res.writeHead(status, headers);
  if (head) {
    res.end();
    return;
  }
  if (chosen.body) {
    res.end(status === 206 ? chosen.body.subarray(start, end + 1) : chosen.body);
    return;
  }
  const stream = createReadStream(chosen.path, { start, end });
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
