/**
 * The schemas of every collection, as factories of the two helpers Astro provides
 * (`image()` and `reference()`), so that unit tests can check them without a build.
 *
 * Schemas are strict: a typo in front matter fails the build instead of vanishing.
 * Each field is described so that editors get help text in their tools.
 */
import { z } from 'astro/zod';
import { SLUG_PATTERN, TAG_SCHEMES, CATEGORY_SCHEMES } from './content-constants';
import { TIMECODE_PATTERN, parseTimecode } from './video';
import { frenchText } from './typography';

/** What `reference()` yields: the referenced entry's collection and id. */
export type Reference = z.ZodType<{ collection: string; id: string }>;

/** Astro's `image()` and `reference()`, or stand-ins in tests. */
export interface SchemaHelpers<Image extends z.ZodType = z.ZodType> {
  image: () => Image;
  reference: (collection: 'authors' | 'tags' | 'dossiers') => Reference;
}

/**
 * Text that readers see, typeset the French way as it is read (src/lib/typography.ts): every
 * page, feed, search result, meta description and JSON-LD block gets the no-break spaces.
 */
/**
 * A collection's schema, made once. Astro calls a schema function once per entry, to hand it an
 * `image()` resolving paths from that entry's folder, and making the story schema costs 1.7 ms
 * against 0.1 ms to check a story with it: 17 s of a 10,000-story build (docs/performance.md,
 * goal 5). So the schema is made once, with an `image()` that hands each value to the `image()`
 * of the entry being checked. Astro checks an entry right after calling the function, and the
 * check is synchronous (the content layer's `image()` and `reference()` transform synchronously):
 * no other entry's call comes in between.
 */
export function schemaOnce<Image extends z.ZodType, Schema>(
  make: (helpers: SchemaHelpers<Image>) => Schema,
  reference: SchemaHelpers<Image>['reference'],
): (context: { image: () => Image }) => Schema {
  let entryImage: (() => Image) | undefined;
  let schema: Schema | undefined;
  const image = () =>
    z.string().transform((path) => {
      if (!entryImage) throw new Error('image() called outside the check of an entry');
      return entryImage().parse(path);
    }) as unknown as Image;
  return (context) => {
    entryImage = context.image;
    return (schema ??= make({ image, reference }));
  };
}

const prose = () => z.string().overwrite(frenchText);

export const slug = z.string().regex(SLUG_PATTERN, 'Un slug ne contient que des minuscules sans accents, des chiffres et des tirets.');

/** A cover or photo: the image file, its alternative text and its credit line. */
const illustration = <Image extends z.ZodType>({ image }: SchemaHelpers<Image>) =>
  z
    .object({
      src: image().describe('Chemin relatif du fichier image (JPEG, PNG ou WebP).'),
      alt: z.string().min(3).describe('Texte alternatif : ce que montre l’image, pour les lecteurs qui ne la voient pas.'),
      credit: prose().min(2).optional().describe('Crédit photo, affiché sous l’image.'),
    })
    .strict();

const storyBase = <Image extends z.ZodType>(h: SchemaHelpers<Image>) =>
  z.object({
    slug: slug.describe('Identifiant dans l’adresse de la page ; unique dans son schéma.'),
    title: prose().min(3).max(160).describe('Titre du contenu.'),
    lead: prose().min(10).max(600).describe('Chapô : le texte d’accroche sous le titre.'),
    published: z.coerce.date().describe('Date et heure de publication (ISO 8601, avec fuseau).'),
    updated: z.coerce.date().optional().describe('Date et heure de la dernière mise à jour, si elle diffère.'),
    authors: z.array(h.reference('authors')).min(1).describe('Auteurs et autrices, par leur slug.'),
    tags: z.array(h.reference('tags')).default([]).describe('Mots-clés, par leur slug.'),
    dossier: h.reference('dossiers').optional().describe('Dossier auquel le contenu appartient ; le dossier doit aussi le lister.'),
    category: slug.describe('Rubrique (article, brève) ou programme (émission), par son slug dans le schéma.'),
    cover: illustration(h).optional().describe('Image de couverture.'),
    draft: z.boolean().default(false).describe('Brouillon : jamais publié.'),
  });

const video = z
  .discriminatedUnion('provider', [
    z
      .object({
        provider: z.literal('youtube'),
        id: z
          .string()
          .regex(/^[\w-]{11}$/)
          .describe('Identifiant de la vidéo YouTube (11 caractères).'),
      })
      .strict(),
    z
      .object({
        provider: z.literal('peertube'),
        instance: z.url({ protocol: /^https$/ }).describe('Adresse de l’instance PeerTube, par exemple https://video.exemple.fr.'),
        id: z
          .string()
          .regex(/^[\w-]{6,64}$/)
          .describe('Identifiant court ou UUID de la vidéo sur l’instance.'),
      })
      .strict(),
  ])
  .describe('Vidéo hébergée sur YouTube ou PeerTube.');

