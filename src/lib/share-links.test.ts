import { describe, expect, it } from 'vitest';
import { fillShareTemplate, mailShareLink, networkShareLinks } from './share-links';
import { siteConfig } from '../config/site';

const page = { url: 'https://contrechamp.media/articles/2026/fin-de-l-arenh?x=1&y=2', title: 'Fin de l’Arenh : ce qui change & pourquoi' };

describe('networkShareLinks', () => {
  it('offers the configured networks that can share a page, and only those', () => {
    const links = networkShareLinks(page);
    const shareable = siteConfig.socials.filter((s) => 'share' in s).map((s) => s.label);
    expect(links.map((l) => l.network)).toEqual(shareable);
    // Video hosts and Instagram have no share address.
    expect(links.map((l) => l.network)).not.toContain('YouTube');
    expect(links.map((l) => l.network)).not.toContain('Instagram');
    expect(links.length).toBeGreaterThan(0);
  });

  it('carries the page address and title intact through each network’s address', () => {
    for (const link of networkShareLinks(page)) {
      const shared = new URL(link.href);
      expect(shared.protocol).toBe('https:');
      const values = [...shared.searchParams.values()].join(' ');
      expect(values, link.network).toContain(page.url);
    }
    const x = new URL(networkShareLinks(page).find((l) => l.icon === 'x')!.href);
    expect(x.searchParams.get('text')).toBe(page.title);
    expect(x.searchParams.get('url')).toBe(page.url);
  });

  it('follows the configuration: a network added with a share address appears, one without does not', () => {
    const links = networkShareLinks(page, [
      { icon: 'linkedin', label: 'LinkedIn', href: 'https://www.linkedin.com/company/x', share: 'https://www.linkedin.com/sharing/share-offsite/?url={url}' },
      { icon: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/@x' },
    ]);
    expect(links).toEqual([
      { icon: 'linkedin', network: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(page.url)}` },
    ]);
  });
});

describe('fillShareTemplate', () => {
  it('encodes what would break the address (&, ?, spaces)', () => {
    expect(fillShareTemplate('https://n.example/s?t={text}', { url: '', title: 'A & B ?' })).toBe('https://n.example/s?t=A%20%26%20B%20%3F');
  });
});

describe('mailShareLink', () => {
  it('opens a mail with the title as subject and the address in the body', () => {
    const link = mailShareLink(page);
    expect(link.startsWith('mailto:?')).toBe(true);
    const params = new URLSearchParams(link.slice('mailto:?'.length));
    expect(params.get('subject')).toBe(page.title);
    expect(params.get('body')).toBe(`${page.title}\n\n${page.url}`);
    // Spaces as %20: mail clients read a + literally.
    expect(link).not.toContain('+');
  });
});
