/**
 * The collections the content API serves, and how each is read: the id an entry must carry
 * (the same as local files get: stories `<scheme>/<slug>`, episodes `<podcast>/<slug>`, the
 * others their slug), its dated fields, its images, and its schema with stand-ins for Astro's
 * helpers, to check an entry and name its faulty field before anything is stored.
 *
 * Categories and editorial pages are not served: they stay local files (see docs/content-api.md).
 */
import { z } from 'astro/zod';
import { authorSchema, dossierSchema, episodeSchema, podcastSchema, storySchema, tagSchema, type Reference, type SchemaHelpers } from '../content-schemas';
import type { CollectionSpec } from './api-loader';

/** `image()` takes the image's address; `reference()` the referenced entry's id. */
const standIns: SchemaHelpers<z.ZodString> = {
  image: () => z.string(),
  reference: (collection) => z.string().transform((id) => ({ collection, id })) as unknown as Reference,
};

const slugId = (data: Record<string, unknown>) => String(data['slug']);

export const API_COLLECTIONS = {
  stories: {
    idOf: (data) => `${String(data['scheme'])}/${String(data['slug'])}`,
    dates: ['published', 'updated'],
    images: ['cover'],
    schema: storySchema(standIns),
  },
  authors: { idOf: slugId, dates: [], images: ['photo'], schema: authorSchema(standIns) },
  tags: { idOf: slugId, dates: [], images: [], schema: tagSchema },
  dossiers: { idOf: slugId, dates: ['published'], images: ['cover'], schema: dossierSchema(standIns) },
  podcasts: { idOf: slugId, dates: [], images: ['cover'], schema: podcastSchema(standIns) },
  episodes: {
    idOf: (data) => `${String(data['podcast'])}/${String(data['slug'])}`,
    dates: ['published'],
    images: [],
    schema: episodeSchema(standIns),
    // The player streams from the site itself: the Content-Security-Policy (media-src 'self')
    // would refuse audio from another origin.
    check: (data) =>
      /^\/(?!\/)/.test(String(data['content_folder_url']))
        ? undefined
        : {
            field: 'content_folder_url',
            message:
              "le dossier audio doit être un chemin du site (/media/…) : la politique de sécurité du site (media-src 'self') bloquerait l’audio d’une autre origine.",
          },
  },
} satisfies Record<string, CollectionSpec>;

export type ApiCollection = keyof typeof API_COLLECTIONS;
