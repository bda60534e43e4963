/**
 * Cache keys of the prerendered pages (Astro's `experimental.incrementalBuild`): a page whose
 * key and code are unchanged since the last build is copied from the cache instead of rendered.
 * So a key must change whenever anything the page shows changes, and a page that shows more
 * than it declares here would go stale: keys over-declare on purpose (every entry a page shows
 * counts in full, with the entries its card or item names: category, authors, tags).
 *
 * Keys are derived from the content only; the code (templates, components, this file) is covered
 * by Astro's own hash of each page's module graph. Pages without a key (home page, feeds,
 * indexes, podcasts, dossiers: few pages) are rendered at every build.
 *
 * Pure (no Astro runtime): unit-tested in page-keys.test.ts.
 */
import { createHash } from 'node:crypto';
import type { Author, Corpus, Episode, Podcast, Story, Tag } from './corpus';
import { relatedStories, urlOf } from './corpus';
import type { ListPage } from './lists';

interface Entry {
  id: string;
  data: unknown;
  body?: string | undefined;
}

const fingerprints = new WeakMap<object, string>();

function hash(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/** Everything an entry holds: its id, front matter (dates, images…) and body. */
export function entryFingerprint(entry: Entry): string {
  let fingerprint = fingerprints.get(entry);
  if (fingerprint === undefined) {
    fingerprint = hash([entry.id, entry.data, entry.body ?? null]);
    fingerprints.set(entry, fingerprint);
  }
  return fingerprint;
}

/**
 * A story wherever it is shown (page, card, brève in a list): itself, its address (a brève's
 * depends on its page in the brèves list), and the category, authors and tags it names. One hash,
 * computed once per story and corpus: a story shows on many pages.
 */
export function storyDependencies(corpus: Corpus, story: Story): string {
  const known = dependencies(corpus);
  let value = known.get(story);
  if (value === undefined) {
    const { data } = story;
    const named = [
      corpus.categories.get(data.category),
      ...data.authors.map(({ id }) => corpus.authors.get(id)),
      ...data.tags.map(({ id }) => corpus.tags.get(id)),
    ];
    value = hash([entryFingerprint(story), urlOf(corpus, story), ...named.map((entry) => (entry ? entryFingerprint(entry) : 'missing'))]);
    known.set(story, value);
  }
  return value;
}

/** An episode on a card: itself, its show, and the show's authors and the episode's tags. */
export function episodeDependencies(corpus: Corpus, episode: Episode): string {
  const known = dependencies(corpus);
  let value = known.get(episode);
  if (value === undefined) {
    const podcast = corpus.podcasts.get(episode.data.podcast);
    const named = [
      podcast,
      corpus.categories.get(episode.data.category),
      ...(podcast?.data.authors ?? []).map(({ id }) => corpus.authors.get(id)),
      ...episode.data.tags.map(({ id }) => corpus.tags.get(id)),
    ];
    value = hash([entryFingerprint(episode), ...named.map((entry) => (entry ? entryFingerprint(entry) : 'missing'))]);
    known.set(episode, value);
  }
  return value;
}

const dependencyHashes = new WeakMap<Corpus, Map<object, string>>();
function dependencies(corpus: Corpus): Map<object, string> {
  let known = dependencyHashes.get(corpus);
  if (!known) {
    known = new Map();
    dependencyHashes.set(corpus, known);
  }
  return known;
}

/** A page of a list: its place (current, total) and every item on it. */
function pageDependencies<T>(page: ListPage<T>, item: (value: T) => string): unknown[] {
  return [page.rest ?? '', page.current, page.total, page.items.map(item)];
}

/**
 * A story's page (/{scheme}/{year}/{slug}): the story, its dossier with the dossier's other
 * stories (titles and links), and the related stories' cards.
 */
export function storyPageKey(corpus: Corpus, story: Story): string {
  const dossier = story.data.dossier ? corpus.dossierById.get(story.data.dossier.id) : undefined;
  const dossierList = dossier ? (corpus.dossierStories.get(dossier.id) ?? []) : [];
  return hash([
    'story',
    storyDependencies(corpus, story),
    dossier ? entryFingerprint(dossier) : null,
    dossierList.map((s) => storyDependencies(corpus, s)),
    relatedStories(corpus, story, 3).map((s) => storyDependencies(corpus, s)),
  ]);
}

/**
 * A page of a scheme's or category's list: its items, and the category filters that every
 * page of the scheme shows (the categories of the scheme).
 */
export function storyListPageKey(corpus: Corpus, scheme: string, category: string | undefined, page: ListPage<Story>): string {
  const filters = [...corpus.categories.values()].filter((c) => c.data.scheme === scheme).map(entryFingerprint);
  return hash(['list', scheme, category ?? null, filters, pageDependencies(page, (story) => storyDependencies(corpus, story))]);
}

/** A page of an author's list: the author, the shows they voice, and the stories. */
export function authorPageKey(corpus: Corpus, author: Author, page: ListPage<Story>): string {
  const podcasts: Podcast[] = [...corpus.podcasts.values()].filter((p) => p.data.authors.some((a) => a.id === author.id));
  return hash(['author', entryFingerprint(author), podcasts.map(entryFingerprint), pageDependencies(page, (story) => storyDependencies(corpus, story))]);
}

export type TagItem = { story: Story } | { episode: Episode };

/** A page of a tag's list: the tag, its show when it names one, the stories and episodes. */
export function tagPageKey(corpus: Corpus, tag: Tag, page: ListPage<TagItem>): string {
  const podcast = corpus.podcasts.get(tag.id);
  return hash([
    'tag',
    entryFingerprint(tag),
    podcast ? entryFingerprint(podcast) : null,
    pageDependencies(page, (item) => ('story' in item ? storyDependencies(corpus, item.story) : episodeDependencies(corpus, item.episode))),
  ]);
}