/** « Au sommaire » of an émission: each chapter's start (as editors write it) and title. */
const chapters = z
  .array(
    z
      .object({
        start: z
          .string()
          .regex(TIMECODE_PATTERN, 'Un début de chapitre s’écrit mm:ss ou h:mm:ss, par exemple « 05:40 » ou « 1:02:10 ».')
          .transform((timecode) => parseTimecode(timecode)!)
          .describe('Début du chapitre dans la vidéo, en mm:ss ou h:mm:ss.'),
        title: prose().min(2).max(160).describe('Titre du chapitre.'),
      })
      .strict(),
  )
  .min(2, 'Un sommaire compte au moins deux chapitres.')
  .refine((list) => list.every((chapter, i) => i === 0 || chapter.start > list[i - 1]!.start), 'Les chapitres se suivent : chacun commence après le précédent.')
  .describe('Au sommaire : les chapitres de la vidéo, dans l’ordre ; chacun est un lien qui lance la vidéo à ce moment.');

export const storySchema = <Image extends z.ZodType>(h: SchemaHelpers<Image>) =>
  z.discriminatedUnion('scheme', [
    storyBase(h)
      .extend({
        scheme: z.literal('articles').describe('Schéma : article écrit.'),
        cover: illustration(h).describe('Image de couverture.'),
      })
      .strict(),
    storyBase(h)
      .extend({
        scheme: z.literal('emissions').describe('Schéma : émission vidéo de la web TV.'),
        cover: illustration(h).describe('Vignette de la vidéo.'),
        video,
        duration: z.number().int().positive().describe('Durée de la vidéo, en secondes.'),
        chapters: chapters.optional(),
        speakers: z
          .array(z.string().min(2).max(80))
          .optional()
          .describe('Autres voix de la transcription (invités, témoins), telles que les nomme chaque « <v Nom> » ; les auteurs y sont déjà.'),
      })
      .strict()
      .refine((data) => !data.chapters?.some((chapter) => chapter.start >= data.duration), {
        message: 'Un chapitre commence après la fin de la vidéo : vérifiez sa durée et ses chapitres.',
        path: ['chapters'],
      }),
    storyBase(h)
      .extend({
        scheme: z.literal('breves').describe('Schéma : brève, lue en entier dans sa liste.'),
      })
      .strict(),
  ]);

export const authorSchema = <Image extends z.ZodType>(h: SchemaHelpers<Image>) =>
  z
    .object({
      slug: slug.describe('Identifiant dans l’adresse de la page auteur.'),
      name: z.string().min(2).describe('Nom affiché.'),
      role: prose().optional().describe('Fonction dans la rédaction, par exemple « Journaliste ».'),
      bio: prose().min(10).describe('Courte biographie.'),
      photo: illustration(h).optional().describe('Portrait.'),
    })
    .strict();

export const tagSchema = z
  .object({
    slug: slug.describe('Identifiant dans l’adresse de la page du mot-clé.'),
    label: prose().min(2).describe('Libellé affiché.'),
    scheme: z.enum(TAG_SCHEMES).describe('Famille du mot-clé : thème, lieu, personne, ou podcast (PODCAST).'),
  })
  .strict();

export const categorySchema = z
  .object({
    slug: slug.describe('Identifiant dans l’adresse de la liste ; unique tous schémas confondus.'),
    scheme: z.enum(CATEGORY_SCHEMES).describe('Schéma auquel la rubrique ou le programme appartient.'),
    label: prose().min(2).describe('Libellé affiché.'),
    description: prose().min(10).describe('Présentation, en tête de la liste.'),
  })
  .strict();

