import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { belongsInSitemap, readBuiltHead } from './sitemap';
import { PRIVATE_PATH_PREFIXES, isPrivatePath } from '../config/indexing';

const page = (robots?: string) =>
  `<!doctype html><html lang="fr"><head><title>T</title>${robots ? `<meta name="robots" content="${robots}">` : ''}</head><body></body></html>`;

describe('the sitemap', () => {
  const built = new Map<string, string>([
    ['/', page()],
    ['/articles', page()],
    ['/faq', page()],
    ['/login', page('noindex')],
    ['/soutenir/dons/merci', page()],
    ['/une-page-cachee', page('noindex, nofollow')],
  ]);
  const html = (path: string) => built.get(path) ?? null;

  it('lists the prerendered public pages', () => {
    for (const path of ['/', '/articles', '/faq', '/faq/']) expect(belongsInSitemap(path, html), path).toBe(true);
  });

  it('leaves out pages rendered on demand, which the build did not write', () => {
    for (const path of ['/mon-compte/mes-informations', '/mailinglist/confirm', '/mailinglist/unsubscribe', '/soutenir/paiement', '/logout'])
      expect(belongsInSitemap(path, html), path).toBe(false);
  });

  it('leaves out pages that say noindex, whatever their other robots words', () => {
    expect(belongsInSitemap('/une-page-cachee', html)).toBe(false);
  });

  it('leaves out the private areas even when a page there was prerendered without noindex', () => {
    expect(belongsInSitemap('/soutenir/dons/merci', html)).toBe(false);
  });

  it('keeps the public pages rendered on demand that are named as such', () => {
    expect(belongsInSitemap('/mailinglist', html)).toBe(true);
  });
});

describe('private areas', () => {
  it('cover each area and what lies below it, not a public page that merely starts alike', () => {
    expect(isPrivatePath('/mon-compte')).toBe(true);
    expect(isPrivatePath('/mon-compte/mes-factures')).toBe(true);
    expect(isPrivatePath('/api/auth/me')).toBe(true);
    expect(isPrivatePath('/api')).toBe(true);
    expect(isPrivatePath('/administration/commandes')).toBe(true);
    expect(isPrivatePath('/mailinglist/confirm')).toBe(true);
    expect(isPrivatePath('/mailinglist')).toBe(false);
    expect(isPrivatePath('/soutenir/dons')).toBe(false);
    expect(isPrivatePath('/loginette')).toBe(false);
    expect(isPrivatePath('/articles/2026/mon-compte-rendu')).toBe(false);
  });

  it('are written as robots.txt prefixes', () => {
    for (const prefix of PRIVATE_PATH_PREFIXES) expect(prefix).toMatch(/^\/[a-z0-9/-]+$/);
  });
});

describe('reading a built page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitemap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'faq'));
  writeFileSync(join(dir, 'index.html'), page());
  writeFileSync(join(dir, 'faq', 'index.html'), page('noindex'));
  writeFileSync(join(dir, 'cgu.html'), page());

  it('finds the file in either build format, and nothing for a page not built', () => {
    expect(readBuiltHead(dir, '/')).toContain('<title>T</title>');
    expect(readBuiltHead(dir, '/faq')).toContain('noindex');
    expect(readBuiltHead(dir, '/cgu')).toContain('<title>T</title>');
    expect(readBuiltHead(dir, '/mon-compte')).toBeNull();
  });
});
