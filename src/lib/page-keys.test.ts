/**
 * Page keys decide which pages an incremental build renders again: a page whose key is unchanged
 * is copied from the last build. These tests enumerate the keyed pages as the routes do, and
 * check, for edits a newsroom makes, that every page whose visible content changed got a new key
 * (else readers would see stale pages), and that pages left alone kept theirs (else nothing
 * would ever be skipped).
 */
import { describe, expect, it } from 'vitest';
import { buildCorpus, relatedStories, storyTeaser, urlOf, episodeTeaser, hasOwnPage, type Corpus, type CorpusInput, type Story } from './corpus';
import { STORY_SCHEMES } from './content-constants';
import { listPages } from './lists';
import { authorPageKey, storyListPageKey, storyPageKey, tagPageKey, type TagItem } from './page-keys';

const ref = (collection: string, id: string) => ({ collection, id });
const image = { src: '/img.jpg', width: 1600, height: 900, format: 'jpg' } as unknown as ImageMetadata;
const entry = (collection: string, id: string, data: Record<string, unknown>, body?: string) => ({ id, collection, data, body }) as never;

function story(scheme: 'articles' | 'emissions' | 'breves', slug: string, day: number, extra: Record<string, unknown> = {}): Story {
  return {
    id: `${scheme}/${slug}`,
    collection: 'stories',
    body: `Le corps de ${slug}.`,
    data: {
      scheme,
      slug,
      title: `Titre ${slug}`,
      lead: 'Un chapô.',
      published: new Date(Date.UTC(2026, 0, 1, 9) + day * 3_600_000),
      authors: [ref('authors', day % 3 === 0 ? 'paul' : 'lea')],
      tags: [ref('tags', day % 2 === 0 ? 'eau' : 'climat')],
      category: scheme === 'breves' ? 'en-france' : scheme === 'emissions' ? 'journal' : day % 4 === 0 ? 'societe' : 'politique',
      cover: { src: image, alt: 'Une image' },
      draft: false,
      ...(scheme === 'emissions' ? { video: { provider: 'youtube', id: 'aB3dE5fG7hJ' }, duration: 60 } : {}),
      ...extra,
    },
  } as unknown as Story;
}

/** A corpus big enough for lists of several pages (12 items a page). */
function input(): CorpusInput {
  const stories: Story[] = [];
  for (let day = 1; day <= 60; day++) stories.push(story('articles', `a${day}`, day, day <= 3 ? { dossier: ref('dossiers', 'eau') } : {}));
  for (let day = 61; day <= 80; day++) stories.push(story('emissions', `e${day}`, day));
  for (let day = 81; day <= 110; day++) stories.push(story('breves', `b${day}`, day));
  return {
    stories,
    authors: [
      entry('authors', 'lea', { slug: 'lea', name: 'Léa Moreau', bio: 'Journaliste.' }),
      entry('authors', 'paul', { slug: 'paul', name: 'Paul Durand', bio: 'Reporter.' }),
    ],
    tags: [
      entry('tags', 'eau', { slug: 'eau', label: 'Eau', scheme: 'TOPIC' }),
      entry('tags', 'climat', { slug: 'climat', label: 'Climat', scheme: 'TOPIC' }),
      entry('tags', 'show', { slug: 'show', label: 'Le Podcast', scheme: 'PODCAST' }),
    ],
    categories: [
      entry('categories', 'politique', { slug: 'politique', scheme: 'articles', label: 'Politique', description: 'Politique.' }),
      entry('categories', 'societe', { slug: 'societe', scheme: 'articles', label: 'Société', description: 'Société.' }),
      entry('categories', 'journal', { slug: 'journal', scheme: 'emissions', label: 'Le Journal', description: 'Journal.' }),
      entry('categories', 'en-france', { slug: 'en-france', scheme: 'breves', label: 'En France', description: 'France.' }),
      entry('categories', 'entretien', { slug: 'entretien', scheme: 'podcasts', label: 'Entretien', description: 'Entretiens.' }),
    ],
    dossiers: [
      entry('dossiers', 'eau', {
        slug: 'eau',
        title: 'L’eau',
        description: 'Le dossier.',
        published: new Date(Date.UTC(2026, 0, 1)),
        cover: { src: image, alt: 'x' },
        featured: false,
        stories: ['articles/a1', 'articles/a2', 'articles/a3'],
      }),
    ],
    podcasts: [
      entry('podcasts', 'show', {
        slug: 'show',
        label: 'Le Podcast',
        description: 'Un podcast.',
        category: 'entretien',
        cover: { src: image, alt: 'Pochette' },
        authors: [ref('authors', 'lea')],
        itunesCategory: 'News',
        explicit: false,
      }),
    ],
    episodes: [
      entry('episodes', 'show/ep1', {
        slug: 'ep1',
        podcast: 'show',
        title: 'Épisode 1',
        summary: 'Résumé.',
        published: new Date(Date.UTC(2026, 0, 2)),
        duration: 600,
        category: 'entretien',
        tags: [ref('tags', 'eau')],
        content_folder_url: '/media/ep1',
        attributes: { podcast: { filename: 'ep1.mp3' } },
      }),
    ],
    pages: [],
  };
}

