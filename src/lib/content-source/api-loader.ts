/**
 * The content loader reading one collection from the newsroom's content API (docs/content-api.md):
 * the whole listing, page by page and conditionally; every entry checked against the
 * collection's schema before anything is stored, with its images downloaded into the build;
 * entries absent from the listing removed. Any fault stops the build with a French message
 * naming the collection, the entry and the field, so that the live site stays as it was.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { z } from 'astro/zod';
import type { ApiSourceSettings } from './config';
import { ContentSourceError, entryError, schemaIssues } from './errors';
import { PageCache, getPage } from './http';
import { MediaCache } from './media';

/** How one collection is read: its id rule, its dated fields, its images, its schema. */
export interface CollectionSpec {
  /** The id this entry must have, from its own fields (the one local files get too). */
  idOf: (data: Record<string, unknown>) => string;
  /** Fields holding an ISO 8601 date, which must carry its offset. */
  dates: readonly string[];
  /** Fields holding an illustration `{ src, alt, credit? }` whose `src` is an image address. */
  images: readonly string[];
  /** The schema with stand-ins for `image()` and `reference()`, to check entries before storing them. */
  schema: z.ZodType;
  /** Further checks of a valid entry: a French reason and the field, or nothing. */
  check?: (data: Record<string, unknown>) => { field: string; message: string } | undefined;
}

/** ISO 8601 date and time with its offset: 2026-07-07T07:00:00+02:00, or …Z. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** More pages than this means a cursor going round in circles. */
const MAX_PAGES = 100_000;

/** Images downloaded at once. */
const MEDIA_CONCURRENCY = 6;

