import { describe, expect, it } from 'vitest';
import { z } from 'astro/zod';
import { dossierSchema, episodeSchema, podcastSchema, schemaOnce, storySchema, tagSchema, type SchemaHelpers } from './content-schemas';

// Stand-ins for Astro's helpers: an image is its path, a reference is its id.
const helpers: SchemaHelpers<z.ZodString> = {
  image: () => z.string(),
  reference: (collection) => z.string().transform((id) => ({ collection, id })),
};
const stories = storySchema(helpers);
const cover = { src: '../../images/foret.jpg', alt: 'Une forêt de pins', credit: 'Illustration : Contrechamp' };
const article = {
  scheme: 'articles',
  slug: 'la-foret-brule',
  title: 'La forêt brûle',
  lead: 'Un chapô de plus de dix caractères.',
  published: '2026-09-14T07:30:00+02:00',
  authors: ['claire-fontaine'],
  tags: ['climat'],
  category: 'environnement',
  cover,
};

describe('story schema', () => {
  it('accepts a complete article and resolves its references', () => {
    const parsed = stories.parse(article);
    expect(parsed.published.toISOString()).toBe('2026-09-14T05:30:00.000Z');
    expect(parsed.authors).toEqual([{ collection: 'authors', id: 'claire-fontaine' }]);
    expect(parsed.draft).toBe(false);
  });

  it('typesets what readers see, and nothing that is an address or an identifier', () => {
    const parsed = stories.parse({ ...article, title: 'Cantines : le « durable » ?', lead: 'Près de 54 % des 7 400 repas servis.' });
    expect(parsed.title).toBe('Cantines\u00a0: le «\u202fdurable\u202f»\u202f?');
    expect(parsed.lead).toBe('Près de 54\u202f% des 7\u202f400 repas servis.');
    expect(parsed.cover?.credit).toBe('Illustration\u00a0: Contrechamp');
    expect(parsed.cover?.alt).toBe(cover.alt);
    expect(parsed.slug).toBe(article.slug);
  });

  it('rejects an unknown field, so that a typo fails the build', () => {
    const result = stories.safeParse({ ...article, chapo: 'typo' });
    expect(result.success).toBe(false);
  });

  it('requires a cover with alt text on articles, but not on brèves', () => {
    const { cover: _cover, ...withoutCover } = article;
    expect(stories.safeParse(withoutCover).success).toBe(false);
    expect(stories.safeParse({ ...article, cover: { src: 'x.jpg', alt: '' } }).success).toBe(false);
    expect(stories.safeParse({ ...withoutCover, scheme: 'breves', category: 'en-france' }).success).toBe(true);
  });

  it('requires a video and a duration on émissions, from YouTube or PeerTube', () => {
    const emission = { ...article, scheme: 'emissions', category: 'le-grand-entretien', duration: 1800 };
    expect(stories.safeParse(emission).success).toBe(false);
    expect(stories.safeParse({ ...emission, video: { provider: 'youtube', id: 'aB3dE5fG7hJ' } }).success).toBe(true);
    expect(stories.safeParse({ ...emission, video: { provider: 'youtube', id: 'too-short' } }).success).toBe(false);
    expect(
      stories.safeParse({ ...emission, video: { provider: 'peertube', instance: 'https://videos.exemple.fr', id: '9c9de5e8-0a1e-484a-b099-e80766180a6d' } })
        .success,
    ).toBe(true);
    expect(stories.safeParse({ ...emission, video: { provider: 'vimeo', id: '123' } }).success).toBe(false);
    // A video makes no sense on an article.
    expect(stories.safeParse({ ...article, video: { provider: 'youtube', id: 'aB3dE5fG7hJ' } }).success).toBe(false);
  });

  describe('chapters of an émission (« Au sommaire »)', () => {
    const emission = {
      ...article,
      scheme: 'emissions',
      category: 'contre-enquete',
      duration: 3900,
      video: { provider: 'youtube', id: 'aB3dE5fG7hJ' },
    };
    const chapters = [
      { start: '00:00', title: 'Introduction' },
      { start: '05:40', title: 'Le tableur de Moussa Traoré' },
      { start: '1:02:10', title: 'Le mot de la fin' },
    ];

    it('are optional, and read as seconds from mm:ss or h:mm:ss', () => {
      expect(stories.safeParse(emission).success).toBe(true);
      const parsed = stories.parse({ ...emission, chapters });
      expect(parsed.scheme === 'emissions' && parsed.chapters).toEqual([
        { start: 0, title: 'Introduction' },
        { start: 340, title: 'Le tableur de Moussa Traoré' },
        { start: 3730, title: 'Le mot de la fin' },
      ]);
    });

    it('refuse a malformed time, chapters out of order, or one that starts after the video ends', () => {
      const bad = (list: unknown) => stories.safeParse({ ...emission, chapters: list });
      expect(bad([chapters[0], { start: '5.40', title: 'Virgule' }]).success).toBe(false);
      expect(bad([chapters[0], { start: '05:75', title: 'Soixante-quinze secondes' }]).success).toBe(false);
      expect(bad([chapters[1], chapters[0]]).success).toBe(false);
      expect(bad([chapters[0], { start: '1:06:00', title: 'Après la fin' }]).success).toBe(false);
      expect(bad([chapters[0]]).success).toBe(false);
    });

    it('belong to émissions only', () => {
      expect(stories.safeParse({ ...article, chapters }).success).toBe(false);
    });
  });

  it('refuses slugs that would make odd URLs', () => {
    for (const slug of ['Avec-Majuscule', 'avec espace', 'accentué', '-tiret', 'double--tiret'])
      expect(stories.safeParse({ ...article, slug }).success, slug).toBe(false);
  });
});

