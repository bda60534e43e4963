#!/usr/bin/env node
/**
 * A small content API serving a local corpus (by default the demo corpus, src/content) the way
 * docs/content-api.md describes it: listings page by page with cursors and ETags, images by
 * absolute addresses, an optional bearer token, and faults on demand (errors, slowness, an
 * invalid entry). The tests start it on a free loopback port; it also runs on its own:
 *
 *   node scripts/content-api/fixture-server.mjs [--port 4400] [--content src/content] [--token secret]
 *        [--fail 500] [--fail-path /v1/stories] [--delay 3000] [--invalid stories:articles/mon-article:title]
 *
 * then CONTENT_SOURCE=api CONTENT_API_URL=http://127.0.0.1:4400/v1/ npm run build.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';

/** The collections served, where each lives in a content folder, and its id rule. */
const COLLECTIONS = {
  stories: { dir: 'stories', ext: '.md', id: (d) => `${d.scheme}/${d.slug}`, images: ['cover'] },
  authors: { dir: 'authors', ext: '.yaml', id: (d) => d.slug, images: ['photo'] },
  tags: { file: 'tags.yaml', id: (d) => d.slug, images: [] },
  dossiers: { dir: 'dossiers', ext: '.md', id: (d) => d.slug, images: ['cover'] },
  podcasts: { dir: 'podcasts', ext: '.yaml', id: (d) => d.slug, images: ['cover'] },
  episodes: { dir: 'episodes', ext: '.md', id: (d) => `${d.podcast}/${d.slug}`, images: [] },
};

const MEDIA_TYPES = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp' };

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

function files(dir, ext) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (name.endsWith(ext) || (ext === '.yaml' && name.endsWith('.yml'))) out.push(path);
  }
  return out;
}

/** Front matter and body of a Markdown file (YAML's core schema: dates stay as written). */
function markdown(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { data: {}, body: text };
  return { data: load(match[1]) ?? {}, body: match[2] };
}

/** The corpus of a content folder, as the API serves it: `{ collection: Map<id, item> }`. */
export function readCorpus(contentDir, mediaBase) {
  const corpus = {};
  for (const [collection, spec] of Object.entries(COLLECTIONS)) {
    const entries = [];
    if (spec.file) {
      for (const data of load(readFileSync(join(contentDir, spec.file), 'utf8'))) entries.push({ data, file: join(contentDir, spec.file) });
    } else {
      for (const file of files(join(contentDir, spec.dir), spec.ext)) {
        const text = readFileSync(file, 'utf8');
        entries.push({ ...(spec.ext === '.md' ? markdown(text) : { data: load(text) }), file });
      }
    }
    const items = new Map();
    for (const { data, body, file } of entries) {
      // Images are files beside the entry; the API names them by absolute address.
      for (const field of spec.images) {
        if (data[field]?.src) {
          const path = relative(contentDir, resolve(dirname(file), data[field].src))
            .split(sep)
            .join('/');
          data[field] = { ...data[field], src: new URL(`media/${path}`, mediaBase).href };
        }
      }
      const id = spec.id(data);
      items.set(id, { id, updatedAt: data.updated ?? data.published ?? '2026-01-01T00:00:00+01:00', data, ...(body !== undefined ? { body } : {}) });
    }
    corpus[collection] = items;
  }
  return corpus;
}

const etagOf = (buffer) => `"${createHash('sha256').update(buffer).digest('base64url').slice(0, 27)}"`;
const encodeCursor = (id) => Buffer.from(id).toString('base64url');
const decodeCursor = (cursor) => Buffer.from(cursor, 'base64url').toString('utf8');

/**
 * @typedef {{ method?: string, path: string, query: Record<string, string>, ifNoneMatch?: string,
 *   ifModifiedSince?: string, authorization?: string, status: number }} RequestRecord
 * @typedef {{ status?: { code: number, path?: string, times?: number }, delayMs: number,
 *   delayPath?: string }} Faults
 */

/**
 * Starts the server. `faults` can be changed at any time:
 * - `status`: `{ code, path?, times? }` answers `code` to requests whose path contains `path`
 *   (every request by default), `times` times (always by default);
 * - `delayMs` (with `delayPath`): waits that long before answering.
 * @param {{ contentDir?: string, port?: number, host?: string, token?: string, log?: boolean }} [options]
 */
