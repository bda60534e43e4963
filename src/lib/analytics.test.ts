import { describe, expect, it } from 'vitest';
import { eventEndpoint, measuredUrl, shouldTrack } from './analytics';

const storage = (value: string | null) => ({ getItem: () => value });
const site = { protocol: 'https:', hostname: 'contrechamp.media' };

describe('audience measurement', () => {
  it('is off unless a domain is configured', () => {
    expect(shouldTrack({}, site, storage(null))).toBe(false);
    expect(shouldTrack({ domain: 'contrechamp.media' }, site, storage(null))).toBe(true);
  });

  it('skips file: pages, ignored hostnames (localhost by default) and the local opt-out', () => {
    const settings = { domain: 'contrechamp.media' };
    expect(shouldTrack(settings, { protocol: 'file:', hostname: '' }, storage(null))).toBe(false);
    expect(shouldTrack(settings, { protocol: 'http:', hostname: 'localhost' }, storage(null))).toBe(false);
    expect(
      shouldTrack(
        { ...settings, ignoredHosts: 'preprod.contrechamp.media, localhost' },
        { protocol: 'https:', hostname: 'preprod.contrechamp.media' },
        storage(null),
      ),
    ).toBe(false);
    expect(shouldTrack({ ...settings, ignoredHosts: '' }, { protocol: 'http:', hostname: 'localhost' }, storage(null))).toBe(true);
    expect(shouldTrack(settings, site, storage('true'))).toBe(false);
    expect(shouldTrack(settings, site, storage('false'))).toBe(true);
  });

  it('skips automated browsers', () => {
    expect(shouldTrack({ domain: 'contrechamp.media' }, { protocol: 'https:', hostname: 'contrechamp.media' }, undefined, true)).toBe(false);
  });

  it('sends to the configured host, or to Plausible by default', () => {
    expect(eventEndpoint('https://stats.contrechamp.media')).toBe('https://stats.contrechamp.media/api/event');
    expect(eventEndpoint(undefined)).toBeUndefined();
  });

  it('measures a gift page without its code, and keeps only campaign tags of the query', () => {
    expect(measuredUrl('https://contrechamp.media/activer-cadeau/K7MX4QPD9TRW2HNZ')).toBe('https://contrechamp.media/activer-cadeau/code');
    expect(measuredUrl('https://contrechamp.media/creer-mon-compte/cadeau/K7MX-4QPD-9TRW-2HNZ#haut')).toBe(
      'https://contrechamp.media/creer-mon-compte/cadeau/code',
    );
    expect(measuredUrl('https://contrechamp.media/login?redirect=%2Factiver-cadeau%2FK7MX4QPD9TRW2HNZ&utm_source=lettre')).toBe(
      'https://contrechamp.media/login?utm_source=lettre',
    );
    expect(measuredUrl('https://contrechamp.media/activer-cadeau')).toBe('https://contrechamp.media/activer-cadeau');
    expect(measuredUrl('https://contrechamp.media/articles/un-titre')).toBe('https://contrechamp.media/articles/un-titre');
    expect(measuredUrl('pas une adresse')).toBeNull();
  });
});