export const dossierSchema = <Image extends z.ZodType>(h: SchemaHelpers<Image>) =>
  z
    .object({
      slug: slug.describe('Identifiant dans l’adresse du dossier.'),
      title: prose().min(3).describe('Titre du dossier.'),
      description: prose().min(10).max(600).describe('Présentation courte, reprise dans les listes.'),
      published: z.coerce.date().describe('Date d’ouverture du dossier.'),
      cover: illustration(h).describe('Image de couverture.'),
      featured: z.boolean().default(false).describe('Mis en avant sur la page d’accueil.'),
      stories: z
        .array(
          z
            .string()
            .regex(/^(articles|emissions|breves)\/[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Un contenu se désigne par schéma/slug, par exemple articles/mon-article.'),
        )
        .min(1)
        .describe('Contenus du dossier, dans l’ordre de lecture, sous la forme schéma/slug.'),
    })
    .strict();

/** An app's page of a show: an https address, of the app's own site when it is a known app. */
const appPage = (host?: string) =>
  z.url({ protocol: /^https$/ }).refine((value) => !host || new URL(value).hostname === host, `Une adresse de la forme https://${host ?? ''}/…`);

/** The podcast apps a show can be found in, each by the address of the show's page there. */
export const podcastApps = z
  .object({
    applePodcasts: appPage('podcasts.apple.com').optional().describe('Page du podcast sur Apple Podcasts (https://podcasts.apple.com/…).'),
    spotify: appPage('open.spotify.com').optional().describe('Page du podcast sur Spotify (https://open.spotify.com/show/…).'),
    others: z
      .array(
        z
          .object({
            name: z.string().min(2).max(40).describe('Nom de l’application, tel que les auditeurs le connaissent (« Deezer », « Pocket Casts »…).'),
            url: appPage().describe('Page du podcast dans cette application (https://…).'),
          })
          .strict(),
      )
      .default([])
      .describe('Toute autre application, par son nom et l’adresse de la page du podcast.'),
  })
  .strict();

export const podcastSchema = <Image extends z.ZodType>(h: SchemaHelpers<Image>) =>
  z
    .object({
      slug: slug.describe('Identifiant dans l’adresse du podcast.'),
      label: prose().min(2).describe('Nom du podcast.'),
      description: prose().min(10).describe('Présentation du podcast, reprise dans son flux.'),
      cover: illustration(h).describe('Pochette carrée (au moins 1400 px pour les annuaires de podcasts).'),
      category: slug.describe('Catégorie du podcast, par son slug dans le schéma podcasts.'),
      itunesCategory: z.string().min(2).describe('Catégorie Apple Podcasts, par exemple « News ».'),
      itunesSubcategory: z.string().optional().describe('Sous-catégorie Apple Podcasts, par exemple « Politics ».'),
      explicit: z.boolean().default(false).describe('Contenu explicite au sens d’Apple Podcasts.'),
      authors: z.array(h.reference('authors')).min(1).describe('Voix et producteurs du podcast.'),
      apps: podcastApps.optional().describe('Où écouter le podcast en dehors du site : ses pages dans les applications de podcasts.'),
    })
    .strict();

export const episodeSchema = <Image extends z.ZodType>(h: SchemaHelpers<Image>) =>
  z
    .object({
      slug: slug.describe('Identifiant de l’épisode dans l’adresse, unique dans son podcast.'),
      title: prose().min(3).describe('Titre de l’épisode.'),
      podcast: slug.describe('Podcast auquel l’épisode appartient, par son slug.'),
      published: z.coerce.date().describe('Date et heure de publication.'),
      duration: z.number().int().positive().describe('Durée de l’audio, en secondes.'),
      summary: prose().min(10).max(600).describe('Résumé d’une ou deux phrases, repris dans les listes et le flux.'),
      speakers: z
        .array(z.string().min(2).max(80))
        .optional()
        .describe('Autres voix de la transcription (invités, témoins), telles que les nomme chaque « <v Nom> » ; les auteurs y sont déjà.'),
      supportersOnly: z
        .boolean()
        .default(false)
        .describe('Réservé aux soutiens : l’audio n’est jamais dans le site public, seulement dans le lecteur des soutiens connectés.'),
      category: slug.describe('Catégorie de l’épisode, par son slug dans le schéma podcasts.'),
      tags: z.array(h.reference('tags')).default([]).describe('Mots-clés ; celui de famille PODCAST désigne le podcast.'),
      content_folder_url: z
        .string()
        .regex(/^(\/|https:\/\/)/, 'Une adresse absolue (https://…) ou un chemin commençant par /.')
        .describe('Dossier où se trouve le fichier audio.'),
      attributes: z
        .object({
          podcast: z
            .object({
              filename: z
                .string()
                .regex(/^[\w.-]+\.(mp3|m4a|ogg|opus)$/)
                .describe('Nom du fichier audio dans le dossier.'),
              size: z.number().int().positive().describe('Taille du fichier audio, en octets (pour les flux).'),
              type: z.enum(['audio/mpeg', 'audio/mp4', 'audio/ogg']).default('audio/mpeg').describe('Type MIME du fichier audio.'),
            })
            .strict(),
        })
        .strict(),
    })
    .strict()
    // A supporters-only episode's audio is in the private folder, and only there: a bonus put in a
    // public folder would be published with the build, a public one in the private folder unheard.
    .superRefine((episode, ctx) => {
      const privateFolder = `/audio/soutiens/${episode.podcast}/`;
      if (episode.supportersOnly && episode.content_folder_url !== privateFolder)
        ctx.addIssue({
          code: 'custom',
          path: ['content_folder_url'],
          message: `Un épisode réservé aux soutiens a son audio dans le dossier privé : « ${privateFolder} ».`,
        });
      if (!episode.supportersOnly && episode.content_folder_url.startsWith('/audio/soutiens/'))
        ctx.addIssue({
          code: 'custom',
          path: ['content_folder_url'],
          message: 'Le dossier « /audio/soutiens/ » est réservé aux épisodes des soutiens (supportersOnly: true).',
        });
    });

export const pageSchema = z
  .object({
    slug,
    title: prose().min(2).describe('Titre de la page.'),
    description: prose().min(10).describe('Description pour les moteurs de recherche et le partage.'),
    updated: z.coerce.date().optional().describe('Dernière mise à jour (textes légaux).'),
  })
  .strict();