describe('episode schema', () => {
  const episode = {
    slug: 'episode-1',
    title: 'Premier épisode',
    podcast: 'a-contre-courant',
    published: '2026-05-01T08:00:00+02:00',
    duration: 95,
    summary: 'Un résumé de l’épisode.',
    category: 'entretien',
    tags: ['a-contre-courant'],
    content_folder_url: '/media/podcasts/a-contre-courant/',
    attributes: { podcast: { filename: 'episode-1.mp3', size: 380000, type: 'audio/mpeg' } },
  };
  it('holds the fields the player needs (SPEC §3)', () => {
    const parsed = episodeSchema(helpers).parse(episode);
    expect(parsed.attributes.podcast.filename).toBe('episode-1.mp3');
    expect(parsed.content_folder_url).toBe('/media/podcasts/a-contre-courant/');
  });
  it('refuses a folder URL that is neither absolute nor rooted', () => {
    expect(episodeSchema(helpers).safeParse({ ...episode, content_folder_url: 'http://insecure.example/' }).success).toBe(false);
    expect(episodeSchema(helpers).safeParse({ ...episode, content_folder_url: 'media/' }).success).toBe(false);
  });
  it('keeps a supporters-only episode’s audio in the private folder, and only there', () => {
    const bonus = { ...episode, supportersOnly: true, content_folder_url: '/audio/soutiens/a-contre-courant/' };
    expect(episodeSchema(helpers).safeParse(bonus).success).toBe(true);
    const published = episodeSchema(helpers).safeParse({ ...bonus, content_folder_url: '/media/podcasts/a-contre-courant/' });
    expect(published.success).toBe(false);
    expect(published.error?.issues[0]?.message).toBe(
      'Un épisode réservé aux soutiens a son audio dans le dossier privé : « /audio/soutiens/a-contre-courant/ ».',
    );
    expect(episodeSchema(helpers).safeParse({ ...episode, content_folder_url: '/audio/soutiens/a-contre-courant/' }).success).toBe(false);
  });
});

describe('tags and dossiers', () => {
  it('knows the PODCAST tag family', () => {
    expect(tagSchema.safeParse({ slug: 'a-contre-courant', label: 'À contre-courant', scheme: 'PODCAST' }).success).toBe(true);
    expect(tagSchema.safeParse({ slug: 'x', label: 'X', scheme: 'OTHER' }).success).toBe(false);
  });
  it('lists dossier contents as scheme/slug', () => {
    const dossier = { slug: 'eau', title: 'L’eau', description: 'Un dossier sur l’eau.', published: '2026-01-01', cover, stories: ['articles/la-foret-brule'] };
    expect(dossierSchema(helpers).safeParse(dossier).success).toBe(true);
    expect(dossierSchema(helpers).safeParse({ ...dossier, stories: ['la-foret-brule'] }).success).toBe(false);
  });
});

describe('podcast schema', () => {
  const podcasts = podcastSchema(helpers);
  const show = {
    slug: 'a-contre-courant',
    label: 'À contre-courant',
    description: 'De longs entretiens à rebours des évidences.',
    cover,
    category: 'entretien',
    itunesCategory: 'News',
    authors: ['aminata-diallo'],
  };

  it('needs no podcast app', () => {
    expect(podcasts.parse(show).apps).toBeUndefined();
  });

  it('takes the show’s pages on Apple Podcasts, Spotify and any other app by name and address', () => {
    const apps = {
      applePodcasts: 'https://podcasts.apple.com/fr/podcast/a-contre-courant/id1',
      spotify: 'https://open.spotify.com/show/abc',
      others: [{ name: 'Deezer', url: 'https://www.deezer.com/fr/show/1' }],
    };
    expect(podcasts.parse({ ...show, apps }).apps).toEqual(apps);
    expect(podcasts.parse({ ...show, apps: { spotify: apps.spotify } }).apps).toEqual({ spotify: apps.spotify, others: [] });
  });

  it('refuses an address of another site for a known app, a plain http address, or a typo', () => {
    expect(podcasts.safeParse({ ...show, apps: { spotify: 'https://podcasts.apple.com/fr/podcast/x' } }).success).toBe(false);
    expect(podcasts.safeParse({ ...show, apps: { others: [{ name: 'Deezer', url: 'http://www.deezer.com/fr/show/1' }] } }).success).toBe(false);
    expect(podcasts.safeParse({ ...show, apps: { deezer: 'https://www.deezer.com/fr/show/1' } }).success).toBe(false);
  });
});

describe('a collection schema made once (schemaOnce)', () => {
  // Astro's image() resolves a path from the folder of the entry being checked.
  const imageFrom = (folder: string) => () => z.string().transform((path) => `${folder}/${path}`);

  it('is made once, and hands each image to the image() of the entry being checked', () => {
    let made = 0;
    const schemaFor = schemaOnce((h) => {
      made += 1;
      return storySchema(h);
    }, helpers.reference);
    const first = schemaFor({ image: imageFrom('/stories/2024') }).parse(article);
    const second = schemaFor({ image: imageFrom('/stories/2025') }).parse(article);
    expect(made).toBe(1);
    expect(first.cover?.src).toBe('/stories/2024/../../images/foret.jpg');
    expect(second.cover?.src).toBe('/stories/2025/../../images/foret.jpg');
  });

  it('rejects what the schema made for each entry rejects', () => {
    const schemaFor = schemaOnce(storySchema, helpers.reference);
    const result = schemaFor({ image: imageFrom('/stories') }).safeParse({ ...article, title: 'ab' });
    expect(result.success).toBe(false);
    expect(storySchema(helpers).safeParse({ ...article, title: 'ab' }).success).toBe(false);
  });
});
