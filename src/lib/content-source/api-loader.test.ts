/**
 * The content API loader against the fixture server (scripts/content-api/fixture-server.mjs),
 * which serves the demo corpus on a free loopback port: paging, conditional requests,
 * deletions, and each fault (server errors, slowness, invalid entries) stopping the load with
 * a French message naming the entry, before anything is stored.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DataStore, LoaderContext } from 'astro/loaders';
import { frenchText } from '../typography';
import { startFixtureServer } from '../../../scripts/content-api/fixture-server.mjs';
import { loadCollection } from './api-loader';
import { API_COLLECTIONS, type ApiCollection } from './collections';
import { contentSourceSettings, type ApiSourceSettings } from './config';

type Fixture = Awaited<ReturnType<typeof startFixtureServer>>;
type Entry = { id: string; data: Record<string, unknown>; body?: string; digest?: string | number; rendered?: unknown };

/** Astro's data store, as far as a loader sees it. */
function memoryStore(): DataStore & { map: Map<string, Entry> } {
  const map = new Map<string, Entry>();
  return {
    map,
    get: (id) => map.get(id) as never,
    entries: () => [...map.entries()] as never,
    values: () => [...map.values()] as never,
    keys: () => [...map.keys()],
    set: (entry) => {
      if (entry.digest !== undefined && map.get(entry.id)?.digest === entry.digest) return false;
      map.set(entry.id, structuredClone(entry) as Entry);
      return true;
    },
    delete: (id) => void map.delete(id),
    clear: () => map.clear(),
    has: (id) => map.has(id),
    addModuleImport: () => {},
  };
}

/** One collection's loader context, as Astro gives it: the store and cache folder persist between loads. */
function harness(collection: ApiCollection, cacheDir: string) {
  const store = memoryStore();
  const calls = { parse: 0, render: 0 };
  const logs: string[] = [];
  const context = {
    store,
    config: { cacheDir: pathToFileURL(`${cacheDir}/`) },
    logger: { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m), debug: () => {} },
    parseData: async ({ data }: { data: Record<string, unknown> }) => {
      calls.parse += 1;
      return (await API_COLLECTIONS[collection].schema.parseAsync(data)) as Record<string, unknown>;
    },
    renderMarkdown: async (body: string) => {
      calls.render += 1;
      return { html: `<p>${body.length}</p>`, metadata: {} };
    },
    generateDigest: (value: Record<string, unknown> | string) =>
      createHash('sha1')
        .update(typeof value === 'string' ? value : JSON.stringify(value))
        .digest('hex'),
  } as unknown as Pick<LoaderContext, 'store' | 'logger' | 'parseData' | 'renderMarkdown' | 'generateDigest' | 'config'>;
  return { store, calls, logs, load: (settings: ApiSourceSettings) => loadCollection(context, collection, API_COLLECTIONS[collection], settings) };
}

let api: Fixture;
let cacheDir: string;
let settings: ApiSourceSettings;
const STORY = 'articles/meubles-de-tourisme-marseille-les-societes-ecrans';
const BREVE = 'breves/amerique-latine-31-journalistes-tues-depuis-janvier';

beforeAll(async () => {
  api = await startFixtureServer({ contentDir: 'src/content' });
});
afterAll(() => api.close());

beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'content-api-test-'));
  api.reload();
  api.requests.length = 0;
  api.faults.status = undefined;
  api.faults.delayMs = 0;
  settings = { url: new URL(api.url), token: undefined, pageSize: 7, timeoutMs: 5_000, retries: 2, retryDelayMs: 10 };
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

const listings = (collection: string) => api.requests.filter((r) => r.path === `/v1/${collection}`);

