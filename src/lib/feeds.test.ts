import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { absolutizeLinks, cdata, escapeXml, PODCAST_NAMESPACE, renderPodcastRss, renderRss } from './feeds';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

describe('XML escaping', () => {
  it('escapes markup characters', () => {
    expect(escapeXml(`Tom & "Jerry" <b>'s</b>`)).toBe('Tom &amp; &quot;Jerry&quot; &lt;b&gt;&apos;s&lt;/b&gt;');
  });
  it('keeps CDATA sections closed even when the text contains their terminator', () => {
    const xml = `<a>${cdata('x ]]> y')}</a>`;
    expect(parser.parse(xml).a).toBe('x ]]> y');
  });
});

describe('site feed', () => {
  it('is RSS 2.0 with absolute links and escaped titles', () => {
    const xml = renderRss({
      title: 'Contrechamp',
      description: 'Média indépendant',
      link: 'https://contrechamp.example/',
      self: 'https://contrechamp.example/rss.xml',
      items: [
        {
          title: 'Eau & pouvoir : <enquête>',
          link: 'https://contrechamp.example/articles/2026/eau',
          guid: 'https://contrechamp.example/articles/2026/eau',
          published: new Date('2026-09-14T05:30:00Z'),
          description: 'Chapô',
          html: '<p>Corps : « <a href="/x?a=1">lien</a> »</p>',
          authors: ['Claire Fontaine'],
          categories: ['Environnement'],
        },
      ],
    });
    const rss = parser.parse(xml).rss;
    expect(rss['@version']).toBe('2.0');
    // Typeset the French way, as on the site: a no-break space before the colon.
    expect(rss.channel.item.title).toBe('Eau & pouvoir\u00a0: <enquête>');
    expect(rss.channel.item.link).toBe('https://contrechamp.example/articles/2026/eau');
    expect(rss.channel.item.pubDate).toBe('Mon, 14 Sep 2026 05:30:00 GMT');
    expect(rss.channel.item['content:encoded']).toBe('<p>Corps\u00a0: «\u202f<a href="/x?a=1">lien</a>\u202f»</p>');
  });
});

describe('podcast feed', () => {
  const xml = renderPodcastRss({
    title: 'À contre-courant',
    description: 'Entretiens',
    link: 'https://contrechamp.example/podcasts/a-contre-courant',
    self: 'https://contrechamp.example/podcasts/a-contre-courant/rss.xml',
    image: 'https://contrechamp.example/cover.jpg',
    author: 'Contrechamp',
    ownerName: 'Contrechamp',
    ownerEmail: 'contact@contrechamp.media',
    category: 'Society & Culture',
    subcategory: 'Documentary',
    explicit: false,
    episodes: [
      {
        title: 'Épisode 1',
        link: 'https://contrechamp.example/podcasts/a-contre-courant/ep-1',
        guid: 'contrechamp-episode-a-contre-courant/ep-1',
        published: new Date('2026-05-01T06:00:00Z'),
        summary: 'Résumé',
        html: '<p>Notes</p>',
        audio: { url: 'https://contrechamp.example/media/ep-1.mp3', length: 123456, type: 'audio/mpeg' },
        duration: 3725,
      },
    ],
  });
  const channel = parser.parse(xml).rss.channel;

  it('carries the iTunes tags that podcast directories require', () => {
    expect(channel['itunes:author']).toBe('Contrechamp');
    expect(channel['itunes:image']['@href']).toBe('https://contrechamp.example/cover.jpg');
    expect(channel['itunes:category']['@text']).toBe('Society & Culture');
    expect(channel['itunes:category']['itunes:category']['@text']).toBe('Documentary');
    expect(channel['itunes:explicit']).toBe('false');
    expect(channel['itunes:owner']['itunes:email']).toBe('contact@contrechamp.media');
    expect(channel.language).toBe('fr');
  });

  it('gives each episode an enclosure with its length and type, and a duration', () => {
    expect(channel.item.enclosure).toEqual({ '@url': 'https://contrechamp.example/media/ep-1.mp3', '@length': '123456', '@type': 'audio/mpeg' });
    expect(channel.item['itunes:duration']).toBe('1:02:05');
    expect(channel.item.guid['#text']).toBe('contrechamp-episode-a-contre-courant/ep-1');
  });
});

