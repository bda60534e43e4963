import { describe, expect, it } from 'vitest';
import { buildCorpus, relatedStories, storyTeaser, toPlayerEpisode, urlOf, type CorpusInput, type Story } from './corpus';

// Entries as the content layer hands them over: an id, a collection and parsed data.
const ref = (collection: string, id: string) => ({ collection, id });
const image = { src: '/img.jpg', width: 1600, height: 900, format: 'jpg' } as unknown as ImageMetadata;
let day = 0;
function story(scheme: 'articles' | 'emissions' | 'breves', slug: string, extra: Record<string, unknown> = {}): Story {
  day += 1;
  return {
    id: `${scheme}/${slug}`,
    collection: 'stories',
    data: {
      scheme,
      slug,
      title: slug,
      lead: 'Un chapô.',
      published: new Date(Date.UTC(2026, 0, day, 9)),
      authors: [ref('authors', 'lea')],
      tags: [ref('tags', 'eau')],
      category: scheme === 'breves' ? 'en-france' : scheme === 'emissions' ? 'journal' : 'politique',
      cover: { src: image, alt: 'Une image' },
      draft: false,
      ...(scheme === 'emissions' ? { video: { provider: 'youtube', id: 'aB3dE5fG7hJ' }, duration: 60 } : {}),
      ...extra,
    },
  } as unknown as Story;
}
function input(overrides: Partial<CorpusInput> = {}): CorpusInput {
  const entry = (collection: string, id: string, data: Record<string, unknown>) => ({ id, collection, data }) as never;
  return {
    stories: [],
    authors: [entry('authors', 'lea', { slug: 'lea', name: 'Léa Moreau', bio: 'Journaliste politique.' })],
    tags: [
      entry('tags', 'eau', { slug: 'eau', label: 'Eau', scheme: 'TOPIC' }),
      entry('tags', 'show', { slug: 'show', label: 'Le Podcast', scheme: 'PODCAST' }),
    ],
    categories: [
      entry('categories', 'politique', { slug: 'politique', scheme: 'articles', label: 'Politique', description: 'Politique.' }),
      entry('categories', 'journal', { slug: 'journal', scheme: 'emissions', label: 'Le Journal', description: 'Journal.' }),
      entry('categories', 'en-france', { slug: 'en-france', scheme: 'breves', label: 'En France', description: 'France.' }),
      entry('categories', 'entretien', { slug: 'entretien', scheme: 'podcasts', label: 'Entretien', description: 'Entretiens.' }),
    ],
    dossiers: [],
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
    episodes: [],
    pages: [],
    ...overrides,
  };
}

describe('corpus indexes', () => {
  it('sorts stories newest first, leaves drafts out, and indexes them by scheme, category, tag and author', () => {
    const a = story('articles', 'a');
    const b = story('articles', 'b');
    const draft = story('articles', 'draft', { draft: true });
    const c = story('emissions', 'c');
    const corpus = buildCorpus(input({ stories: [a, draft, b, c] }));
    expect(corpus.stories.map((s) => s.id)).toEqual(['emissions/c', 'articles/b', 'articles/a']);
    expect(corpus.byScheme.get('articles')).toEqual([b, a]);
    expect(corpus.byCategory.get('journal')).toEqual([c]);
    expect(corpus.byTag.get('eau')).toHaveLength(3);
    expect(corpus.byAuthor.get('lea')).toHaveLength(3);
  });

  it('gives each brève the page of its list that holds it', () => {
    const breves = Array.from({ length: 14 }, (_, i) => story('breves', `breve-${i}`));
    const corpus = buildCorpus(input({ stories: breves }));
    // Newest first: the two oldest fall on page 2.
    expect(urlOf(corpus, breves[13]!)).toBe('/breves#breve-breve-13');
    expect(urlOf(corpus, breves[0]!)).toBe('/breves/page/2#breve-breve-0');
  });
});