interface ApiItem {
  id: string;
  data: Record<string, unknown>;
  body?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a whole listing: every page, following `next` until it is null. */
async function readListing(
  collection: string,
  settings: ApiSourceSettings,
  cache: PageCache,
): Promise<{ items: { item: ApiItem; page: number; index: number }[]; pages: number; unchanged: number }> {
  const items: { item: ApiItem; page: number; index: number }[] = [];
  const cursors = new Set<string>();
  let cursor: string | null = null;
  let pages = 0;
  let unchanged = 0;
  do {
    const url = new URL(encodeURIComponent(collection), settings.url);
    url.searchParams.set('limit', String(settings.pageSize));
    if (cursor !== null) url.searchParams.set('cursor', cursor);
    pages += 1;
    const purpose = `la collection « ${collection} », page ${pages}`;
    const { body, fresh } = await getPage(url, settings, purpose, cache);
    if (!fresh) unchanged += 1;
    if (!isObject(body) || !Array.isArray(body['items']) || !(body['next'] === null || typeof body['next'] === 'string')) {
      throw new ContentSourceError(
        `Lecture du contenu impossible : la réponse à GET ${url.href} (${purpose}) n’a pas la forme { "items": [...], "next": … } attendue.`,
      );
    }
    body['items'].forEach((raw, i) => {
      const position = { page: pages, index: i + 1 };
      if (!isObject(raw) || typeof raw['id'] !== 'string' || raw['id'] === '') {
        throw entryError({ collection, position, field: 'id' }, 'chaque entrée a un identifiant « id » (texte non vide).');
      }
      const id = raw['id'];
      if (!isObject(raw['data'])) throw entryError({ collection, id, field: 'data' }, 'les champs de l’entrée vont dans l’objet « data ».');
      if (raw['body'] !== undefined && raw['body'] !== null && typeof raw['body'] !== 'string') {
        throw entryError({ collection, id, field: 'body' }, 'le corps du texte est une chaîne de Markdown.');
      }
      const extra = Object.keys(raw).find((key) => !['id', 'data', 'body', 'updatedAt'].includes(key));
      if (extra) throw entryError({ collection, id, field: extra }, `champ inconnu au niveau de l’entrée (attendus : id, data, body, updatedAt).`);
      items.push({ item: { id, data: raw['data'], ...(typeof raw['body'] === 'string' ? { body: raw['body'] } : {}) }, ...position });
    });
    cursor = body['next'] as string | null;
    if (cursor !== null && (cursors.has(cursor) || pages >= MAX_PAGES)) {
      throw new ContentSourceError(
        `Lecture du contenu impossible : la pagination de la collection « ${collection} » revient au curseur « ${cursor} » (page ${pages}).`,
      );
    }
    if (cursor !== null) cursors.add(cursor);
  } while (cursor !== null);
  return { items, pages, unchanged };
}

/** Runs `task` on every item, `limit` at a time; the first failure stops the rest. */
async function eachLimited<T>(list: readonly T[], limit: number, task: (value: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < list.length) {
      const value = list[next++]!;
      try {
        await task(value);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
}

export function apiLoader(collection: string, spec: CollectionSpec, settings: ApiSourceSettings): Loader {
  return {
    name: 'contrechamp-content-api',
    load: (context) => loadCollection(context, collection, spec, settings),
  };
}

export async function loadCollection(
  context: Pick<LoaderContext, 'store' | 'logger' | 'parseData' | 'renderMarkdown' | 'generateDigest' | 'config'>,
  collection: string,
  spec: CollectionSpec,
  settings: ApiSourceSettings,
): Promise<void> {
  const { store, logger, parseData, renderMarkdown, generateDigest } = context;
  const cacheDir = fileURLToPath(context.config.cacheDir);
  const pages = new PageCache(cacheDir, collection);
  const media = new MediaCache(cacheDir, settings);
  const listing = await readListing(collection, settings, pages);

  // Every entry is checked before any is stored: one bad entry fails the whole build. An entry
  // unchanged since it was stored (same digest) passed these checks then.
  const seen = new Map<string, number>();
  const digests = new Map<string, string>();
  for (const { item, page } of listing.items) {
    const { id, data } = item;
    const at = { collection, id };
    if (seen.has(id)) throw entryError(at, `l’identifiant apparaît deux fois dans la liste (pages ${seen.get(id)} et ${page}).`);
    seen.set(id, page);
    const digest = generateDigest(JSON.stringify(item));
    digests.set(id, digest);
    if (store.get(id)?.digest === digest) continue;
    for (const field of spec.dates) {
      const value = data[field];
      if (value !== undefined && (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value))) {
        throw entryError(
          { ...at, field },
          `« ${String(value)} » n’est pas une date ISO 8601 avec son décalage horaire, par exemple 2026-07-07T07:00:00+02:00.`,
        );
      }
    }
    const issues = schemaIssues(spec.schema, data);
    if (issues?.length) {
      const [first, ...others] = issues;
      const more = others.length
        ? ` (et ${others.length} autre${others.length > 1 ? 's' : ''} erreur${others.length > 1 ? 's' : ''} : ${others.map((issue) => issue.field || 'entrée').join(', ')})`
        : '';
      throw entryError({ ...at, field: first!.field || undefined }, `${first!.message}${more}`);
    }
    const expected = spec.idOf(data);
    if (expected !== id) throw entryError({ ...at, field: 'id' }, `l’identifiant devrait être « ${expected} », d’après les champs de l’entrée.`);
    const problem = spec.check?.(data);
    if (problem) throw entryError({ ...at, field: problem.field }, problem.message);
  }

  let changed = 0;
  await eachLimited(listing.items, MEDIA_CONCURRENCY, async ({ item }) => {
    const { id, body } = item;
    const digest = digests.get(id)!;
    // Unchanged since the last build, its images still in the cache: kept as it is.
    const existing = store.get(id);
    if (
      existing?.digest === digest &&
      spec.images.every((field) => {
        const src = (existing.data[field] as { src?: unknown } | undefined)?.src;
        return typeof src !== 'string' || existsSync(src);
      })
    )
      return;
    // Images become local files, which `image()` takes as absolute paths.
    const data = structuredClone(item.data);
    for (const field of spec.images) {
      const illustration = data[field];
      if (!isObject(illustration) || typeof illustration['src'] !== 'string') continue;
      try {
        illustration['src'] = await media.file(illustration['src']);
      } catch (error) {
        if (!(error instanceof ContentSourceError)) throw error;
        throw entryError({ collection, id, field: `${field}.src` }, error.message, error);
      }
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = await parseData({ id, data });
    } catch (error) {
      throw entryError({ collection, id }, error instanceof Error ? error.message : String(error), error);
    }
    const rendered = body === undefined ? undefined : await renderMarkdown(body);
    if (rendered?.metadata?.imagePaths?.length) {
      throw entryError(
        { collection, id, field: 'body' },
        `le corps du texte contient une image (${rendered.metadata.imagePaths.join(', ')}) : les images vont dans les champs prévus (couverture), pas dans le texte.`,
      );
    }
    store.set({ id, data: parsed, digest, ...(body !== undefined ? { body } : {}), ...(rendered ? { rendered } : {}) });
    changed += 1;
  });

  // The listing is complete: whatever it no longer holds is gone.
  const removed = store.keys().filter((id) => !seen.has(id));
  for (const id of removed) store.delete(id);
  await pages.prune();
  logger.info(
    `${collection} : ${seen.size} entrées lues en ${listing.pages} page${listing.pages > 1 ? 's' : ''} (${listing.unchanged} inchangée${listing.unchanged > 1 ? 's' : ''}), ${changed} mise${changed > 1 ? 's' : ''} à jour, ${removed.length} retirée${removed.length > 1 ? 's' : ''}.`,
  );
}
