import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { AstroPrerenderer } from 'astro';
import pagefindIndex from './pagefind';
import { contentHash, deltaLimit, planIndex, type BaseDocuments } from './pagefind-delta';
import { withoutSuperseded } from '../lib/search';

describe('what an incremental index holds', () => {
  const base: BaseDocuments = { '/a': { hash: 'A', id: 'fr_a' }, '/b': { hash: 'B', id: 'fr_b' }, '/c': { hash: 'C', id: 'fr_c' } };

  it('indexes the changed and new documents, and supersedes the changed and deleted ones', () => {
    const plan = planIndex(
      base,
      new Map([
        ['/a', 'A'],
        ['/b', 'B2'],
        ['/d', 'D'],
      ]),
      10,
    );
    expect(plan).toEqual({ mode: 'delta', changed: ['/b', '/d'], superseded: ['fr_b', 'fr_c'] });
  });

  it('indexes nothing when nothing changed', () => {
    expect(
      planIndex(
        base,
        new Map([
          ['/a', 'A'],
          ['/b', 'B'],
          ['/c', 'C'],
        ]),
        10,
      ),
    ).toEqual({ mode: 'delta', changed: [], superseded: [] });
  });

  it('indexes everything again without a base, or when the delta would be too large', () => {
    expect(planIndex(null, new Map([['/a', 'A']]), 10).mode).toBe('full');
    expect(
      planIndex(
        base,
        new Map([
          ['/a', 'A1'],
          ['/b', 'B1'],
          ['/c', 'C1'],
        ]),
        2,
      ).mode,
    ).toBe('full');
    expect(deltaLimit(10_000)).toBe(500);
    expect(deltaLimit(100)).toBe(200);
  });

  it('hides the full index’s superseded results', () => {
    const results = [{ id: 'fr_a' }, { id: 'fr_b' }, { id: 'fr_new' }, { id: 'fr_a' }];
    expect(withoutSuperseded(results, new Set(['fr_b']))).toEqual([{ id: 'fr_a' }, { id: 'fr_new' }]);
    expect(withoutSuperseded(results, new Set())).toEqual([{ id: 'fr_a' }, { id: 'fr_b' }, { id: 'fr_new' }]);
  });

  it('hashes content', () => {
    expect(contentHash('a')).toBe(contentHash('a'));
    expect(contentHash('a')).not.toBe(contentHash('b'));
  });
});

/** The records a reader's search can reach: the full index's, less the superseded, and the delta's. */
function searchable(client: string): Map<string, string> {
  const fragments = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir).map((name) => {
          const raw = gunzipSync(readFileSync(join(dir, name)));
          const record = JSON.parse(raw.subarray(raw.indexOf('{')).toString('utf8')) as { url: string; meta: { title: string } };
          return { id: name.replace(/\.pf_fragment$/, ''), url: record.url, title: record.meta.title };
        })
      : [];
  const delta = JSON.parse(readFileSync(join(client, 'pagefind', 'delta.json'), 'utf8')) as { index: string; superseded: string[] };
  const superseded = new Set(delta.superseded);
  const reachable = [
    ...fragments(join(client, 'pagefind', 'fragment')).filter((record) => !superseded.has(record.id)),
    ...(delta.index ? fragments(join(client, delta.index, 'fragment')) : []),
  ];
  const byUrl = new Map<string, string>();
  // As the search interface does (withoutSuperseded): each result id once.
  for (const record of reachable.filter((r, i) => reachable.findIndex((other) => other.id === r.id) === i)) {
    expect(byUrl.has(record.url), `${record.url} is reachable twice`).toBe(false);
    byUrl.set(record.url, record.title);
  }
  return byUrl;
}

