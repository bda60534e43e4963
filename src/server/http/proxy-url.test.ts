import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROXY_ALLOW_LIST, buildProxyUrl, findProxyRoute, type ProxyRoute } from './proxy-url';

const ORIGIN = new URL('https://api.contrechamp.media');

describe('PROXY_ALLOW_LIST', () => {
  it('holds the two reset-password resources, POST only, and cannot be changed at run time', () => {
    expect(PROXY_ALLOW_LIST.map((r) => [r.template, r.methods])).toEqual([
      ['/profile/reset-password-notification/', ['POST']],
      ['/profile/reset-password/', ['POST']],
    ]);
    expect(Object.isFrozen(PROXY_ALLOW_LIST)).toBe(true);
    expect(Object.isFrozen(PROXY_ALLOW_LIST[0])).toBe(true);
  });

  it('matches whole resources, never by prefix', () => {
    expect(findProxyRoute('/profile/reset-password/')).toBe(PROXY_ALLOW_LIST[1]);
    expect(findProxyRoute('/profile/reset-password/x/')).toBeUndefined();
    expect(findProxyRoute('/profile/reset-password/x')).toBeUndefined();
    expect(findProxyRoute('/profile/reset-password')).toBeUndefined();
    expect(findProxyRoute('/profile/')).toBeUndefined();
    expect(findProxyRoute('/profile/reset-passwordX/')).toBeUndefined();
    expect(findProxyRoute('/prefix/profile/reset-password/')).toBeUndefined();
    expect(findProxyRoute('/PROFILE/reset-password/')).toBeUndefined();
  });

  it('reads `:name` as exactly one plain segment, and `.` literally', () => {
    const list: ProxyRoute[] = [
      { template: '/profile/bills/:id/', methods: ['GET'] },
      { template: '/feeds/rss.xml', methods: ['GET'] },
    ];
    expect(findProxyRoute('/profile/bills/F-2026_0001/', list)).toBe(list[0]);
    expect(findProxyRoute('/profile/bills/a/b/', list)).toBeUndefined();
    expect(findProxyRoute('/profile/bills//', list)).toBeUndefined();
    expect(findProxyRoute('/profile/bills/../', list)).toBeUndefined();
    expect(findProxyRoute(`/profile/bills/${'a'.repeat(65)}/`, list)).toBeUndefined();
    expect(findProxyRoute('/feeds/rss.xml', list)).toBe(list[1]);
    expect(findProxyRoute('/feeds/rssAxml', list)).toBeUndefined();
  });

  it('refuses malformed templates', () => {
    for (const template of ['profile/', '/profile/../admin/', '/a//b/', '/a/?x', '/a/*', '/%2e/']) {
      expect(() => findProxyRoute('/x/', [{ template, methods: ['GET'] }]), template).toThrow();
    }
  });
});

