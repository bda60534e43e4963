import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './redirects';

const FALLBACK = '/fallback';

const HOSTILE: string[] = [
  '//evil.example',
  '//evil.example/mon-compte',
  '///evil.example',
  '////evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\/\\/evil.example',
  '\\\\evil.example',
  '\\evil.example',
  '/mon-compte\\..\\..\\evil',
  'https:evil.example',
  'https:/evil.example',
  'https://evil.example',
  'http://evil.example',
  'HTTP://evil.example',
  'ftp://evil.example',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'evil.example',
  '@evil.example',
  '%2f%2fevil.example',
  '%2F%2Fevil.example',
  '/%2fevil.example',
  '/%2F%2Fevil.example',
  '%252f%252fevil.example',
  '/%252fevil.example',
  '/%25252fevil.example', // three encodings deep
  '/%2525252fevil.example', // four
  '/%25252561', // harmless once fully decoded (/a), but four layers deep: no honest link is
  '/%5cevil.example',
  '/%5Cevil.example',
  '/%255cevil.example',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0d%0aSet-Cookie:%20x=1',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\t//evil.example',
  '/ma\tpage',
  '/ma\u0000page',
  '/ma\u007fpage',
  '/ma\u0085page',
  '  //evil.example',
  ' /mon-compte',
  '/.//evil.example', // resolves to the path //evil.example
  '/a/..//evil.example',
  '/..//evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/./%2fevil.example',
  '',
  `/${'a'.repeat(5000)}`,
];

describe('safeRedirectPath', () => {
  it.each(HOSTILE.map((v) => [JSON.stringify(v), v]))('refuses %s', (_label, value) => {
    expect(safeRedirectPath(value, FALLBACK)).toBe(FALLBACK);
  });

  it('has a table of at least 25 hostile values', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it.each([
    ['/', '/'],
    ['/mon-compte/mes-factures?page=2#x', '/mon-compte/mes-factures?page=2#x'],
    ['/articles/un-titre', '/articles/un-titre'],
    ['/recherche?q=a%2Fb&tri=date', '/recherche?q=a%2Fb&tri=date'],
    ['/recherche?q=caf%C3%A9', '/recherche?q=caf%C3%A9'],
    ['/recherche?q=100%25', '/recherche?q=100%25'],
    ['/recherche?q=café', '/recherche?q=caf%C3%A9'], // ASCII out, safe for a Location header
    ['/?retour=//evil.example', '/?retour=//evil.example'], // only a query value
    ['/#//evil.example', '/#//evil.example'],
    ['/a/../b', '/b'],
    ['/@evil.example', '/@evil.example'], // a path on this site
    ['/mon-compte?', '/mon-compte'],
    ['/%252561', '/%252561'], // three layers deep is still accepted // an empty query is dropped
  ])('keeps %s', (value, expected) => {
    expect(safeRedirectPath(value, FALLBACK)).toBe(expected);
  });

  it('falls back on missing values', () => {
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath(undefined)).toBe('/');
    expect(safeRedirectPath(null, '/mon-compte')).toBe('/mon-compte');
    expect(safeRedirectPath(42 as unknown as string, '/mon-compte')).toBe('/mon-compte');
  });

  it('replaces an unsafe fallback by /', () => {
    expect(safeRedirectPath('//evil.example', '//other.example')).toBe('/');
    expect(safeRedirectPath('//evil.example', 'https://other.example/')).toBe('/');
  });

  const PIECES = [
    '/',
    '//',
    '\\',
    '%2f',
    '%2F',
    '%5c',
    '%5C',
    '%25',
    '%252f',
    '%2e',
    '.',
    '..',
    '\t',
    '\n',
    '\r',
    ' ',
    '\u0000',
    '\u00a0',
    '\u3000',
    '\uff0f',
    'evil.example',
    ':',
    'https:',
    'javascript:',
    '@',
    '?',
    '#',
    '%09',
    '%0a',
    'a',
    'é',
    '%',
    '%%',
    '%C3%A9',
  ];
  const hostileish = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((xs) => xs.join(''));

  function assertSafe(value: string) {
    const result = safeRedirectPath(value, FALLBACK);
    if (result === FALLBACK) return;
    expect(result.startsWith('/')).toBe(true);
    expect(result.startsWith('//')).toBe(false);
    expect(result).toMatch(/^[\x21-\x5b\x5d-\x7e]+$/); // printable ASCII, no backslash
    for (const base of ['https://x.invalid', 'http://localhost:4321', 'https://contrechamp.media/sous/dossier/']) {
      expect(new URL(result, base).origin).toBe(new URL(base).origin);
    }
    // A fixed point: feeding the answer back gives the same answer.
    expect(safeRedirectPath(result, FALLBACK)).toBe(result);
  }

  it('property: any string gives the fallback or a same-origin path', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), assertSafe), { numRuns: 3000 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), assertSafe), { numRuns: 3000 });
    fc.assert(fc.property(hostileish, assertSafe), { numRuns: 5000 });
    fc.assert(fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), assertSafe), { numRuns: 1000 });
    fc.assert(
      fc.property(fc.webPath(), fc.webQueryParameters(), fc.webFragments(), (p, q, f) => assertSafe(`${p}?${q}#${f}`)),
      { numRuns: 2000 },
    );
  });

  it('property: ordinary site paths are kept as they are', () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.stringMatching(/^[a-z0-9=&]{0,12}$/), (segs, q) => {
        const path = `/${segs.join('/')}${q ? `?${q}` : ''}`;
        expect(safeRedirectPath(path, FALLBACK)).toBe(path);
      }),
    );
  });
});
