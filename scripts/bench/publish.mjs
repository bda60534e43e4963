#!/usr/bin/env node
/**
 * Publish benchmark: how long one newsroom publication takes to go live at scale.
 *
 * Generates a synthetic corpus (default 10,000 stories), makes a full build with an empty cache,
 * then publishes twice: the newest article's title changed, then a new article. Each publication
 * is a build of scripts/site/build.mjs into its own directory, with the previous one as
 * --previous and the cache shared, as the publishing queue runs it. For each, it prints the time
 * and the phases of the build (from its log), and checks that the new title is on the story's
 * page, the home page, the articles list, the feed, the sitemap and the search index, and that
 * the previous build was left untouched.
 *
 *   npm run bench:publish                 # 10,000 stories
 *   npm run bench:publish -- 2000         # another size
 *   npm run bench:publish -- 2000 --keep  # keep the corpus and builds (.bench/publish/)
 *
 * Builds go under .bench/publish/ (inside the project, so that their server part finds its
 * packages), the corpus under the system's temporary folder; both are removed at the end.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '../..');
const { values, positionals } = parseArgs({ allowPositionals: true, options: { keep: { type: 'boolean', default: false } } });
const size = Number(positionals[0] ?? 10000);
const work = join(root, '.bench', 'publish');
const corpus = join(tmpdir(), `contrechamp-publish-${size}`);
const cache = join(work, 'cache');
rmSync(work, { recursive: true, force: true });
rmSync(corpus, { recursive: true, force: true });

const run = (args, env = {}) =>
  new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (chunk) => (log += chunk));
    child.stderr.on('data', (chunk) => (log += chunk));
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) done({ seconds, log });
      else fail(new Error(`${args.join(' ')} exited with ${code}\n${log.slice(-6000)}`));
    });
  });

// Reads the build's log (Astro's and the site's integrations') into phases, in seconds.
// eslint-disable-next-line no-control-regex
const plain = (log) => log.replace(/\x1b\[[0-9;]*m/g, '');
const duration = (text) => {
  const m = /(?:(\d+)m\s*)?([\d.]+)\s*(ms|s)\b/.exec(text);
  if (!m) return NaN;
  return (Number(m[1] ?? 0) * 60) + Number(m[2]) / (m[3] === 'ms' ? 1000 : 1);
};
function phases(log) {
  const text = plain(log);
  const lines = text.split('\n');
  const after = (marker) => {
    const start = lines.findIndex((line) => line.includes(marker));
    const done = start < 0 ? undefined : lines.slice(start).find((line) => /✓ Completed in/.test(line));
    return done ? duration(done.split('Completed in')[1]) : 0;
  };
  const sync = lines.find((line) => line.includes('[types] Generated'));
  const vite = lines.filter((line) => line.includes('[vite] ✓ built in')).reduce((sum, line) => sum + duration(line.split('built in')[1]), 0);
  const pagefind = lines.find((line) => line.includes('[contrechamp:pagefind]') && line.includes('search index done in'));
  const sitemap = lines.find((line) => line.includes('[contrechamp:sitemap-timing]'));
  const moved = lines.find((line) => line.includes('[build] moved to'));
  const rendered = lines.filter((line) => /^\s*\S*\s*├─ /.test(line) && !/\((cached|restored)\)/.test(line)).length;
  const reused = lines.filter((line) => /\((cached|restored)\)/.test(line)).length;
  return {
    'content sync': sync ? duration(sync.split('Generated')[1]) : NaN,
    'vite bundle': vite,
    pages: after('static routes'),
    images: after('generating optimized images'),
    search: pagefind ? duration(pagefind.split(' in ').pop()) : NaN,
    sitemap: sitemap ? duration(sitemap.split(' in ').pop()) : NaN,
    move: moved ? duration(moved.split(' in ')[1]) : NaN,
    rendered,
    reused,
  };
}

// --- Reading a build's output -------------------------------------------------------------

const client = (build) => join(work, 'builds', build, 'client');
const page = (build, path) => {
  const file = join(client(build), path.replace(/^\//, ''), path.endsWith('.xml') ? '' : 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};
const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The search index's records a reader can reach (Pagefind fragments: gzip-compressed JSON after
 * a signature): the full index's, less those the delta supersedes, and the delta's.
 */
function searchRecords(build) {
  const fragments = (dir) =>
    existsSync(dir)
      ? readdirSync(dir).map((name) => {
          const raw = gunzipSync(readFileSync(join(dir, name)));
          return { id: name.replace(/\.pf_fragment$/, ''), ...JSON.parse(raw.subarray(raw.indexOf('{')).toString('utf8')) };
        })
      : [];
  const deltaFile = join(client(build), 'pagefind', 'delta.json');
  const delta = existsSync(deltaFile) ? JSON.parse(readFileSync(deltaFile, 'utf8')) : { index: '', superseded: [] };
  const superseded = new Set(delta.superseded);
  return [
    ...fragments(join(client(build), 'pagefind', 'fragment')).filter((record) => !superseded.has(record.id)),
    ...(delta.index ? fragments(join(client(build), delta.index, 'fragment')) : []),
  ];
}