interface Page {
  key: string;
  /** What the page shows, as its template computes it (the oracle the keys are checked against). */
  view: unknown;
}

const body = (story: Story) => story.body;
const shownStory = (corpus: Corpus, story: Story) => ({
  teaser: storyTeaser(corpus, story),
  body: body(story),
  data: story.data,
  tags: story.data.tags.map(({ id }) => corpus.tags.get(id)!.data.label),
});

/** Every keyed page, by path, enumerated like the routes' getStaticPaths. */
function pages(corpus: Corpus): Map<string, Page> {
  const out = new Map<string, Page>();
  const list = <T>(path: string, page: { current: number; total: number; items: T[] }, key: string, item: (value: T) => unknown, extra: unknown = null) =>
    out.set(path, { key, view: { current: page.current, total: page.total, items: page.items.map(item), extra } });
  for (const story of corpus.stories.filter(hasOwnPage)) {
    const dossier = story.data.dossier ? corpus.dossierById.get(story.data.dossier.id) : undefined;
    out.set(`story:${story.id}`, {
      key: storyPageKey(corpus, story),
      view: {
        ...shownStory(corpus, story),
        dossier: dossier ? { title: dossier.data.title, list: corpus.dossierStories.get(dossier.id)!.map((s) => [s.data.title, urlOf(corpus, s)]) } : null,
        related: relatedStories(corpus, story, 3).map((s) => storyTeaser(corpus, s)),
      },
    });
  }
  for (const scheme of STORY_SCHEMES) {
    const filters = [...corpus.categories.values()].filter((c) => c.data.scheme === scheme).map((c) => c.data.label);
    for (const page of listPages(corpus.byScheme.get(scheme)!))
      list(`list:${scheme}/${page.rest ?? ''}`, page, storyListPageKey(corpus, scheme, undefined, page), (s) => shownStory(corpus, s), filters);
    for (const category of [...corpus.categories.values()].filter((c) => c.data.scheme === scheme))
      for (const page of listPages(corpus.byCategory.get(category.id) ?? [], category.id))
        list(`list:${scheme}/${page.rest}`, page, storyListPageKey(corpus, scheme, category.id, page), (s) => shownStory(corpus, s), [filters, category.data]);
  }
  for (const author of corpus.authors.values())
    for (const page of listPages(corpus.byAuthor.get(author.id) ?? [], author.id))
      list(`author:${page.rest}`, page, authorPageKey(corpus, author, page), (s) => shownStory(corpus, s), author.data);
  for (const tag of corpus.tags.values()) {
    const items: TagItem[] = [
      ...(corpus.byTag.get(tag.id) ?? []).map((story) => ({ story })),
      ...(corpus.episodesByTag.get(tag.id) ?? []).map((episode) => ({ episode })),
    ];
    const time = (item: TagItem) => ('story' in item ? item.story : item.episode).data.published.getTime();
    items.sort((a, b) => time(b) - time(a));
    for (const page of listPages(items, tag.id))
      list(
        `tag:${page.rest}`,
        page,
        tagPageKey(corpus, tag, page),
        (item) => ('story' in item ? shownStory(corpus, item.story) : episodeTeaser(corpus, item.episode)),
        tag.data,
      );
  }
  return out;
}

type Edit = (input: CorpusInput) => CorpusInput;
const editStory =
  (id: string, change: (s: Story) => Story): Edit =>
  (i) => ({ ...i, stories: i.stories.map((s) => (s.id === id ? change(s) : s)) });
