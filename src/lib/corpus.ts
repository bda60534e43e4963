/**
 * The corpus model: entries indexed by scheme, category, tag, author, dossier and podcast,
 * with every cross-reference checked. Pure (no Astro runtime), so that it is unit-tested;
 * src/lib/content.ts feeds it from the content layer once per build.
 */
import type { CollectionEntry } from 'astro:content';
import { PAGE_SIZE, SCHEMES_WITH_PAGES, STORY_SCHEMES, type StoryScheme } from './content-constants';
import { audioUrl, authorUrl, categoryUrl, episodeUrl, podcastUrl, storyUrl } from './urls';

export type Story = CollectionEntry<'stories'>;
export type Author = CollectionEntry<'authors'>;
export type Tag = CollectionEntry<'tags'>;
export type Category = CollectionEntry<'categories'>;
export type Dossier = CollectionEntry<'dossiers'>;
export type Podcast = CollectionEntry<'podcasts'>;
export type Episode = CollectionEntry<'episodes'>;
export type EditorialPage = CollectionEntry<'pages'>;

/** The episode as the player state holds it (SPEC §3). */
export interface PlayerEpisode {
  slug: string;
  title: string;
  duration: number;
  category: { label: string };
  tags: { scheme: string; label: string }[];
  content_folder_url: string;
  attributes: { podcast: { filename: string } };
  /** Where the episode's page is, for the player's title link. */
  url: string;
  /** The show's slug: its episode list (episodes.json) gives the next episode to offer. */
  podcast: string;
  /** The show's cover, for lock-screen metadata. */
  artwork?: string;
  /** Réservé aux soutiens: the player asks a signed address of its audio (/api/podcasts/ecoute) each time it starts it. */
  supportersOnly?: true;
}

export interface Corpus {
  stories: Story[];
  byScheme: Map<StoryScheme, Story[]>;
  byCategory: Map<string, Story[]>;
  byTag: Map<string, Story[]>;
  byAuthor: Map<string, Story[]>;
  authors: Map<string, Author>;
  tags: Map<string, Tag>;
  categories: Map<string, Category>;
  dossiers: Dossier[];
  dossierById: Map<string, Dossier>;
  dossierStories: Map<string, Story[]>;
  podcasts: Map<string, Podcast>;
  episodes: Episode[];
  episodesByPodcast: Map<string, Episode[]>;
  episodesByTag: Map<string, Episode[]>;
  /** Page of the brèves list holding each brève, for its anchor URL. */
  brevePage: Map<string, number>;
  pages: Map<string, EditorialPage>;
}

const byDateDesc = <T extends { data: { published: Date } }>(a: T, b: T) => b.data.published.getTime() - a.data.published.getTime();

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

class ContentError extends Error {
  constructor(where: string, problem: string) {
    super(`Content error in ${where}: ${problem}`);
    this.name = 'ContentError';
  }
}

/** Every collection's entries, as read from the content layer. */
export interface CorpusInput {
  stories: Story[];
  authors: Author[];
  tags: Tag[];
  categories: Category[];
  dossiers: Dossier[];
  podcasts: Podcast[];
  episodes: Episode[];
  pages: EditorialPage[];
}

/**
 * Indexes the corpus and checks its cross-references, failing with a message that names the
 * file to fix. Drafts are left out. Pure: the unit tests feed it entries directly.
 */