/** Where the new title shows, in the given build. */
function checks(build, story, title) {
  const inPage = (path) => page(build, path).includes(escapeHtml(title)) || page(build, path).includes(title);
  const records = searchRecords(build);
  return {
    'story page': inPage(story.url),
    'home page': inPage('/'),
    'articles list': inPage('/articles'),
    feed: inPage('/rss.xml') || inPage('/rss_articles.xml'),
    sitemap: readFileSync(join(client(build), 'sitemap-0.xml'), 'utf8').includes(`${story.url}<`),
    search: records.some((record) => record.url === story.url && record.meta?.title === title),
  };
}

/**
 * A hash of every file's name, size, inode and modification time: the live build must not change
 * while the next one builds (a write, even through a hard link, changes the time).
 */
function treeHash(dir) {
  const hash = createHash('sha256');
  const walk = (path) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      const info = statSync(child);
      if (info.isDirectory()) walk(child);
      else hash.update(`${relative(dir, child)}\0${info.size}\0${info.ino}\0${info.mtimeMs}\n`);
    }
  };
  walk(dir);
  return hash.digest('hex');
}

// --- The corpus ------------------------------------------------------------------------------

const frontMatter = (text, key) => new RegExp(`^${key}: (.*)$`, 'm').exec(text)?.[1];
function newestArticle() {
  const dir = join(corpus, 'stories', 'articles');
  let newest;
  for (const name of readdirSync(dir)) {
    const text = readFileSync(join(dir, name), 'utf8');
    const published = frontMatter(text, 'published');
    if (!newest || published > newest.published) newest = { file: join(dir, name), published, text };
  }
  return newest;
}
const parisYear = (iso) => Number(new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', year: 'numeric' }).format(new Date(iso)));
const urlOf = (slug, published) => `/articles/${parisYear(published)}/${slug}`;

// --- The run -----------------------------------------------------------------------------------

const builder = join(root, 'scripts/site/build.mjs');
const env = { CONTENT_DIR: corpus, BUILD_CACHE_DIR: cache };
const rows = [];
const table = [];
let previous;
async function publish(label, id, check) {
  const args = [builder, '--out', join(work, 'builds', id), '--id', id, ...(previous ? ['--previous', join(work, 'builds', previous)] : [])];
  const before = previous ? treeHash(join(work, 'builds', previous)) : undefined;
  console.log(`${label}…`);
  const { seconds, log } = await run(args, env);
  writeFileSync(join(work, `${id}.log`), log);
  const found = check ? checks(id, check.story, check.title) : {};
  const untouched = before === undefined ? true : treeHash(join(work, 'builds', previous)) === before;
  const p = phases(log);
  rows.push({ label, seconds, ...p, found, untouched });
  table.push({
    build: label,
    's total': Number(seconds.toFixed(1)),
    's sync': Number(p['content sync'].toFixed(1)),
    's vite': Number(p['vite bundle'].toFixed(1)),
    's pages': Number(p.pages.toFixed(1)),
    's images': Number(p.images.toFixed(1)),
    's search': Number(p.search.toFixed(1)),
    's sitemap': Number(p.sitemap.toFixed(1)),
    rendered: p.rendered,
    reused: p.reused,
    shown: check ? Object.entries(found).filter(([, ok]) => ok).length + '/' + Object.keys(found).length : '',
    'live intact': untouched ? 'yes' : 'NO',
  });
  previous = id;
}

try {
  const gen = await run([join(root, 'scripts/generate-content.mjs'), '--count', String(size), '--out', corpus]);
  console.log(gen.log.trim().split('\n').pop());
  await publish(`full build (${size} stories, empty cache)`, 'b1');

  // 1. The newest article's title changes.
  const article = newestArticle();
  const slug = frontMatter(article.text, 'slug');
  const changedTitle = `Titre modifié pour le banc de publication ${Date.now()}`;
  writeFileSync(article.file, article.text.replace(/^title: .*$/m, `title: ${JSON.stringify(changedTitle)}`));
  await publish('one title changed', 'b2', { story: { url: urlOf(slug, article.published) }, title: changedTitle });

  // 2. A new article, newer than any other.
  const published = new Date(new Date(article.published).getTime() + 60_000).toISOString();
  const newSlug = `banc-de-publication-${Date.now()}`;
  const newTitle = `Nouvel article du banc de publication ${Date.now()}`;
  const text = article.text
    .replace(/^slug: .*$/m, `slug: ${newSlug}`)
    .replace(/^title: .*$/m, `title: ${JSON.stringify(newTitle)}`)
    .replace(/^published: .*$/m, `published: ${published}`)
    .replace(/^dossier: .*\n/m, '');
  writeFileSync(join(corpus, 'stories', 'articles', `${newSlug}.md`), text);
  await publish('one story added', 'b3', { story: { url: urlOf(newSlug, published) }, title: newTitle });
} finally {
  if (!values.keep) {
    rmSync(work, { recursive: true, force: true });
    rmSync(corpus, { recursive: true, force: true });
  }
}

console.table(table);
for (const row of rows) {
  const misses = Object.entries(row.found).filter(([, ok]) => !ok).map(([where]) => where);
  console.log(
    `${row.label}: ${row.seconds.toFixed(1)} s (${row.rendered} pages rendered, ${row.reused} reused)` +
      (Object.keys(row.found).length ? (misses.length ? `; NOT shown on: ${misses.join(', ')}` : '; shown everywhere') : '') +
      (row.untouched ? '' : '; THE PREVIOUS BUILD CHANGED'),
  );
}
if (rows.some((row) => !row.untouched || Object.values(row.found).some((ok) => !ok))) process.exitCode = 1;
