#!/usr/bin/env node
/**
 * Publish benchmark: how long one newsroom publication takes to go live at scale.
 *
 * Generates a synthetic corpus (default 10,000 stories) and makes a full build of it with an
 * empty build cache, made live. Then the site is served as `npm start` serves it (front process,
 * live build), and two publications go through the rebuild webhook (POST /api/rebuild, signed as
 * the CMS signs it): the newest article's title changed, a new article, then that article
 * deleted. For each, it times from the webhook call to the story's page being served with the new
 * title (or no longer served), and checks that the home page, the articles list, the feed, the
 * sitemap and the search index (the live build's Pagefind files) show it (or no longer do), and
 * that the build that was live meanwhile did not change. Each build's phases come from its log (src/host/build.ts).
 *
 *   npm run bench:publish                    # 10,000 stories, through the webhook
 *   npm run bench:publish -- 2000            # another size
 *   npm run bench:publish -- 2000 --direct   # builds run directly (src/host/build.ts), no server
 *   npm run bench:publish -- 2000 --keep     # keep the corpus and builds (.bench/publish/)
 *   npm run bench:publish -- 2000 --verify   # then a full build with an empty cache, which must
 *                                            # give the same pages, byte for byte, as the last one
 *   npm run bench:publish -- 2000 --full     # without the resident builder: every publication is
 *                                            # a full (incremental) `astro build`
 *   npm run bench:publish -- 2000 --result=FILE   # the figures as JSON (scripts/bench/host.ts)
 *
 * Builds go under .bench/publish/, the corpus under the system's temporary folder; both are
 * removed at the end. The publishing queue waits REBUILD_DEBOUNCE_MS after a publication
 * (2 s by default, for bursts); the benchmark sets it to 0 to time the build itself.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { readSummary } from '../../src/host/build-phases.ts';
import { buildDir, newBuildId, prepareBuildsDir, readLive, writeLive } from '../../src/server/editorial/live.ts';
import { signedRebuildHeaders } from '../../src/server/editorial/webhook.ts';
import { freePort, root, startServer as startBenchServer } from './server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    keep: { type: 'boolean', default: false },
    direct: { type: 'boolean', default: false },
    verify: { type: 'boolean', default: false },
    full: { type: 'boolean', default: false },
    result: { type: 'string' },
  },
});
const size = Number(positionals[0] ?? 10000);
const work = join(root, '.bench', 'publish');
const corpus = join(tmpdir(), `contrechamp-publish-${size}`);
const buildsDir = join(work, 'data', 'builds');
const places = { root, buildsDir };
const port = await freePort();
/** The site's address (SITE_URL, baked into the builds); requests go to the loopback address the server listens on. */
const site = `http://localhost:${port}`;
const base = `http://127.0.0.1:${port}`;
const SECRET = createHash('sha256').update(String(Math.random())).digest('hex');
rmSync(work, { recursive: true, force: true });
rmSync(corpus, { recursive: true, force: true });

const env = {
  ...process.env,
  CONTENT_DIR: corpus,
  DATA_DIR: join(work, 'data'),
  SITE_URL: site,
  PORT: String(port),
  HOST: '127.0.0.1',
  APP_MODE: 'demo',
  REBUILD_SECRET: SECRET,
  REBUILD_DEBOUNCE_MS: '0',
  // The resident builder makes its first build when the server starts (waited for below).
  RESIDENT_BUILDER: values.full ? 'off' : 'warm',
};

const run = (args, extraEnv = {}) =>
  new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (chunk) => (log += chunk));
    child.stderr.on('data', (chunk) => (log += chunk));
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code === 0) done({ seconds, log });
      else fail(new Error(`${args.join(' ')} exited with ${code}\n${log.slice(-6000)}`));
    });
  });

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

// --- What the live site shows -------------------------------------------------------------------

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const shows = (html, title) => html.includes(escapeHtml(title)) || html.includes(title);

/** The live build's client folder (webhook mode: as the front serves it). */
const liveClient = () => join(buildDir(places, readLive(buildsDir).id), 'client');

