/** Helpers shared by the end-to-end tests. */
import type { APIRequestContext, Page } from '@playwright/test';
import { XMLParser } from 'fast-xml-parser';

export const APP_TITLE = 'Contrechamp';
export const TITLE_TEMPLATE = /^.+ \| Contrechamp$/;

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });
export const parseXml = (text: string) => xml.parse(text);

/** Absolute links in feeds and sitemaps carry the configured site; tests fetch them locally. */
export function localPath(absolute: string): string {
  const url = new URL(absolute);
  return `${url.pathname}${url.search}`;
}

/**
 * Text with French typography's no-break spaces (src/lib/typography.ts) read as ordinary
 * spaces, for raw HTML: Playwright's string matchers do this themselves, regexes do not.
 */
export const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

export const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Every page listed in the sitemaps, as local paths. */
export async function sitemapPaths(request: APIRequestContext): Promise<string[]> {
  const index = parseXml(await (await request.get('/sitemap-index.xml')).text());
  const paths: string[] = [];
  for (const sitemap of asArray<{ loc: string }>(index.sitemapindex.sitemap)) {
    const doc = parseXml(await (await request.get(localPath(sitemap.loc))).text());
    for (const url of asArray<{ loc: string }>(doc.urlset.url)) paths.push(localPath(url.loc));
  }
  return paths;
}

/** A sample of the on-demand routes of this issue, with the campaign and token params filled in. */
export const ON_DEMAND_PATHS = [
  '/soutenir/newsletter-novembre',
  '/soutenir/abonnement/salon-du-livre',
  '/abonnement/youtube',
  '/soutenir/abonnement/offrir/noel',
  '/soutenir/dons/mastodon',
  '/welcome/abcdef123456',
  '/modifier-mon-mot-de-passe/abcdef123456',
  '/modifier-mon-email/abcdef123456',
  '/creer-mon-compte/cadeau/CHMP7K26AB3DEMQ8',
  '/activer-cadeau',
  '/activer-cadeau/CHMP-7K26-AB3D-EMQ8',
  '/mailinglist/confirm?token=abcdef',
  '/soutenir/mon-compte?formule=annuel&source=printemps',
  '/soutenir/mon-compte?don=2000&frequence=mensuel',
  '/soutenir/dons/merci',
];

/**
 * Waits until the island holding `selector` has hydrated and its effects run: the island
 * marks an element `data-hydrated` then (src/components/ui/use-hydrated.ts). Astro dropping
 * the `ssr` attribute comes earlier, before React has committed. Before that, the
 * server-rendered HTML works without script; tests of what the island adds must wait.
 */
export async function islandReady(page: Page, selector: string): Promise<void> {
  await page.locator(`astro-island:not([ssr]):has(${selector}):has([data-hydrated])`).first().waitFor({ state: 'attached' });
}
