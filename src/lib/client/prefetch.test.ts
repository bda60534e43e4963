import { describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_PREFETCHES, createPrefetchQueue, prefetchTarget } from './prefetch';

const here = { origin: 'https://contrechamp.media', pathname: '/articles', search: '' };
const link = (href: string, attributes: string[] = [], target = '') => ({ href, target, hasAttribute: (name: string) => attributes.includes(name) });

describe('prefetch targets', () => {
  it('takes same-origin pages only', () => {
    expect(prefetchTarget(link('https://contrechamp.media/podcasts'), here)).toBe('/podcasts');
    expect(prefetchTarget(link('https://contrechamp.media/articles?page=2'), here)).toBe('/articles?page=2');
    expect(prefetchTarget(link('https://example.org/'), here)).toBeNull();
    expect(prefetchTarget(link('https://contrechamp.media/articles'), here)).toBeNull();
  });

  it('leaves out account pages, the API, files and opted-out links', () => {
    for (const path of ['/mon-compte', '/mon-compte/mes-factures', '/login', '/api/auth/me', '/media/podcasts/a/b.mp3', '/rss.xml', '/mailinglist']) {
      expect(prefetchTarget(link(`https://contrechamp.media${path}`), here), path).toBeNull();
    }
    expect(prefetchTarget(link('https://contrechamp.media/podcasts', ['download']), here)).toBeNull();
    expect(prefetchTarget(link('https://contrechamp.media/podcasts', ['data-astro-reload']), here)).toBeNull();
    expect(prefetchTarget(link('https://contrechamp.media/podcasts', [], '_blank'), here)).toBeNull();
    expect(prefetchTarget(link('https://contrechamp.media/login-aide'), here)).toBe('/login-aide');
  });
});

describe('prefetch queue', () => {
  it('runs at most 5 loads at once, each URL once, and drains', async () => {
    const pending: (() => void)[] = [];
    let peak = 0;
    let active = 0;
    const loaded: string[] = [];
    const queue = createPrefetchQueue(
      (url) =>
        new Promise<void>((resolve) => {
          active++;
          peak = Math.max(peak, active);
          loaded.push(url);
          pending.push(() => {
            active--;
            resolve();
          });
        }),
    );
    for (let i = 0; i < 12; i++) queue.add(`/page/${i}`);
    queue.add('/page/3');
    expect(queue.running).toBe(MAX_CONCURRENT_PREFETCHES);
    expect(queue.waiting).toBe(7);
    while (pending.length > 0) {
      pending.shift()!();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(peak).toBe(MAX_CONCURRENT_PREFETCHES);
    expect(loaded).toHaveLength(12);
    expect(queue.running).toBe(0);
  });

  it('a failed load frees its place', async () => {
    const queue = createPrefetchQueue(() => Promise.reject(new Error('offline')), 1);
    queue.add('/a');
    queue.add('/b');
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect(queue.running + queue.waiting).toBeLessThanOrEqual(1);
  });
});