describe('the search index across builds', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'pagefind-delta-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  // "Titre|lien": the same text with another link (what Pagefind keeps does not change).
  const page = (spec: string) => {
    const [title, link = '/'] = spec.split('|');
    return `<!doctype html><html lang="fr"><head><title>${title}</title></head><body><main><article data-pagefind-body><h1 data-pagefind-meta="title">${title}</h1><p>Un texte sur <a href="${link}">${title}</a>.</p></article></main></body></html>`;
  };

  /**
   * One build as Astro makes it: `rendered` pages (all by default) are rendered, through the
   * prerenderer the integration sets when `streamed`, and written with a new copy in Astro's
   * incremental cache; the others are left as the cache had them.
   */
  async function build(name: string, pages: Record<string, string>, options: { rendered?: string[]; streamed?: string[] } = {}) {
    const out = join(work, name);
    const client = join(out, 'client');
    const cacheDir = join(work, 'cache');
    const integration = pagefindIndex();
    const hooks = integration.hooks as Record<string, (options: unknown) => Promise<void> | void>;
    const logs: string[] = [];
    const logger = { info: (message: string) => logs.push(message), warn: (message: string) => logs.push(message) };
    await hooks['astro:config:done']!({ config: { cacheDir: pathToFileURL(`${cacheDir}/`), outDir: pathToFileURL(`${out}/`) } });
    let prerenderer: AstroPrerenderer | undefined;
    const astro: AstroPrerenderer = {
      name: 'astro:default',
      getStaticPaths: async () => [],
      render: async (request) => new Response(page(pages[new URL(request.url).pathname.slice(1, -1)]!), { headers: { 'Content-Type': 'text/html' } }),
    };
    await hooks['astro:build:start']!({ setPrerenderer: (wrap: (astro: AstroPrerenderer) => AstroPrerenderer) => (prerenderer = wrap(astro)) });
    const rendered = new Set(options.rendered ?? Object.keys(pages));
    const streamed = new Set(options.streamed ?? []);
    for (const [path, title] of Object.entries(pages)) {
      mkdirSync(join(client, path), { recursive: true });
      mkdirSync(join(cacheDir, 'dist', 'client', path), { recursive: true });
      const cached = join(cacheDir, 'dist', 'client', path, 'index.html');
      if (!rendered.has(path) && existsSync(cached)) {
        linkSync(cached, join(client, path, 'index.html'));
        continue;
      }
      let html = page(title);
      if (streamed.has(path)) {
        const result = await prerenderer!.render(new Request(`http://localhost/${path}/`), { routeData: {} as never });
        html = await (result instanceof Response ? result : result.response).text();
      }
      writeFileSync(join(client, path, 'index.html'), html);
      rmSync(cached, { force: true });
      writeFileSync(cached, html);
    }
    await hooks['astro:build:done']!({ dir: pathToFileURL(`${client}/`), logger });
    return { client, logs: logs.join('\n') };
  }

  const pages = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`articles/p${i}`, `Sujet numéro ${i}`]));

  it('indexes in full first, then only what changed, and searches see the latest version of each page once', async () => {
    // A first build gives its pages to Pagefind as Astro renders them.
    const first = await build('b1', pages, { streamed: Object.keys(pages) });
    expect(first.logs).toMatch(/full index/);
    expect(first.logs).toMatch(/30 pages taken as rendered \(30 results indexed meanwhile\), 0 of 30 pages read/);
    expect(searchable(first.client).get('/articles/p3')).toBe('Sujet numéro 3');

    // A title changed, a page added, a page deleted, a page with another link but the same text.
    const { 'articles/p7': _, ...rest } = pages;
    const changed = { ...rest, 'articles/p3': 'Titre corrigé', 'articles/neuf': 'Page nouvelle', 'articles/p5': 'Sujet numéro 5|/ailleurs' };
    const second = await build('b2', changed, { rendered: ['articles/p3', 'articles/neuf', 'articles/p5'], streamed: ['articles/p3', 'articles/neuf'] });
    expect(second.logs).toMatch(/incremental index: 3 new or changed and 2 superseded/);
    // Only the rendered pages were read, as rendered or from disk: the others are Astro's cached copies.
    expect(second.logs).toMatch(/2 pages taken as rendered, 1 of 30 pages read/);
    const found = searchable(second.client);
    expect(found.get('/articles/p5')).toBe('Sujet numéro 5');
    expect(found.get('/articles/p3')).toBe('Titre corrigé');
    expect(found.get('/articles/neuf')).toBe('Page nouvelle');
    expect(found.has('/articles/p7')).toBe(false);
    expect(found.get('/articles/p4')).toBe('Sujet numéro 4');
    expect(found.size).toBe(30);

    // The first build's index was left as it was.
    expect(searchable(first.client).get('/articles/p3')).toBe('Sujet numéro 3');

    // The next build, with no change, carries the same delta on.
    const third = await build('b3', changed, { rendered: [] });
    expect(third.logs).toMatch(/0 pages taken as rendered, 0 of 30 pages read/);
    expect(searchable(third.client).get('/articles/p3')).toBe('Titre corrigé');
  });
});
