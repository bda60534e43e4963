/**
 * Every content collection, in one place. The schemas themselves live in
 * src/lib/content-schemas.ts, where unit tests can reach them.
 *
 * The corpus is read from CONTENT_DIR (default: src/content, the demo corpus), so that the
 * build benchmark can point at a synthetic corpus without touching the demo. With
 * CONTENT_SOURCE=api, stories, authors, tags, dossiers, podcasts and episodes come from the
 * newsroom's content API instead (docs/content-api.md), checked by the same schemas;
 * categories and editorial pages stay local files.
 */
import { defineCollection, reference, type SchemaContext } from 'astro:content';
import { file, glob, type Loader } from 'astro/loaders';
import { CONTENT_DIR } from './lib/content-dir';
import { apiLoader } from './lib/content-source/api-loader';
import { API_COLLECTIONS, type ApiCollection } from './lib/content-source/collections';
import { contentSourceSettings } from './lib/content-source/config';
import {
  authorSchema,
  categorySchema,
  dossierSchema,
  episodeSchema,
  pageSchema,
  podcastSchema,
  storySchema,
  tagSchema,
  schemaOnce as schemaOnceWith,
  type SchemaHelpers,
} from './lib/content-schemas';

const dir = (sub: string) => `${CONTENT_DIR}/${sub}`;
/** Each collection's schema is made once (`schemaOnce`, src/lib/content-schemas.ts), not once per entry. */
const schemaOnce = <Schema>(make: (helpers: SchemaHelpers<ReturnType<SchemaContext['image']>>) => Schema) => schemaOnceWith(make, reference);

const source = contentSourceSettings();
/** The API's loader for this collection when the API is the source, else the local one. */
const from = (collection: ApiCollection, local: Loader): Loader => (source.kind === 'api' ? apiLoader(collection, API_COLLECTIONS[collection], source) : local);

const stories = defineCollection({
  loader: from(
    'stories',
    glob({
      pattern: '**/*.md',
      base: dir('stories'),
      // Slugs are unique within a scheme only, so the scheme is part of the id.
      generateId: ({ data }) => `${String(data['scheme'])}/${String(data['slug'])}`,
    }),
  ),
  schema: schemaOnce(storySchema),
});

const authors = defineCollection({
  loader: from('authors', glob({ pattern: '*.{yaml,yml}', base: dir('authors') })),
  schema: schemaOnce(authorSchema),
});

const tags = defineCollection({ loader: from('tags', file(dir('tags.yaml'))), schema: tagSchema });

// Category slugs are unique across schemes, so the slug is the id.
const categories = defineCollection({ loader: file(dir('categories.yaml')), schema: categorySchema });

const dossiers = defineCollection({
  loader: from('dossiers', glob({ pattern: '*.md', base: dir('dossiers') })),
  schema: schemaOnce(dossierSchema),
});

const podcasts = defineCollection({
  loader: from('podcasts', glob({ pattern: '*.{yaml,yml}', base: dir('podcasts') })),
  schema: schemaOnce(podcastSchema),
});

const episodes = defineCollection({
  loader: from(
    'episodes',
    glob({
      pattern: '**/*.md',
      base: dir('episodes'),
      // Episode slugs are unique within their podcast.
      generateId: ({ data }) => `${String(data['podcast'])}/${String(data['slug'])}`,
    }),
  ),
  schema: schemaOnce(episodeSchema),
});

/** Editorial pages (presentation, FAQ, legal texts…). */
const pages = defineCollection({ loader: glob({ pattern: '*.md', base: dir('pages') }), schema: pageSchema });

export const collections = { stories, authors, tags, categories, dossiers, podcasts, episodes, pages };
