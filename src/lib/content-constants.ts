/** Constants of the content model, shared by the schemas, the pages and the scripts. */

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Stories come in three schemes; only articles and émissions have a page of their own. */
export const STORY_SCHEMES = ['articles', 'emissions', 'breves'] as const;
export type StoryScheme = (typeof STORY_SCHEMES)[number];
export const SCHEMES_WITH_PAGES = ['articles', 'emissions'] as const satisfies readonly StoryScheme[];

/** Categories classify stories (rubriques, programmes) and podcasts. */
export const CATEGORY_SCHEMES = [...STORY_SCHEMES, 'podcasts'] as const;
export type CategoryScheme = (typeof CATEGORY_SCHEMES)[number];

/** Tag families. A PODCAST tag names the show an episode belongs to (SPEC §3). */
export const TAG_SCHEMES = ['TOPIC', 'PLACE', 'PERSON', 'PODCAST'] as const;
export type TagScheme = (typeof TAG_SCHEMES)[number];

export const SCHEME_LABELS: Record<StoryScheme, { singular: string; plural: string; categoryName: string }> = {
  articles: { singular: 'Article', plural: 'Articles', categoryName: 'Rubrique' },
  emissions: { singular: 'Émission', plural: 'Émissions', categoryName: 'Programme' },
  breves: { singular: 'Brève', plural: 'Brèves', categoryName: 'Rubrique' },
};

export const TAG_SCHEME_LABELS: Record<TagScheme, { singular: string; plural: string }> = {
  TOPIC: { singular: 'Thème', plural: 'Thèmes' },
  PLACE: { singular: 'Lieu', plural: 'Lieux' },
  PERSON: { singular: 'Personnalité', plural: 'Personnalités' },
  PODCAST: { singular: 'Podcast', plural: 'Podcasts' },
};

/** Items per page in every paginated list. */
export const PAGE_SIZE = 12;
