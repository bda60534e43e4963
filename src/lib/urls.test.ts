import { describe, expect, it } from 'vitest';
import { audioUrl, authorUrl, categoryUrl, episodeUrl, podcastFeedUrl, schemeUrl, storyUrl, tagUrl, withPage } from './urls';

describe('story URLs', () => {
  it('put the Paris publication year between the scheme and the slug', () => {
    expect(storyUrl({ scheme: 'articles', slug: 'la-seine-a-sec', published: new Date('2026-09-14T05:30:00Z') })).toBe('/articles/2026/la-seine-a-sec');
    // Published on New Year's night in Paris: the URL says 2026 although UTC still says 2025.
    expect(storyUrl({ scheme: 'emissions', slug: 'voeux', published: new Date('2025-12-31T23:30:00Z') })).toBe('/emissions/2026/voeux');
  });

  it('send brèves to their anchor in the list page that holds them', () => {
    const breve = { scheme: 'breves' as const, slug: 'en-bref', published: new Date() };
    expect(storyUrl(breve)).toBe('/breves#breve-en-bref');
    expect(storyUrl(breve, 3)).toBe('/breves/page/3#breve-en-bref');
  });
});

describe('list URLs', () => {
  it('leave page 1 at the base and put page n under /page/n', () => {
    expect(withPage('/articles', 1)).toBe('/articles');
    expect(withPage('/articles', 4)).toBe('/articles/page/4');
    expect(schemeUrl('emissions', 2)).toBe('/emissions/page/2');
    expect(categoryUrl('articles', 'politique', 2)).toBe('/articles/politique/page/2');
    expect(tagUrl('climat', 2)).toBe('/tags/climat/page/2');
    expect(authorUrl('lea-moreau')).toBe('/auteurs/lea-moreau');
  });

  it('refuse impossible page numbers', () => {
    expect(() => withPage('/articles', 0)).toThrow(RangeError);
    expect(() => withPage('/articles', 1.5)).toThrow(RangeError);
  });

  it('list everything when no slug is given', () => {
    expect(authorUrl()).toBe('/auteurs');
    expect(tagUrl()).toBe('/tags');
  });
});

describe('podcast URLs', () => {
  it('join the folder URL and the file name (SPEC §3), whatever the trailing slashes', () => {
    expect(audioUrl('/media/podcasts/a-contre-courant/', 'ep-1.mp3')).toBe('/media/podcasts/a-contre-courant/ep-1.mp3');
    expect(audioUrl('https://cdn.example/audio', 'ep 2.mp3')).toBe('https://cdn.example/audio/ep%202.mp3');
  });

  it('give each show and episode its own address', () => {
    expect(episodeUrl('les-voix-du-terrain', 'la-greve')).toBe('/podcasts/les-voix-du-terrain/la-greve');
    expect(podcastFeedUrl('les-voix-du-terrain')).toBe('/podcasts/les-voix-du-terrain/rss.xml');
  });
});