describe('reading the content API', () => {
  it('reads a collection page by page, with the ids local files get, images downloaded into the cache', async () => {
    const { store, load } = harness('stories', cacheDir);
    await load(settings);
    const all = [...api.requests];
    const pages = listings('stories');
    const total = 55;
    expect(store.map.size).toBe(total);
    expect(pages).toHaveLength(Math.ceil(total / 7));
    // The first page has no cursor, every next one the cursor the previous page gave.
    expect(pages[0]?.query['cursor']).toBeUndefined();
    expect(pages.slice(1).every((r) => r.query['cursor'])).toBe(true);
    expect(new Set(pages.map((r) => r.query['cursor'])).size).toBe(pages.length);

    const story = store.map.get(STORY)!;
    expect(story.data['title']).toBe(frenchText('Meublés de tourisme : à Marseille, les sociétés-écrans qui contournent les règles'));
    expect(story.data['published']).toEqual(new Date('2026-07-07T05:00:00Z'));
    expect(story.body).toContain('Mistral Keys');
    // The cover is a local file in the cache, byte for byte the CMS's image.
    const src = (story.data['cover'] as { src: string }).src;
    expect(src.startsWith(join(cacheDir, 'content-api', 'media'))).toBe(true);
    expect(readFileSync(src).equals(readFileSync('src/content/images/ville-nuit.jpg'))).toBe(true);
    // One download per image, however many entries share it.
    const media = all.filter((r) => r.path.startsWith('/media/'));
    expect(media.length).toBe(new Set(media.map((r) => r.path)).size);
  });

  it('asks again with the validators it kept: 304 pages are reused, only the changed entry is parsed again', async () => {
    const { store, calls, load } = harness('stories', cacheDir);
    await load(settings);
    const first = { ...calls };
    api.requests.length = 0;

    await load(settings);
    const second = listings('stories');
    expect(second.every((r) => r.ifNoneMatch)).toBe(true);
    expect(second.every((r) => r.status === 304)).toBe(true);
    expect(api.requests.some((r) => r.path.startsWith('/media/'))).toBe(false);
    expect(calls).toEqual(first);
    expect(store.map.size).toBe(55);

    api.update('stories', STORY, { title: 'Meublés de tourisme : la ville porte plainte' });
    api.requests.length = 0;
    await load(settings);
    const third = listings('stories');
    expect(third.filter((r) => r.status === 200)).toHaveLength(1);
    expect(calls.parse).toBe(first.parse + 1);
    expect(store.map.get(STORY)!.data['title']).toBe(frenchText('Meublés de tourisme : la ville porte plainte'));
  });

  it('sends the token to the API’s origin only, and says so when the API refuses it', async () => {
    const secured = await startFixtureServer({ contentDir: 'src/content', token: 'jeton-secret' });
    const images = await startFixtureServer({ contentDir: 'src/content' });
    try {
      const { store, load } = harness('authors', cacheDir);
      await expect(load({ ...settings, url: new URL(secured.url) })).rejects.toThrow(/répondu 401.*CONTENT_API_TOKEN/s);
      // One portrait hosted elsewhere (a CDN): fetched without the token.
      const author = secured.entry('authors', 'lea-moreau');
      secured.update('authors', 'lea-moreau', { photo: { ...author.data.photo, src: author.data.photo.src.replace(secured.origin, images.origin) } });
      await load({ ...settings, url: new URL(secured.url), token: 'jeton-secret' });
      expect(store.map.get('lea-moreau')?.data['name']).toBe('Léa Moreau');
      expect(secured.requests.filter((r) => r.status === 200).every((r) => r.authorization === 'Bearer jeton-secret')).toBe(true);
      expect(secured.requests.some((r) => r.path.startsWith('/media/') && r.status === 200)).toBe(true);
      expect(images.requests.map((r) => [r.path, r.authorization])).toEqual([['/media/images/portrait-lea-moreau.jpg', undefined]]);
    } finally {
      await secured.close();
      await images.close();
    }
  });

  it('removes the entries the listing no longer holds', async () => {
    const { store, load } = harness('stories', cacheDir);
    await load(settings);
    api.remove('stories', STORY);
    await load(settings);
    expect(store.map.has(STORY)).toBe(false);
    expect(store.map.size).toBe(54);
  });
});