describe('Podcasting 2.0 tags', () => {
  const base = 'https://contrechamp.example/podcasts/a-contre-courant';
  const episode = (n: number, extra: object = {}) => ({
    title: `Épisode ${n}`,
    link: `${base}/ep-${n}`,
    guid: `contrechamp-episode-a-contre-courant/ep-${n}`,
    published: new Date('2026-05-01T06:00:00Z'),
    summary: 'Résumé',
    html: '<p>Notes</p>',
    audio: { url: `https://contrechamp.example/media/ep-${n}.mp3`, length: 123456, type: 'audio/mpeg' },
    duration: 60,
    ...extra,
  });
  const xml = renderPodcastRss({
    title: 'À contre-courant',
    description: 'Entretiens',
    link: base,
    self: `${base}/rss.xml`,
    image: 'https://contrechamp.example/cover.jpg',
    author: 'Contrechamp',
    ownerName: 'Contrechamp',
    ownerEmail: 'podcasts@contrechamp.example',
    category: 'News',
    subcategory: 'Politics',
    explicit: false,
    funding: { url: 'https://contrechamp.example/soutenir', label: 'Soutenir Contrechamp' },
    episodes: [
      episode(2, {
        transcripts: [
          { url: `${base}/ep-2/transcription.vtt`, type: 'text/vtt' },
          { url: `${base}/ep-2/transcription`, type: 'text/html' },
        ],
        chapters: `${base}/ep-2/chapitres.json`,
      }),
      episode(1),
    ],
  });
  const rss = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    isArray: (name) => name === 'item' || name === 'podcast:transcript',
  }).parse(xml).rss;
  const [withTranscript, without] = rss.channel.item;

  it('declares the Podcasting 2.0 namespace beside the iTunes one', () => {
    expect(rss['@xmlns:podcast']).toBe('https://podcastindex.org/namespace/1.0');
    expect(PODCAST_NAMESPACE).toBe('https://podcastindex.org/namespace/1.0');
    expect(rss['@xmlns:itunes']).toBe('http://www.itunes.com/dtds/podcast-1.0.dtd');
  });

  it('points to the transcript as WebVTT and as a page, in French', () => {
    expect(withTranscript['podcast:transcript']).toEqual([
      { '@url': `${base}/ep-2/transcription.vtt`, '@type': 'text/vtt', '@language': 'fr', '@rel': 'captions' },
      { '@url': `${base}/ep-2/transcription`, '@type': 'text/html', '@language': 'fr' },
    ]);
    expect(withTranscript['podcast:chapters']).toEqual({ '@url': `${base}/ep-2/chapitres.json`, '@type': 'application/json+chapters' });
    expect(without['podcast:transcript']).toBeUndefined();
    expect(without['podcast:chapters']).toBeUndefined();
  });

  it('says where to support the show', () => {
    expect(rss.channel['podcast:funding']).toEqual({ '@url': 'https://contrechamp.example/soutenir', '#text': 'Soutenir Contrechamp' });
  });

  it('keeps what Apple Podcasts requires', () => {
    const c = rss.channel;
    for (const key of ['title', 'link', 'description', 'language', 'itunes:author', 'itunes:explicit']) expect(c[key], key).toBeTruthy();
    expect(c['itunes:image']['@href']).toMatch(/^https:\/\/.+\.(jpg|png)$/);
    expect(c['itunes:category']['@text']).toBe('News');
    expect(['true', 'false']).toContain(c['itunes:explicit']);
    for (const item of c.item) {
      expect(item.title).toBeTruthy();
      expect(item.guid['#text']).toBeTruthy();
      expect(item.enclosure['@url']).toMatch(/^https:\/\//);
      expect(Number(item.enclosure['@length'])).toBeGreaterThan(0);
      expect(item.enclosure['@type']).toBe('audio/mpeg');
      expect(item['itunes:duration']).toMatch(/^\d+(:\d\d){0,2}$/);
    }
  });
});

describe('feed bodies', () => {
  it('make root-relative links and images absolute, and leave the rest alone', () => {
    const html = '<a href="/articles/2026/x">x</a> <img src="/_astro/a.webp"> <a href="https://ailleurs.fr/">y</a> <a href="//cdn.fr/z">z</a>';
    expect(absolutizeLinks(html, new URL('https://contrechamp.example/'))).toBe(
      '<a href="https://contrechamp.example/articles/2026/x">x</a> <img src="https://contrechamp.example/_astro/a.webp"> <a href="https://ailleurs.fr/">y</a> <a href="//cdn.fr/z">z</a>',
    );
  });
});