export async function startFixtureServer({ contentDir = 'src/content', port = 0, host = '127.0.0.1', token, log = false } = {}) {
  const root = resolve(contentDir);
  /** @type {RequestRecord[]} */
  const requests = [];
  /** @type {Faults} */
  const faults = { status: undefined, delayMs: 0, delayPath: undefined };
  let corpus;
  let origin = '';

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const record = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ifNoneMatch: req.headers['if-none-match'],
      ifModifiedSince: req.headers['if-modified-since'],
      authorization: req.headers.authorization,
      status: 0,
    };
    requests.push(record);
    const send = (status, body = '', headers = {}) => {
      record.status = status;
      if (log) console.log(`${req.method} ${url.pathname}${url.search} → ${status}`);
      if (res.destroyed) return;
      res.writeHead(status, headers);
      res.end(body);
    };
    const json = (status, value) => send(status, JSON.stringify(value), { 'content-type': 'application/json; charset=utf-8' });

    if (faults.delayMs && (!faults.delayPath || url.pathname.includes(faults.delayPath))) {
      await new Promise((done) => setTimeout(done, faults.delayMs));
    }
    const fail = faults.status;
    if (fail && (!fail.path || url.pathname.includes(fail.path)) && (fail.times ?? Infinity) > 0) {
      if (fail.times !== undefined) fail.times -= 1;
      return json(fail.code, { error: 'injected fault' });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    if (token && req.headers.authorization !== `Bearer ${token}`) return json(401, { error: 'unauthorized' });

    const media = /^\/media\/(.+)$/.exec(url.pathname);
    if (media) {
      const path = resolve(root, decodeURIComponent(media[1]));
      const type = MEDIA_TYPES[extname(path).toLowerCase()];
      if (!path.startsWith(root + sep) || !type) return json(404, { error: 'not found' });
      let bytes;
      try {
        bytes = readFileSync(path);
      } catch {
        return json(404, { error: 'not found' });
      }
      const etag = etagOf(bytes);
      if (req.headers['if-none-match'] === etag) return send(304, '', { etag });
      return send(200, bytes, { 'content-type': type, etag, 'cache-control': 'public, max-age=31536000, immutable' });
    }

    const listing = /^\/v1\/([a-z]+)$/.exec(url.pathname);
    const items = listing && corpus[listing[1]];
    if (!items) return json(404, { error: 'not found' });
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, Number(url.searchParams.get('limit')) || DEFAULT_PAGE_SIZE));
    const cursor = url.searchParams.get('cursor');
    // Keyset paging in id order: the cursor is the last id of the previous page.
    const after = cursor === null ? undefined : decodeCursor(cursor);
    const sorted = [...items.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rest = after === undefined ? sorted : sorted.filter((item) => item.id > after);
    const page = rest.slice(0, limit);
    const next = rest.length > limit ? encodeCursor(page.at(-1).id) : null;
    const body = Buffer.from(JSON.stringify({ items: page, next }));
    const etag = etagOf(body);
    if (req.headers['if-none-match'] === etag) return send(304, '', { etag });
    return send(200, body, { 'content-type': 'application/json; charset=utf-8', etag, 'cache-control': 'no-cache' });
  });

  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, done);
  });
  const address = server.address();
  origin = `http://${host}:${address.port}`;
  corpus = readCorpus(root, `${origin}/`);

  const entry = (collection, id) => {
    const item = corpus[collection]?.get(id);
    if (!item) throw new Error(`No ${collection} entry ${id}`);
    return item;
  };
  return {
    origin,
    /** The API's base address, for CONTENT_API_URL. */
    url: `${origin}/v1/`,
    requests,
    faults,
    /** Merges `patch` into an entry's fields (a field set to undefined is removed). */
    update(collection, id, patch, body) {
      const item = entry(collection, id);
      const data = { ...item.data, ...patch };
      for (const [key, value] of Object.entries(patch)) if (value === undefined) delete data[key];
      corpus[collection].set(id, { ...item, data, updatedAt: new Date().toISOString(), ...(body !== undefined ? { body } : {}) });
    },
    /** Replaces an entry as the API sends it (id, data, body…), even an ill-formed one. */
    put(collection, item) {
      corpus[collection].set(item.id, item);
    },
    remove(collection, id) {
      entry(collection, id);
      corpus[collection].delete(id);
    },
    entry,
    /** Reads the content folder again, forgetting every change. */
    reload() {
      corpus = readCorpus(root, `${origin}/`);
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const api = await startFixtureServer({
    contentDir: option('content') ?? 'src/content',
    port: Number(option('port') ?? 4400),
    token: option('token'),
    log: true,
  });
  if (option('fail')) api.faults.status = { code: Number(option('fail')), path: option('fail-path') };
  if (option('delay')) api.faults.delayMs = Number(option('delay'));
  if (option('invalid')) {
    const [collection, id, field] = option('invalid').split(':');
    api.update(collection, id, { [field]: null });
  }
  console.log(`API de contenu de démonstration : ${api.url}`);
  const stop = () => api.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