describe('buildProxyUrl', () => {
  it('builds the URL on the fixed origin for allow-listed resources', () => {
    for (const resource of ['/profile/reset-password-notification/', '/profile/reset-password/']) {
      const result = buildProxyUrl(ORIGIN, resource);
      expect(result.ok).toBe(true);
      if (result.ok) {
        expect(result.url.href).toBe(`https://api.contrechamp.media${resource}`);
        expect(result.route.methods).toEqual(['POST']);
      }
    }
  });

  it('keeps a path on the origin as a fixed prefix, and drops its query, fragment and credentials', () => {
    const origin = new URL('https://user:secret@api.example:8443/v2/?debug=1#frag');
    const result = buildProxyUrl(origin, '/profile/reset-password/');
    expect(result.ok && result.url.href).toBe('https://api.example:8443/v2/profile/reset-password/');
  });

  it('does not alter the origin it was given', () => {
    const origin = new URL('https://api.example/');
    buildProxyUrl(origin, '/profile/reset-password/');
    expect(origin.href).toBe('https://api.example/');
  });

  const HOSTILE: [string, 400 | 403 | 404][] = [
    ['', 400],
    ['//evil.example/profile/reset-password/', 400],
    ['//evil.example', 400],
    ['///evil.example', 400],
    ['/\\evil.example', 400],
    ['\\\\evil.example\\profile', 400],
    ['/profile\\reset-password/', 400],
    ['https://evil.example/profile/reset-password/', 400],
    ['http://evil.example', 400],
    ['https:evil.example', 400],
    ['javascript:alert(1)', 400],
    ['profile/reset-password/', 400],
    ['/profile/reset-password/../../admin/', 400],
    ['/profile/../profile/reset-password/', 400],
    ['/profile/./reset-password/', 400],
    ['/profile/reset-password/..', 400],
    ['/profile/%2e%2e/admin/', 400],
    ['/profile%2Freset-password/', 400],
    ['/profile%2freset-password/', 400],
    ['/profile/reset-password/%2F%2Fevil.example', 400],
    ['/%5Cevil.example', 400],
    ['/%5cevil.example', 400],
    ['/profile/reset-password%252F', 400],
    ['/@evil.example/profile/reset-password/', 400],
    ['/profile/reset-password/@evil.example', 400],
    ['/profile/reset-password/?next=//evil.example', 400],
    ['/profile/reset-password/?', 400],
    ['/profile/reset-password/#x', 400],
    ['/profile/reset-password/\t', 400],
    ['/profile/reset-password/\n', 400],
    ['/profile/reset-password/\r\nHost: evil.example', 400],
    ['/profile/reset-password/\u0000', 400],
    ['\t//evil.example', 400],
    [' /profile/reset-password/', 400],
    ['/profile//reset-password/', 400],
    ['/profile/reset-password/\uff0f', 400],
    ['/profile/réinitialiser/', 400],
    ['/profile/reset-password/:8080', 400],
    [`/${'a'.repeat(300)}/`, 400],
    ['/', 404],
    ['/admin/', 404],
    ['/profile/', 404],
    ['/profile/reset-password', 404],
    ['/profile/reset-password/extra/', 404],
    ['/profile/reset-password/x', 404],
    ['/Profile/reset-password/', 404],
  ];

  it.each(HOSTILE.map(([r, s]) => [JSON.stringify(r), r, s] as const))('refuses %s', (_label, resource, status) => {
    const result = buildProxyUrl(ORIGIN, resource);
    expect(result).toMatchObject({ ok: false, status });
    if (!result.ok) expect(result.message).toMatch(/^(Ressource|Requête)/);
  });

  it('says why a resource is malformed', () => {
    const message = (resource: string) => {
      const result = buildProxyUrl(ORIGIN, resource);
      return result.ok ? null : result.message;
    };
    expect(message('/profile/reset-password/?token=x')).toBe('Ressource invalide : paramètres d’adresse non acceptés (passez-les dans le corps).');
    expect(message('/profile/reset-password/#x')).toBe('Ressource invalide : paramètres d’adresse non acceptés (passez-les dans le corps).');
    expect(message('/profile%2Freset-password/')).toBe('Ressource invalide : caractères encodés non acceptés.');
    expect(message('/%5Cevil')).toBe('Ressource invalide : caractères encodés non acceptés.');
    expect(message('/\\evil')).toBe('Ressource invalide : barre oblique inverse.');
    expect(message('https://evil.example/')).toBe('Ressource invalide : adresse absolue non acceptée.');
    expect(message('/profile/reset-password/@evil')).toBe('Ressource invalide : caractère « @ » non accepté.');
    expect(message('/profile/reset-password/\n')).toBe('Ressource invalide : caractère de contrôle.');
    expect(message('//evil.example/')).toBe('Ressource invalide : segment vide.');
    expect(message('evil.example/')).toBe('Ressource invalide : elle doit commencer par « / ».');
    expect(message('/profile/../admin/')).toBe('Ressource invalide : segment « . » ou « .. ».');
    expect(message('/profile/réinitialiser/')).toBe('Ressource invalide : caractères non acceptés.');
    expect(message('')).toBe('Ressource manquante.');
    expect(message('/admin/')).toBe('Ressource inconnue du relais.');
  });

  it('never throws on non-string input and refuses a misconfigured origin', () => {
    expect(buildProxyUrl(ORIGIN, undefined as unknown as string)).toMatchObject({ ok: false, status: 400 });
    expect(buildProxyUrl(ORIGIN, {} as unknown as string)).toMatchObject({ ok: false, status: 400 });
    expect(buildProxyUrl(new URL('file:///etc/'), '/profile/reset-password/')).toMatchObject({ ok: false, status: 403 });
    expect(buildProxyUrl(new URL('javascript:alert(1)'), '/profile/reset-password/')).toMatchObject({ ok: false, status: 403 });
  });

  // A wider list for the property, so that ok answers are frequent.
  const WIDE: ProxyRoute[] = [
    ...PROXY_ALLOW_LIST,
    { template: '/profile/bills/:id/', methods: ['GET'] },
    { template: '/articles/:slug', methods: ['GET'] },
    { template: '/a', methods: ['GET'] },
  ];
  const PIECES = [
    '/',
    '//',
    '\\',
    '.',
    '..',
    '%2F',
    '%2f',
    '%5C',
    '%5c',
    '%2e',
    '%252F',
    '%00',
    '@',
    ':',
    '?',
    '#',
    '\t',
    '\n',
    ' ',
    'http:',
    'https://',
    'evil.example',
    'profile',
    'reset-password',
    'bills',
    'articles',
    'a',
    '1',
    'é',
    '\uff0f',
    '\u2028',
  ];
  const arbitraryResource = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.webPath(),
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.webSegment().map((s) => `/profile/bills/${s}/`),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((xs) => xs.join('')),
    fc.constantFrom(...PROXY_ALLOW_LIST.map((r) => r.template), '/profile/bills/42/', '/articles/un-titre', '/a'),
  );
  const origins = fc.constantFrom(
    new URL('https://api.contrechamp.media'),
    new URL('http://localhost:8000/'),
    new URL('https://api.example:8443/v2/'),
    new URL('http://[::1]:3000/base'),
  );

  it('property: whenever ok, the URL has exactly the fixed origin and an allow-listed path', () => {
    let oks = 0;
    fc.assert(
      fc.property(origins, arbitraryResource, (origin, resource) => {
        const result = buildProxyUrl(origin, resource, WIDE);
        if (!result.ok) {
          expect([400, 403, 404]).toContain(result.status);
          return;
        }
        oks += 1;
        const prefix = origin.pathname.replace(/\/+$/, '');
        expect(result.url.origin).toBe(origin.origin);
        expect(result.url.username + result.url.password + result.url.search + result.url.hash).toBe('');
        expect(result.url.pathname.startsWith(`${prefix}/`)).toBe(true);
        const path = result.url.pathname.slice(prefix.length);
        expect(path).toBe(resource);
        expect(findProxyRoute(path, WIDE)).toBeDefined();
        expect(path.split('/')).not.toContain('..');
        expect(result.url.href).toBe(`${origin.origin}${prefix}${resource}`);
      }),
      { numRuns: 20_000 },
    );
    expect(oks).toBeGreaterThan(100); // the property was not vacuous
  });

  it('property: the default list lets through nothing but its two resources', () => {
    fc.assert(
      fc.property(arbitraryResource, (resource) => {
        const result = buildProxyUrl(ORIGIN, resource);
        if (result.ok) expect(PROXY_ALLOW_LIST.map((r) => r.template)).toContain(resource);
      }),
      { numRuns: 10_000 },
    );
  });
});