export function buildCorpus(input: CorpusInput): Corpus {
  const storyEntries = input.stories.filter(({ data }) => !data.draft);
  const {
    authors: authorEntries,
    tags: tagEntries,
    categories: categoryEntries,
    dossiers: dossierEntries,
    podcasts: podcastEntries,
    episodes: episodeEntries,
    pages: pageEntries,
  } = input;

  const authors = new Map(authorEntries.map((a) => [a.id, a]));
  const tags = new Map(tagEntries.map((t) => [t.id, t]));
  const categories = new Map(categoryEntries.map((c) => [c.id, c]));
  const podcasts = new Map(podcastEntries.map((p) => [p.id, p]));
  const pages = new Map(pageEntries.map((p) => [p.id, p]));

  const stories = [...storyEntries].sort(byDateDesc);
  const byScheme = new Map<StoryScheme, Story[]>(STORY_SCHEMES.map((s) => [s, []]));
  const byCategory = new Map<string, Story[]>();
  const byTag = new Map<string, Story[]>();
  const byAuthor = new Map<string, Story[]>();

  for (const story of stories) {
    const where = `stories/${story.id}`;
    const { data } = story;
    const category = categories.get(data.category);
    if (!category) throw new ContentError(where, `unknown category "${data.category}"`);
    if (category.data.scheme !== data.scheme)
      throw new ContentError(where, `category "${data.category}" belongs to ${category.data.scheme}, not ${data.scheme}`);
    byScheme.get(data.scheme)!.push(story);
    push(byCategory, data.category, story);
    for (const { id } of data.authors) {
      if (!authors.has(id)) throw new ContentError(where, `unknown author "${id}"`);
      push(byAuthor, id, story);
    }
    for (const { id } of data.tags) {
      if (!tags.has(id)) throw new ContentError(where, `unknown tag "${id}"`);
      push(byTag, id, story);
    }
  }

  // Dossiers list their stories in reading order; each story names its dossier. Both must agree.
  const storyById = new Map(stories.map((s) => [s.id, s]));
  const dossierStories = new Map<string, Story[]>();
  const dossiers = [...dossierEntries].sort(byDateDesc);
  for (const dossier of dossiers) {
    const list = dossier.data.stories.map((id) => {
      const story = storyById.get(id);
      if (!story) throw new ContentError(`dossiers/${dossier.id}`, `unknown story "${id}"`);
      if (story.data.dossier?.id !== dossier.id)
        throw new ContentError(`stories/${id}`, `listed by dossier "${dossier.id}" but its dossier field says "${story.data.dossier?.id ?? ''}"`);
      return story;
    });
    dossierStories.set(dossier.id, list);
  }
  const dossierById = new Map(dossiers.map((d) => [d.id, d]));
  for (const story of stories) {
    const id = story.data.dossier?.id;
    if (id && !dossierStories.get(id)?.includes(story)) throw new ContentError(`stories/${story.id}`, `names dossier "${id}" which does not list it`);
  }

  const episodes = [...episodeEntries].sort(byDateDesc);
  const episodesByPodcast = new Map<string, Episode[]>();
  const episodesByTag = new Map<string, Episode[]>();
  for (const episode of episodes) {
    const where = `episodes/${episode.id}`;
    if (!podcasts.has(episode.data.podcast)) throw new ContentError(where, `unknown podcast "${episode.data.podcast}"`);
    const category = categories.get(episode.data.category);
    if (category?.data.scheme !== 'podcasts') throw new ContentError(where, `"${episode.data.category}" is not a podcast category`);
    push(episodesByPodcast, episode.data.podcast, episode);
    for (const { id } of episode.data.tags) {
      if (!tags.has(id)) throw new ContentError(where, `unknown tag "${id}"`);
      push(episodesByTag, id, episode);
    }
  }
  for (const podcast of podcasts.values()) {
    const category = categories.get(podcast.data.category);
    if (category?.data.scheme !== 'podcasts') throw new ContentError(`podcasts/${podcast.id}`, `"${podcast.data.category}" is not a podcast category`);
    for (const { id } of podcast.data.authors) if (!authors.has(id)) throw new ContentError(`podcasts/${podcast.id}`, `unknown author "${id}"`);
  }

  const brevePage = new Map<string, number>();
  byScheme.get('breves')!.forEach((story, index) => brevePage.set(story.id, Math.floor(index / PAGE_SIZE) + 1));

  return {
    stories,
    byScheme,
    byCategory,
    byTag,
    byAuthor,
    authors,
    tags,
    categories,
    dossiers,
    dossierById,
    dossierStories,
    podcasts,
    episodes,
    episodesByPodcast,
    episodesByTag,
    brevePage,
    pages,
  };
}

/** The public URL of a story (a brève's is an anchor in its list page). */
export function urlOf(corpus: Corpus, story: Story): string {
  return storyUrl(story.data, corpus.brevePage.get(story.id) ?? 1);
}

export function hasOwnPage(story: Story): boolean {
  return (SCHEMES_WITH_PAGES as readonly string[]).includes(story.data.scheme);
}

/**
 * Up to `count` stories sharing the most tags with this one (then its category), newest first.
 * Candidates come from the story's own tag and category lists, so the cost stays linear in
 * the size of those lists rather than in the corpus.
 */