/** A page as readers get it: from the server, or from the build's files (direct mode). */
async function get(path) {
  if (!values.direct) {
    const response = await fetch(`${base}${path}`);
    return response.ok ? response.text() : '';
  }
  const file = join(liveClient(), path.replace(/^\//, ''), path.endsWith('.xml') ? '' : 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/**
 * The search index's records a reader can reach (Pagefind fragments: gzip-compressed JSON after
 * a signature): the full index's, less those the delta supersedes, and the delta's.
 */
function searchRecords(client) {
  const fragments = (dir) =>
    existsSync(dir)
      ? readdirSync(dir).map((name) => {
          const raw = gunzipSync(readFileSync(join(dir, name)));
          return { id: name.replace(/\.pf_fragment$/, ''), ...JSON.parse(raw.subarray(raw.indexOf('{')).toString('utf8')) };
        })
      : [];
  const deltaFile = join(client, 'pagefind', 'delta.json');
  const delta = existsSync(deltaFile) ? JSON.parse(readFileSync(deltaFile, 'utf8')) : { index: '', superseded: [] };
  const superseded = new Set(delta.superseded);
  return [
    ...fragments(join(client, 'pagefind', 'fragment')).filter((record) => !superseded.has(record.id)),
    ...(delta.index ? fragments(join(client, delta.index, 'fragment')) : []),
  ];
}

/** Where the title shows on the live site. */
async function checks(url, title) {
  return {
    'story page': shows(await get(url), title),
    'home page': shows(await get('/'), title),
    'articles list': shows(await get('/articles'), title),
    feed: shows(await get('/rss.xml'), title),
    sitemap: (await get('/sitemap-0.xml')).includes(`${url}<`),
    search: searchRecords(liveClient()).some((record) => record.url === url && record.meta?.title === title),
  };
}

/**
 * Every file's size, inode and modification time, by name: the live build must not change while
 * the next one builds (a write, even through a hard link, changes the time).
 * @param {string} dir
 * @returns {Map<string, string>}
 */
function treeState(dir) {
  const files = new Map();
  const walk = (path) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      const info = statSync(child);
      if (info.isDirectory()) walk(child);
      else files.set(relative(dir, child), `${info.size}\0${info.ino}\0${info.mtimeMs}`);
    }
  };
  walk(dir);
  return files;
}

/** The files of `after` that differ from `before` (changed, added or gone). */
function treeChanges(before, after) {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name)).sort();
}

// --- Publishing -------------------------------------------------------------------------------

const builder = join(root, 'src/host/build.ts');

/** The first, full build, made live as the publisher would. */
async function fullBuild() {
  prepareBuildsDir(places);
  const id = newBuildId(new Date());
  const { seconds, log } = await run([builder, '--out', buildDir(places, id), '--id', id]);
  writeFileSync(join(work, 'full.log'), log);
  writeLive(places, id, new Date());
  return { seconds, phases: readSummary(log) };
}

/** @type {import('./server.ts').BenchServer | undefined} */
let server;
/** What the server printed (its log lines). */
const serverLog = () => server?.log() ?? '';
async function startServer() {
  // The first, full build is already live: serve it as it is (scripts/bench/server.ts).
  server = await startBenchServer({ port, dataDir: join(work, 'data'), args: ['--no-build'], env, output: 'capture' });
}

/** Until the resident builder has made its first build (RESIDENT_BUILDER=warm). */
async function builderWarm() {
  const started = performance.now();
  const file = join(buildsDir, 'builder.log');
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (text.includes('warm: first build made')) break;
    if (text.includes('warm build failed')) throw new Error(`the resident builder's first build failed\n${text.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`the resident builder is still not warm after 20 minutes\n${text.slice(-3000)}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
  return { seconds: (performance.now() - started) / 1000 };
}

/** The build's log, as the publisher recorded it (webhook mode). */
async function buildLog(id) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(work, 'data', 'contrechamp.db'), { readonly: true });
  try {
    return db.prepare('select status, log, error from site_builds where id = ?').get(id);
  } finally {
    db.close();
  }
}

/**
 * One publication: through the webhook, or a direct build; resolves once the page is served with
 * the title (or, for a deletion, no longer served).
 */
