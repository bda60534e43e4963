import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LEAD_MAX_LENGTH,
  NEWSLETTER_STORIES_FILE,
  catalogOf,
  cutLead,
  readStoryCatalog,
  searchStories,
  storiesByUrl,
  type SerializedStoryCard,
} from './stories';
import { getHook } from '../../lib/process-hooks';

const card = (url: string, title: string, published: string, kicker = 'Article'): SerializedStoryCard => ({
  url,
  title,
  kicker,
  lead: `Chapô de « ${title} ».`,
  image: kicker === 'Brève' ? null : { src: `/_astro/${url.split('/').pop()}.jpg`, alt: 'Illustration' },
  published,
});

// In the build's order (newest first) but for one: the catalogue sorts them anyway.
const entries = [
  card('/articles/2026/l-ecole-du-samedi', 'L’École du samedi : un collège ouvert le week-end', '2026-05-20T08:00:00.000Z'),
  card('/emissions/2026/cœur-des-villes', 'Au cœur des villes moyennes', '2026-05-18T08:00:00.000Z', 'Émission'),
  card('/breves/page/2#breve-ecoles-rurales', 'Écoles rurales : trois classes fermées en Ardèche', '2026-05-10T08:00:00.000Z', 'Brève'),
  card('/podcasts/les-voix-du-terrain/la-derniere-poste', 'La dernière poste du canton', '2026-05-12T08:00:00.000Z', 'Podcast'),
  card('/dossiers/eau-bien-commun', 'L’eau, bien commun', '2026-01-05T08:00:00.000Z', 'Dossier'),
  card('/articles/2025/ecologie-et-budget', 'Écologie et budget : le grand écart', '2025-11-02T08:00:00.000Z'),
];
const catalog = catalogOf(entries);
const urls = (cards: { url: string }[]) => cards.map((c) => c.url);

describe('finding a story for a newsletter issue', () => {
  it('an empty query offers the newest stories first, up to the limit', () => {
    expect(urls(searchStories('', 3, catalog))).toEqual([
      '/articles/2026/l-ecole-du-samedi',
      '/emissions/2026/cœur-des-villes',
      '/podcasts/les-voix-du-terrain/la-derniere-poste',
    ]);
    expect(searchStories('   ', undefined, catalog)).toHaveLength(entries.length);
    expect(searchStories('', 0, catalog)).toEqual([]);
  });

  it('matches title words whatever their case and accents, newest first', () => {
    expect(urls(searchStories('ecole', 20, catalog))).toEqual(['/articles/2026/l-ecole-du-samedi', '/breves/page/2#breve-ecoles-rurales']);
    expect(urls(searchStories('ÉCOLE', 20, catalog))).toEqual(urls(searchStories('ecole', 20, catalog)));
    // A ligature is found spelled out, and the other way round.
    expect(urls(searchStories('coeur', 20, catalog))).toEqual(['/emissions/2026/cœur-des-villes']);
    expect(urls(searchStories('cœur', 20, catalog))).toEqual(['/emissions/2026/cœur-des-villes']);
  });

  it('finds words as they are typed, each word anywhere in the title, and only whole-title matches', () => {
    // « eco » starts « École », « Écoles » and « Écologie »; not the middle of a word.
    expect(searchStories('eco', 20, catalog)).toHaveLength(3);
    expect(searchStories('cole', 20, catalog)).toEqual([]);
    expect(urls(searchStories('samedi école', 20, catalog))).toEqual(['/articles/2026/l-ecole-du-samedi']);
    expect(urls(searchStories('l’eau', 20, catalog))).toEqual(['/dossiers/eau-bien-commun']);
    expect(searchStories('école budget', 20, catalog)).toEqual([]);
    expect(urls(searchStories('eco', 1, catalog))).toEqual(['/articles/2026/l-ecole-du-samedi']);
  });

  it('gives the cards with their dates, kicker, lead and image', () => {
    const [first] = searchStories('poste', 20, catalog);
    expect(first).toEqual({
      url: '/podcasts/les-voix-du-terrain/la-derniere-poste',
      title: 'La dernière poste du canton',
      kicker: 'Podcast',
      lead: 'Chapô de « La dernière poste du canton ».',
      image: { src: '/_astro/la-derniere-poste.jpg', alt: 'Illustration' },
      published: new Date('2026-05-12T08:00:00.000Z'),
    });
  });
});

describe('the stories of an issue, by address', () => {
  it('returns them in the order asked, undefined for an address no longer published', () => {
    const found = storiesByUrl(['/dossiers/eau-bien-commun', '/articles/2020/supprime', '/articles/2026/l-ecole-du-samedi/'], catalog);
    expect(found.map((c) => c?.title)).toEqual(['L’eau, bien commun', undefined, 'L’École du samedi : un collège ouvert le week-end']);
  });

  it('still finds a brève after newer ones pushed it to another page of the list', () => {
    const [moved] = storiesByUrl(['/breves#breve-ecoles-rurales'], catalog);
    expect(moved?.url).toBe('/breves/page/2#breve-ecoles-rurales');
  });
});

describe('the lead of a card', () => {
  it('is kept whole when short, spaces made single, no-break spaces kept', () => {
    expect(cutLead('Un chapô\n  court\u202f!')).toBe('Un chapô court\u202f!');
  });

  it('is cut on a word, with an ellipsis, within the limit', () => {
    const lead = 'Dans la Drôme, une seule source alimente trois villages et une quinzaine d’exploitations. '.repeat(6);
    const cut = cutLead(lead);
    expect(cut.length).toBeLessThanOrEqual(LEAD_MAX_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
    expect(lead.startsWith(cut.slice(0, -1))).toBe(true);
    // The character after the kept text ended a word.
    expect(lead[cut.length - 1]).toMatch(/[ ,.]/);
    expect(cutLead('Un deux, trois quatre', 12)).toBe('Un deux…');
  });
});

describe('the catalogue the build wrote', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is read from the build’s server folder, and is empty without it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'newsletter-stories-'));
    dirs.push(dir);
    expect(readStoryCatalog(dir).cards).toEqual([]);
    writeFileSync(join(dir, NEWSLETTER_STORIES_FILE), JSON.stringify(entries));
    const read = readStoryCatalog(dir);
    expect(read.cards).toHaveLength(entries.length);
    expect(read.cards[0]!.published).toBeInstanceOf(Date);
    expect(urls(searchStories('eau', 20, read))).toEqual(['/dossiers/eau-bien-commun']);
    writeFileSync(join(dir, NEWSLETTER_STORIES_FILE), '{ tronqué');
    expect(readStoryCatalog(dir).cards).toEqual([]);
  });

  it('is the running build’s, read again when the process takes a newer build', () => {
    const build = (list: SerializedStoryCard[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'newsletter-build-'));
      dirs.push(dir);
      mkdirSync(join(dir, 'server'));
      writeFileSync(join(dir, 'server', NEWSLETTER_STORIES_FILE), JSON.stringify(list));
      return dir;
    };
    const forget = getHook('forgetBuildData');
    forget?.();
    vi.stubEnv('APP_BUILD_DIR', build(entries.slice(0, 2)));
    try {
      expect(searchStories('')).toHaveLength(2);
      // What src/host/app.ts does at a content-only switch.
      vi.stubEnv('APP_BUILD_DIR', build(entries));
      expect(searchStories('')).toHaveLength(2);
      forget!();
      expect(searchStories('')).toHaveLength(entries.length);
      expect(storiesByUrl(['/dossiers/eau-bien-commun'])[0]?.kicker).toBe('Dossier');
    } finally {
      vi.unstubAllEnvs();
      forget?.();
    }
  });
});
