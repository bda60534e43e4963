import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { absolutizeLinks, cdata, escapeXml, renderPodcastRss, renderRss } from './feeds';

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
      items: [{
        title: 'Eau & pouvoir : <enquête>',
        link: 'https://contrechamp.example/articles/2026/eau',
        guid: 'https://contrechamp.example/articles/2026/eau',
        published: new Date('2026-09-14T05:30:00Z'),
        description: 'Chapô',
        html: '<p>Corps : « <a href="/x?a=1">lien</a> »</p>',
        authors: ['Claire Fontaine'],
        categories: ['Environnement'],
      }],
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
    episodes: [{
      title: 'Épisode 1',
      link: 'https://contrechamp.example/podcasts/a-contre-courant/ep-1',
      guid: 'contrechamp-episode-a-contre-courant/ep-1',
      published: new Date('2026-05-01T06:00:00Z'),
      summary: 'Résumé',
      html: '<p>Notes</p>',
      audio: { url: 'https://contrechamp.example/media/ep-1.mp3', length: 123456, type: 'audio/mpeg' },
      duration: 3725,
    }],
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

describe('feed bodies', () => {
  it('make root-relative links and images absolute, and leave the rest alone', () => {
    const html = '<a href="/articles/2026/x">x</a> <img src="/_astro/a.webp"> <a href="https://ailleurs.fr/">y</a> <a href="//cdn.fr/z">z</a>';
    expect(absolutizeLinks(html, new URL('https://contrechamp.example/'))).toBe(
      '<a href="https://contrechamp.example/articles/2026/x">x</a> <img src="https://contrechamp.example/_astro/a.webp"> <a href="https://ailleurs.fr/">y</a> <a href="//cdn.fr/z">z</a>',
    );
  });
});
