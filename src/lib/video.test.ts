import { describe, expect, it } from 'vitest';
import { embedUrl, parseTimecode, watchUrl, type Video } from './video';

const youtube: Video = { provider: 'youtube', id: 'tV4cZ8hR6sN' };
const peertube: Video = { provider: 'peertube', instance: 'https://videos.contrechamp.media', id: '384639d7-c13b-408b-8f0f-bfea04e4f387' };

describe('parseTimecode', () => {
  it('reads mm:ss and h:mm:ss', () => {
    expect(parseTimecode('00:00')).toBe(0);
    expect(parseTimecode('05:40')).toBe(340);
    expect(parseTimecode('5:40')).toBe(340);
    expect(parseTimecode('01:02:10')).toBe(3730);
    expect(parseTimecode('1:02:10')).toBe(3730);
  });
  it('refuses what is not a time', () => {
    for (const bad of ['', '340', '5.40', '05:60', 'a:bc', '1:2:3:4']) expect(parseTimecode(bad), bad).toBeUndefined();
  });
});

describe('embedUrl and watchUrl', () => {
  it('start at the beginning when no time is given', () => {
    expect(embedUrl(youtube)).toBe('https://www.youtube-nocookie.com/embed/tV4cZ8hR6sN?autoplay=1&rel=0&cc_load_policy=1&cc_lang_pref=fr&hl=fr');
    expect(watchUrl(youtube)).toBe('https://www.youtube.com/watch?v=tV4cZ8hR6sN');
    expect(new URL(embedUrl(peertube)).searchParams.has('start')).toBe(false);
  });

  it('show French captions by default on both hosts', () => {
    const embed = new URL(embedUrl(youtube, 340));
    expect(embed.searchParams.get('cc_load_policy')).toBe('1');
    expect(embed.searchParams.get('cc_lang_pref')).toBe('fr');
    expect(embed.searchParams.get('hl')).toBe('fr');
    expect(new URL(embedUrl(peertube)).searchParams.get('subtitle')).toBe('fr');
  });

  it('start a YouTube video at a chapter, on the no-cookie player and on YouTube itself', () => {
    const embed = new URL(embedUrl(youtube, 340));
    expect(embed.origin).toBe('https://www.youtube-nocookie.com');
    expect(embed.searchParams.get('start')).toBe('340');
    expect(embed.searchParams.get('autoplay')).toBe('1');
    expect(new URL(watchUrl(youtube, 340)).searchParams.get('t')).toBe('340s');
  });

  it('start a PeerTube video at a chapter, in the duration form PeerTube reads', () => {
    const embed = new URL(embedUrl(peertube, 3730));
    expect(embed.origin).toBe('https://videos.contrechamp.media');
    expect(embed.pathname).toBe('/videos/embed/384639d7-c13b-408b-8f0f-bfea04e4f387');
    expect(embed.searchParams.get('start')).toBe('1h2m10s');
    expect(new URL(watchUrl(peertube, 340)).searchParams.get('start')).toBe('5m40s');
    expect(new URL(watchUrl(peertube, 45)).searchParams.get('start')).toBe('45s');
  });
});