export function relatedStories(corpus: Corpus, story: Story, count = 3): Story[] {
  const scores = new Map<Story, number>();
  const consider = (list: Story[] | undefined, weight: number) => {
    if (!list) return;
    // Lists are sorted newest first; the 200 newest are plenty of candidates.
    for (const candidate of list.slice(0, 200)) {
      if (candidate === story || candidate.data.scheme === 'breves') continue;
      scores.set(candidate, (scores.get(candidate) ?? 0) + weight);
    }
  };
  for (const { id } of story.data.tags) consider(corpus.byTag.get(id), 2);
  consider(corpus.byCategory.get(story.data.category), 1);
  // The best `count` by score, then date, ties in the order met (as a stable sort would give
  // them): a selection, not a sort of every candidate (this runs for every story of the build).
  const before = (a: [Story, number], b: [Story, number]) => b[1] - a[1] || byDateDesc(a[0], b[0]);
  const best: [Story, number][] = [];
  if (count <= 0) return [];
  for (const candidate of scores) {
    if (best.length === count && before(candidate, best[count - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && before(candidate, best[at - 1]!) < 0) at -= 1;
    best.splice(at, 0, candidate);
    if (best.length > count) best.pop();
  }
  return best.map(([s]) => s);
}

/** The episode in the shape the player expects (SPEC §3). */
export function toPlayerEpisode(corpus: Corpus, episode: Episode, artwork?: string): PlayerEpisode {
  const { data } = episode;
  return {
    slug: data.slug,
    title: data.title,
    duration: data.duration,
    category: { label: corpus.categories.get(data.category)!.data.label },
    tags: data.tags.map(({ id }) => {
      const tag = corpus.tags.get(id)!;
      return { scheme: tag.data.scheme, label: tag.data.label };
    }),
    content_folder_url: data.content_folder_url,
    attributes: { podcast: { filename: data.attributes.podcast.filename } },
    url: episodeUrl(data.podcast, data.slug),
    podcast: data.podcast,
    ...(artwork ? { artwork } : {}),
    ...(data.supportersOnly ? { supportersOnly: true as const } : {}),
  };
}

/** The show's episodes that anyone may play (the public feed, the player's next episode, « Écouter » on lists). */
export function publicEpisodes(episodes: readonly Episode[]): Episode[] {
  return episodes.filter((episode) => !episode.data.supportersOnly);
}

export function episodeAudioUrl(episode: Episode): string {
  return audioUrl(episode.data.content_folder_url, episode.data.attributes.podcast.filename);
}

/** What a card shows, whatever it points to. */
export interface Teaser {
  id: string;
  kind: StoryScheme | 'episode';
  title: string;
  url: string;
  lead: string;
  published: Date;
  kicker: { label: string; url: string };
  cover?: { src: ImageMetadata; alt: string } | undefined;
  authors: { name: string; url: string }[];
  /** Seconds, for émissions and episodes. */
  duration?: number | undefined;
  episode?: PlayerEpisode | undefined;
  audio?: string | undefined;
  /** An episode reserved to supporters: the card says so, and offers no public « Écouter ». */
  supportersOnly?: boolean | undefined;
}

export function storyTeaser(corpus: Corpus, story: Story): Teaser {
  const { data } = story;
  const category = corpus.categories.get(data.category)!;
  return {
    id: story.id,
    kind: data.scheme,
    title: data.title,
    url: urlOf(corpus, story),
    lead: data.lead,
    published: data.published,
    kicker: { label: category.data.label, url: categoryUrl(data.scheme, category.id) },
    cover: data.cover ? { src: data.cover.src, alt: data.cover.alt } : undefined,
    authors: data.authors.map(({ id }) => ({ name: corpus.authors.get(id)!.data.name, url: authorUrl(id) })),
    duration: data.scheme === 'emissions' ? data.duration : undefined,
  };
}

export function episodeTeaser(corpus: Corpus, episode: Episode): Teaser {
  const podcast = corpus.podcasts.get(episode.data.podcast)!;
  return {
    id: episode.id,
    kind: 'episode',
    title: episode.data.title,
    url: episodeUrl(podcast.id, episode.data.slug),
    lead: episode.data.summary,
    published: episode.data.published,
    kicker: { label: podcast.data.label, url: podcastUrl(podcast.id) },
    cover: { src: podcast.data.cover.src, alt: podcast.data.cover.alt },
    authors: podcast.data.authors.map(({ id }) => ({ name: corpus.authors.get(id)!.data.name, url: authorUrl(id) })),
    duration: episode.data.duration,
    // A supporters-only episode's audio is not public: its card leads to its page, which says how to listen.
    ...(episode.data.supportersOnly
      ? { supportersOnly: true }
      : { episode: toPlayerEpisode(corpus, episode, podcast.data.cover.src.src), audio: episodeAudioUrl(episode) }),
  };
}