const withData = (s: Story, data: Record<string, unknown>) => ({ ...s, data: { ...s.data, ...data } }) as Story;

/** Pages whose view changed, pages whose key changed, and how many kept their key. */
function compare(edit: Edit) {
  const before = pages(buildCorpus(input()));
  const after = pages(buildCorpus(edit(input())));
  const changedView: string[] = [];
  const changedKey: string[] = [];
  let kept = 0;
  for (const [path, page] of after) {
    const old = before.get(path);
    if (!old) continue; // A new page: nothing to skip.
    if (JSON.stringify(old.view) !== JSON.stringify(page.view)) changedView.push(path);
    if (old.key !== page.key) changedKey.push(path);
    else kept += 1;
  }
  return { changedView, changedKey, kept, total: after.size };
}

const edits: [string, Edit][] = [
  ['a story’s title', editStory('articles/a40', (s) => withData(s, { title: 'Nouveau titre' }))],
  ['a story’s body', editStory('articles/a40', (s) => ({ ...s, body: 'Un autre corps.' }) as Story)],
  ['a story in a dossier', editStory('articles/a2', (s) => withData(s, { title: 'Nouveau titre du dossier' }))],
  ['a story’s cover', editStory('emissions/e70', (s) => withData(s, { cover: { src: { ...image, src: '/other.jpg' }, alt: 'Autre' } }))],
  ['a story’s tags', editStory('articles/a41', (s) => withData(s, { tags: [ref('tags', 'eau'), ref('tags', 'climat')] }))],
  ['a brève’s text', editStory('breves/b90', (s) => ({ ...s, body: 'Brève corrigée.' }) as Story)],
  ['a new article', (i) => ({ ...i, stories: [...i.stories, story('articles', 'neuf', 200)] })],
  ['a new brève (every brève’s address moves)', (i) => ({ ...i, stories: [...i.stories, story('breves', 'neuve', 200)] })],
  ['a deleted story', (i) => ({ ...i, stories: i.stories.filter((s) => s.id !== 'articles/a30') })],
  [
    'an author’s name',
    (i) => ({ ...i, authors: i.authors.map((a) => (a.id === 'paul' ? entry('authors', 'paul', { slug: 'paul', name: 'Paul Martin', bio: 'Reporter.' }) : a)) }),
  ],
  [
    'a category’s label',
    (i) => ({
      ...i,
      categories: i.categories.map((c) =>
        c.id === 'societe' ? entry('categories', 'societe', { slug: 'societe', scheme: 'articles', label: 'Société & vie', description: 'Société.' }) : c,
      ),
    }),
  ],
  [
    'a tag’s label',
    (i) => ({
      ...i,
      tags: i.tags.map((t) => (t.id === 'climat' ? entry('tags', 'climat', { slug: 'climat', label: 'Climat & énergie', scheme: 'TOPIC' }) : t)),
    }),
  ],
  ['an episode’s title', (i) => ({ ...i, episodes: i.episodes.map((e) => entry('episodes', e.id, { ...e.data, title: 'Épisode renommé' })) })],
];

describe('page keys', () => {
  it.each(edits)('after an edit of %s, every page that shows it gets a new key', (_, edit) => {
    const { changedView, changedKey } = compare(edit);
    expect(changedView.length).toBeGreaterThan(0);
    expect(changedView.filter((path) => !changedKey.includes(path))).toEqual([]);
  });

  it('leaves the keys of the pages that do not show the edit alone', () => {
    // A title change reaches its page, the lists and the pages relating to it, not the corpus.
    const { changedKey, kept, total } = compare(editStory('articles/a40', (s) => withData(s, { title: 'Nouveau titre' })));
    expect(changedKey).toContain('story:articles/a40');
    expect(kept).toBeGreaterThan(total / 2);
    // A brève's correction changes no article's page.
    const breve = compare(editStory('breves/b90', (s) => ({ ...s, body: 'Brève corrigée.' }) as Story));
    expect(breve.changedKey.filter((path) => path.startsWith('story:'))).toEqual([]);
  });

  it('gives the same keys to the same content, read again', () => {
    const a = pages(buildCorpus(input()));
    const b = pages(buildCorpus(input()));
    for (const [path, page] of a) expect(b.get(path)?.key).toBe(page.key);
  });
});
