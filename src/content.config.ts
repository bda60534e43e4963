/**
 * Every content collection, in one place. The schemas themselves live in
 * src/lib/content-schemas.ts, where unit tests can reach them.
 *
 * The corpus is read from CONTENT_DIR (default: src/content, the demo corpus), so that the
 * build benchmark can point at a synthetic corpus without touching the demo.
 */
import { defineCollection, reference, type SchemaContext } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { CONTENT_DIR } from './lib/content-dir';
import {
  authorSchema, categorySchema, dossierSchema, episodeSchema, pageSchema, podcastSchema, storySchema, tagSchema,
  type SchemaHelpers,
} from './lib/content-schemas';

const dir = (sub: string) => `${CONTENT_DIR}/${sub}`;
const helpers = ({ image }: SchemaContext): SchemaHelpers<ReturnType<SchemaContext['image']>> => ({ image, reference });

const stories = defineCollection({
  loader: glob({
    pattern: '**/*.md',
    base: dir('stories'),
    // Slugs are unique within a scheme only, so the scheme is part of the id.
    generateId: ({ data }) => `${String(data['scheme'])}/${String(data['slug'])}`,
  }),
  schema: (context) => storySchema(helpers(context)),
});

const authors = defineCollection({
  loader: glob({ pattern: '*.{yaml,yml}', base: dir('authors') }),
  schema: (context) => authorSchema(helpers(context)),
});

const tags = defineCollection({ loader: file(dir('tags.yaml')), schema: tagSchema });

// Category slugs are unique across schemes, so the slug is the id.
const categories = defineCollection({ loader: file(dir('categories.yaml')), schema: categorySchema });

const dossiers = defineCollection({
  loader: glob({ pattern: '*.md', base: dir('dossiers') }),
  schema: (context) => dossierSchema(helpers(context)),
});

const podcasts = defineCollection({
  loader: glob({ pattern: '*.{yaml,yml}', base: dir('podcasts') }),
  schema: (context) => podcastSchema(helpers(context)),
});

const episodes = defineCollection({
  loader: glob({
    pattern: '**/*.md',
    base: dir('episodes'),
    // Episode slugs are unique within their podcast.
    generateId: ({ data }) => `${String(data['podcast'])}/${String(data['slug'])}`,
  }),
  schema: (context) => episodeSchema(helpers(context)),
});

/** Editorial pages (presentation, FAQ, legal texts…). */
const pages = defineCollection({ loader: glob({ pattern: '*.md', base: dir('pages') }), schema: pageSchema });

export const collections = { stories, authors, tags, categories, dossiers, podcasts, episodes, pages };