async function publish(url, title, { deleted = false } = {}) {
  const isLive = async () => (deleted ? !shows(await get(url), title) : shows(await get(url), title));
  // The whole live build: its pages, its server files and its fingerprint.
  const live = join(liveClient(), '..');
  const before = treeState(live);
  const started = performance.now();
  let phases;
  if (values.direct) {
    const id = newBuildId(new Date());
    const { log } = await run([builder, '--out', buildDir(places, id), '--id', id, '--previous', join(live, '..')]);
    writeLive(places, id, new Date());
    phases = readSummary(log);
  } else {
    const body = JSON.stringify({ entries: [url] });
    const response = await fetch(`${base}/api/rebuild`, { method: 'POST', headers: signedRebuildHeaders(SECRET, body), body });
    if (response.status !== 202) throw new Error(`webhook answered ${response.status}: ${await response.text()}`);
    const { build } = await response.json();
    // Until the page is served with its new title.
    const deadline = Date.now() + 15 * 60_000;
    while (!(await isLive())) {
      if (Date.now() > deadline) throw new Error(`${url} still lacks its new title after 15 minutes\n${serverLog().slice(-3000)}`);
      const row = await buildLog(build.id).catch(() => undefined);
      if (row?.status === 'failed') throw new Error(`build ${build.id} failed: ${row.error}\n${row.log?.slice(-3000)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
    // The publisher records the whole log once the build is live: wait for it.
    let row = await buildLog(build.id);
    for (let i = 0; i < 300 && row?.status !== 'succeeded'; i += 1) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
      row = await buildLog(build.id);
    }
    writeFileSync(join(work, `${build.id}.log`), row?.log ?? '');
    phases = readSummary(row?.log ?? '');
  }
  const seconds = (performance.now() - started) / 1000;
  // A publication that left later list pages for a follow-up build (src/host/publish-fast.ts):
  // until that one is live too, so that the next publication starts on a quiet queue.
  const following = performance.now();
  if (!values.direct) await queueIdle();
  const followUp = phases?.deferred > 0 ? (performance.now() - following) / 1000 : undefined;
  // A build that the publisher no longer keeps (the benchmark's first one, which its history does
  // not know) is removed once the next is live: nothing to compare then.
  let untouched;
  try {
    const changed = treeChanges(before, treeState(live));
    untouched = changed.length === 0;
    if (!untouched) console.log(`${title}: ${changed.length} files of the live build changed: ${changed.slice(0, 10).join(', ')}`);
  } catch {
    untouched = 'removed';
  }
  const where = await checks(url, title);
  // A deleted story must be nowhere; the others everywhere.
  const found = deleted ? Object.fromEntries(Object.entries(where).map(([place, shown]) => [place, !shown])) : where;
  return { seconds, phases, found, untouched, followUp };
}

/** Until no build waits or runs (webhook mode). */
async function queueIdle() {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(work, 'data', 'contrechamp.db'), { readonly: true });
  try {
    const deadline = Date.now() + 15 * 60_000;
    while (db.prepare("select count(*) as n from site_builds where status in ('queued', 'running')").get().n > 0) {
      if (Date.now() > deadline) throw new Error('the build queue is still busy after 15 minutes');
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
  } finally {
    db.close();
  }
}

const rows = [];
const table = [];
let verified;
function record(label, { seconds, phases, found = {}, untouched = true, followUp }) {
  rows.push({ label, seconds, phases, found, untouched, followUp });
  const p = phases ?? {};
  table.push({
    publication: label,
    's to live': Number(seconds.toFixed(1)),
    's build': p.total,
    's content': p.content,
    's bundle': p.bundle,
    's pages': p.pages,
    's images': p.images,
    's search': p.search,
    's sitemap': p.sitemap,
    rendered: p.rendered,
    deferred: p.deferred,
    's follow-up': followUp === undefined ? '' : Number(followUp.toFixed(1)),
    reused: p.reused,
    shown: Object.keys(found).length ? `${Object.values(found).filter(Boolean).length}/${Object.keys(found).length}` : '',
    'live intact': untouched === 'removed' ? 'removed after' : untouched ? 'yes' : 'NO',
  });
}

try {
  const gen = await run([join(root, 'scripts/generate-content.mjs'), '--count', String(size), '--out', corpus]);
  console.log(gen.log.trim().split('\n').pop());
  console.log(`Construction complète de ${size} contenus (cache vide)…`);
  record(`full build, ${size} stories, empty cache`, await fullBuild());
  if (!values.direct) {
    await startServer();
    if (!values.full) {
      console.log('Premier passage du constructeur résident (en arrière-plan du serveur)…');
      record('resident builder warm-up (not published)', await builderWarm());
    }
  }

  // 1. The newest article's title changes.
  const article = newestArticle();
  const slug = frontMatter(article.text, 'slug');
  const changedTitle = `Titre modifié par le banc de publication ${Date.now()}`;
  writeFileSync(article.file, article.text.replace(/^title: .*$/m, `title: ${JSON.stringify(changedTitle)}`));
  console.log('Un titre modifié…');
  record('one title changed', await publish(urlOf(slug, article.published), changedTitle));

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
  console.log('Un article ajouté…');
  record('one story added', await publish(urlOf(newSlug, published), newTitle));

  // 3. That article deleted: gone from its page, the lists, the feed, the sitemap and search.
  rmSync(join(corpus, 'stories', 'articles', `${newSlug}.md`));
  console.log('Un article supprimé…');
  record('one story deleted', await publish(urlOf(newSlug, published), newTitle, { deleted: true }));
  if (values.verify) {
    // Every page the publications left must be the page a full build makes of the same content.
    console.log('Vérification : construction complète du même contenu, cache vide…');
    const out = join(work, 'verify');
    await run([builder, '--out', out, '--id', 'verify'], { BUILD_CACHE_DIR: join(work, 'verify-cache') });
    const files = (dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(html|xml|json|txt)$/.test(entry.name))
        .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
        .filter((file) => !file.startsWith('pagefind'))
        .sort();
    const expected = files(join(out, 'client'));
    const actual = files(liveClient());
    const differing = expected.filter(
      (file) => !actual.includes(file) || !readFileSync(join(out, 'client', file)).equals(readFileSync(join(liveClient(), file))),
    );
    const extra = actual.filter((file) => !expected.includes(file));
    verified = { pages: expected.length, differing, extra };
  }
} finally {
  await server?.stop();
  for (const line of serverLog().split('\n')) if (line.includes('"build.switched"')) console.log(`switch: ${line}`);
  if (!values.keep) {
    rmSync(work, { recursive: true, force: true });
    rmSync(corpus, { recursive: true, force: true });
  }
}

console.log(
  values.direct ? 'Constructions lancées directement (src/host/build.ts).' : 'Publications par le webhook (POST /api/rebuild), temps jusqu’à la page servie.',
);
console.table(table);
for (const row of rows) {
  const misses = Object.entries(row.found)
    .filter(([, ok]) => !ok)
    .map(([where]) => where);
  const p = row.phases ?? {};
  console.log(
    `${row.label}: ${row.seconds.toFixed(1)} s (${p.rendered ?? '?'} pages rendered, ${p.reused ?? '?'} reused${p.deferred ? `; ${p.deferred} later list pages live ${row.followUp?.toFixed(1)} s after, through a follow-up build` : ''})` +
      (Object.keys(row.found).length
        ? misses.length
          ? `; WRONG on: ${misses.join(', ')}`
          : row.label.includes('deleted')
            ? '; gone from the page, home page, list, feed, sitemap and search'
            : '; shown on the page, home page, list, feed, sitemap and search'
        : '') +
      (row.untouched === 'removed'
        ? '; the previous build was removed by the publisher once replaced'
        : row.untouched
          ? '; the previous build was left untouched'
          : '; THE LIVE BUILD CHANGED DURING THE BUILD'),
  );
}
if (verified) {
  const { pages, differing, extra } = verified;
  console.log(
    differing.length + extra.length === 0
      ? `verified: the ${pages} pages, feeds and sitemaps of the last publication are byte for byte those of a full build with an empty cache`
      : `VERIFICATION FAILED: ${differing.length} files differ from a full build (${differing.slice(0, 5).join(', ')}), ${extra.length} should not be there (${extra.slice(0, 5).join(', ')})`,
  );
  if (differing.length + extra.length > 0) process.exitCode = 1;
}
if (rows.some((row) => !row.untouched || Object.values(row.found).some((ok) => !ok))) process.exitCode = 1;
if (values.result)
  writeFileSync(
    values.result,
    JSON.stringify({
      size,
      publications: rows
        .filter((row) => row.label.startsWith('one '))
        .map((row) => ({
          label: row.label,
          seconds: row.seconds,
          followUp: row.followUp,
          shown: Object.values(row.found).every(Boolean),
          untouched: row.untouched !== false,
        })),
      verified: verified && { pages: verified.pages, differing: verified.differing.length, extra: verified.extra.length },
    }),
  );