describe('a CMS at fault stops the build, naming what is wrong, and stores nothing', () => {
  it('tries a 5xx again a bounded number of times, then fails with the status', async () => {
    const { store, load } = harness('stories', cacheDir);
    api.faults.status = { code: 503, path: '/v1/stories', times: 2 };
    await load(settings);
    expect(store.map.size).toBe(55);

    api.faults.status = { code: 500, path: '/v1/stories' };
    api.requests.length = 0;
    await expect(load(settings)).rejects.toThrow(/répondu 500.*collection « stories », page 1, après 3 tentatives/);
    expect(listings('stories')).toHaveLength(3);
  });

  it('gives up on a CMS too slow to answer', async () => {
    const { store, load } = harness('tags', cacheDir);
    api.faults.delayMs = 800;
    const started = Date.now();
    await expect(load({ ...settings, timeoutMs: 200, retries: 1 })).rejects.toThrow(
      /n’a pas répondu dans les 0,2 s.*collection « tags », page 1, après 2 tentatives/,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(store.map.size).toBe(0);
  });

  it('says so when the CMS cannot be reached', async () => {
    const gone = await startFixtureServer({ contentDir: 'src/content' });
    await gone.close();
    const { load } = harness('tags', cacheDir);
    await expect(load({ ...settings, url: new URL(gone.url), retries: 1 })).rejects.toThrow(
      /l’API de contenu est injoignable \(ECONNREFUSED\).*après 2 tentatives/,
    );
  });

  it('refuses an entry breaking the schema, naming its collection, id and field, and keeps what it had', async () => {
    const { store, load } = harness('stories', cacheDir);
    await load(settings);
    api.update('stories', STORY, { title: 'Nouveau titre' });
    api.update('stories', BREVE, { lead: 'Court' });
    await expect(load(settings)).rejects.toThrow(`Contenu refusé (collection « stories », entrée « ${BREVE} », champ « lead ») : Trop petit`);
    // Nothing of this listing was stored: not even the valid change.
    expect(store.map.get(STORY)!.data['title']).not.toBe('Nouveau titre');
  });

  it('refuses a date without its offset, a wrong id, a missing image and audio from another origin', async () => {
    const stories = harness('stories', cacheDir);
    api.update('stories', STORY, { published: '2026-07-07T07:00:00' });
    await expect(stories.load(settings)).rejects.toThrow(
      `(collection « stories », entrée « ${STORY} », champ « published ») : « 2026-07-07T07:00:00 » n’est pas une date ISO 8601 avec son décalage horaire`,
    );

    api.reload();
    const item = api.entry('stories', STORY);
    api.put('stories', { ...item, id: 'articles/autre-slug' });
    await expect(stories.load(settings)).rejects.toThrow('(collection « stories », entrée « articles/autre-slug », champ « id ») : l’identifiant devrait être');

    api.reload();
    api.update('stories', STORY, { cover: { ...item.data.cover, src: `${api.origin}/media/images/absente.jpg` } });
    await expect(stories.load(settings)).rejects.toThrow(
      `(collection « stories », entrée « ${STORY} », champ « cover.src ») : Lecture du contenu impossible : l’API de contenu a répondu 404`,
    );

    const episodes = harness('episodes', cacheDir);
    api.update('episodes', 'a-contre-courant/juger-en-vingt-minutes', { content_folder_url: 'https://audio.exemple.fr/podcasts/' });
    await expect(episodes.load(settings)).rejects.toThrow(
      '(collection « episodes », entrée « a-contre-courant/juger-en-vingt-minutes », champ « content_folder_url ») : le dossier audio doit être un chemin du site',
    );
  });

  it('refuses an ill-formed page', async () => {
    const { load } = harness('tags', cacheDir);
    api.put('tags', { id: 'climat', data: { slug: 'climat', label: 'Climat', scheme: 'TOPIC' }, extra: 1 });
    await expect(load(settings)).rejects.toThrow('Contenu refusé (collection « tags », entrée « climat », champ « extra ») : champ inconnu');
  });
});

describe('settings', () => {
  it('reads local files unless told otherwise, and refuses a wrong setting by name', () => {
    expect(contentSourceSettings({})).toEqual({ kind: 'files' });
    expect(() => contentSourceSettings({ CONTENT_SOURCE: 'cms' })).toThrow('Réglage CONTENT_SOURCE invalide');
    expect(() => contentSourceSettings({ CONTENT_SOURCE: 'api' })).toThrow('CONTENT_SOURCE=api demande CONTENT_API_URL');
    expect(() => contentSourceSettings({ CONTENT_SOURCE: 'api', CONTENT_API_URL: 'cms.exemple.fr' })).toThrow('Réglage CONTENT_API_URL invalide');
    expect(() => contentSourceSettings({ CONTENT_SOURCE: 'api', CONTENT_API_URL: 'https://cms.exemple.fr', CONTENT_API_TIMEOUT_MS: '5s' })).toThrow(
      'Réglage CONTENT_API_TIMEOUT_MS invalide',
    );
    const api = contentSourceSettings({ CONTENT_SOURCE: 'api', CONTENT_API_URL: 'https://cms.exemple.fr/api/v1', CONTENT_API_TOKEN: 't' });
    expect(api).toMatchObject({ kind: 'api', token: 't', pageSize: 100 });
    expect(api.kind === 'api' && api.url.href).toBe('https://cms.exemple.fr/api/v1/');
  });
});