describe('cross-references fail the build with the file to fix', () => {
  it('refuses an unknown author, tag or category', () => {
    expect(() => buildCorpus(input({ stories: [story('articles', 'x', { authors: [ref('authors', 'personne')] })] }))).toThrow(
      /stories\/articles\/x: unknown author "personne"/,
    );
    expect(() => buildCorpus(input({ stories: [story('articles', 'x', { tags: [ref('tags', 'nope')] })] }))).toThrow(/unknown tag "nope"/);
    expect(() => buildCorpus(input({ stories: [story('articles', 'x', { category: 'nope' })] }))).toThrow(/unknown category "nope"/);
  });

  it('refuses a category of another scheme', () => {
    expect(() => buildCorpus(input({ stories: [story('articles', 'x', { category: 'journal' })] }))).toThrow(
      /category "journal" belongs to emissions, not articles/,
    );
  });

  it('requires dossiers and stories to name each other', () => {
    const dossier = (stories: string[]) =>
      ({
        id: 'eau',
        collection: 'dossiers',
        data: { slug: 'eau', title: 'Eau', description: 'Le dossier eau.', published: new Date(), cover: { src: image, alt: 'x' }, featured: false, stories },
      }) as never;
    const member = story('articles', 'm', { dossier: ref('dossiers', 'eau') });
    const loner = story('articles', 'l');
    expect(() => buildCorpus(input({ stories: [member, loner], dossiers: [dossier(['articles/m', 'articles/l'])] }))).toThrow(
      /stories\/articles\/l: listed by dossier "eau" but its dossier field says ""/,
    );
    expect(() => buildCorpus(input({ stories: [member], dossiers: [dossier(['articles/absent'])] }))).toThrow(/unknown story "articles\/absent"/);
    expect(() =>
      buildCorpus(input({ stories: [member, story('articles', 'n', { dossier: ref('dossiers', 'eau') })], dossiers: [dossier(['articles/m'])] })),
    ).toThrow(/stories\/articles\/n: names dossier "eau" which does not list it/);
    const corpus = buildCorpus(input({ stories: [member], dossiers: [dossier(['articles/m'])] }));
    expect(corpus.dossierStories.get('eau')).toEqual([member]);
  });

  it('requires episodes to belong to a known podcast and a podcast category', () => {
    const episode = (data: Record<string, unknown>) =>
      ({
        id: 'show/ep',
        collection: 'episodes',
        data: {
          slug: 'ep',
          title: 'Épisode',
          podcast: 'show',
          published: new Date(),
          duration: 95,
          summary: 'Résumé.',
          category: 'entretien',
          tags: [ref('tags', 'show')],
          content_folder_url: '/media/show/',
          attributes: { podcast: { filename: 'ep.mp3', size: 10, type: 'audio/mpeg' } },
          ...data,
        },
      }) as never;
    expect(() => buildCorpus(input({ episodes: [episode({ podcast: 'inconnu' })] }))).toThrow(/unknown podcast "inconnu"/);
    expect(() => buildCorpus(input({ episodes: [episode({ category: 'politique' })] }))).toThrow(/"politique" is not a podcast category/);
    const corpus = buildCorpus(input({ episodes: [episode({})] }));
    // The player's shape (SPEC §3), with the PODCAST tag that names the show.
    expect(toPlayerEpisode(corpus, corpus.episodes[0]!)).toMatchObject({
      slug: 'ep',
      duration: 95,
      category: { label: 'Entretien' },
      tags: [{ scheme: 'PODCAST', label: 'Le Podcast' }],
      content_folder_url: '/media/show/',
      attributes: { podcast: { filename: 'ep.mp3' } },
      url: '/podcasts/show/ep',
      podcast: 'show',
    });
  });
});

describe('related stories', () => {
  it('prefers shared tags, then the same category, never brèves or the story itself', () => {
    const base = story('articles', 'base', { tags: [ref('tags', 'eau')] });
    const sameTag = story('emissions', 'same-tag', { tags: [ref('tags', 'eau')] });
    const sameCategory = story('articles', 'same-category', { tags: [] });
    const breve = story('breves', 'breve', { tags: [ref('tags', 'eau')] });
    const corpus = buildCorpus(input({ stories: [base, sameTag, sameCategory, breve] }));
    expect(relatedStories(corpus, base).map((s) => s.id)).toEqual(['emissions/same-tag', 'articles/same-category']);
  });

  it('picks the same related stories as sorting every candidate would, ties included', () => {
    // Few tags and dates that repeat: many ties in score and date.
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const tagIds = ['eau', 'climat', 'logement'];
    const stories = Array.from({ length: 120 }, (_, i) => {
      const s = story(i % 5 === 0 ? 'emissions' : 'articles', `r${i}`, { tags: tagIds.filter(() => random() < 0.5).map((id) => ref('tags', id)) });
      (s.data as { published: Date }).published = new Date(Date.UTC(2026, 0, 1 + Math.floor(random() * 6)));
      return s;
    });
    const corpus = buildCorpus(
      input({ stories, tags: tagIds.map((id) => ({ id, collection: 'tags', data: { slug: id, label: id, scheme: 'TOPIC' } }) as never) }),
    );
    const bySort = (target: Story, count: number) => {
      const scores = new Map<Story, number>();
      const consider = (list: Story[] | undefined, weight: number) => {
        for (const c of (list ?? []).slice(0, 200)) if (c !== target && c.data.scheme !== 'breves') scores.set(c, (scores.get(c) ?? 0) + weight);
      };
      for (const { id } of target.data.tags) consider(corpus.byTag.get(id), 2);
      consider(corpus.byCategory.get(target.data.category), 1);
      return [...scores.entries()]
        .sort((a, b) => b[1] - a[1] || b[0].data.published.getTime() - a[0].data.published.getTime())
        .slice(0, count)
        .map(([s]) => s.id);
    };
    for (const target of corpus.stories) {
      for (const count of [1, 3, 5]) expect(relatedStories(corpus, target, count).map((s) => s.id)).toEqual(bySort(target, count));
    }
  });

  it('builds teasers that link to the story and its category', () => {
    const s = story('articles', 'teaser');
    const corpus = buildCorpus(input({ stories: [s] }));
    expect(storyTeaser(corpus, s)).toMatchObject({
      url: `/articles/2026/teaser`,
      kicker: { label: 'Politique', url: '/articles/politique' },
      authors: [{ name: 'Léa Moreau', url: '/auteurs/lea' }],
    });
  });
});
