/**
 * French typography as readers see it (src/lib/typography.ts): no line of an article starts
 * with » : ; ! ? % € or ends with «, at phone and desktop widths, measured on the rendered
 * line boxes; feeds and search snippets carry the same no-break spaces. Pages rendered on demand
 * come out of their render typeset, the layout's parts they repeat included.
 */
import { frenchPage } from '../../src/lib/typography';
import { expect, test, type Page } from '../helpers/e2e';
import { ON_DEMAND_PATHS, asArray, parseXml } from '../helpers/site';

/** A demo article with guillemets in its title, lead and body (the one of issue 14). */
const ARTICLE = '/articles/2025/cantines-le-durable-qui-n-existait-que-sur-le-papier';
const ARTICLE_TITLE = 'Cantines scolaires\u00a0: le «\u202fdurable\u202f» qui n’existait que sur le papier';
/** The headline, the lead and every block of text of the body. */
const TEXT_BLOCKS = 'main h1, main .lead, .story-body :is(p, li, h2, h3)';

interface Line {
  block: string;
  text: string;
}

/**
 * Every line the browser laid out in the blocks, as text. A character belongs to a new line
 * when its box lies below the current line's; collapsed white space has no box.
 */
function renderedLines(page: Page): Promise<Line[]> {
  return page.locator(TEXT_BLOCKS).evaluateAll((blocks) => {
    const lines: { block: string; text: string }[] = [];
    const range = document.createRange();
    for (const block of blocks) {
      let current: { block: string; text: string; bottom: number } | undefined;
      const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let i = 0; i < node.data.length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = [...range.getClientRects()].at(-1);
          if (!rect || (rect.width === 0 && /\s/.test(node.data[i]!))) continue;
          if (!current || (rect.top + rect.bottom) / 2 > current.bottom) {
            current = { block: block.tagName.toLowerCase() + (block.className ? `.${block.className}` : ''), text: '', bottom: rect.bottom };
            lines.push(current);
          }
          current.text += node.data[i];
        }
      }
    }
    return lines.map(({ block, text }) => ({ block, text: text.trim() }));
  });
}

/** Lines that start or end the way French typography forbids. */
const badBreaks = (lines: Line[]) => lines.filter(({ text }) => /^[»:;!?%€]/.test(text) || /«$/.test(text));

for (const width of [390, 1280]) {
  test(`on an article at ${width} px, no line starts with » : ; ! ? % nor ends with «`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(ARTICLE);
    // Exactly, no-break spaces included (Playwright's text matchers would take them for spaces).
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(ARTICLE_TITLE);
    // Meta tags too: what a search engine or a social network shows.
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(ARTICLE_TITLE);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toContain('«\u202fdurables\u202f»');
    await page.evaluate(() => document.fonts.ready);

    const lines = await renderedLines(page);
    // The measure is real: the title, the lead and the body make dozens of lines, with guillemets.
    expect(lines.length).toBeGreaterThan(width < 600 ? 80 : 30);
    expect(lines.filter((l) => /[«»]/.test(l.text)).length).toBeGreaterThan(5);
    expect(badBreaks(lines)).toEqual([]);
  });
}

test('the line check catches a bad break: with ordinary spaces, some line starts with » or ends with «', async ({ page }) => {
  // The same page with its no-break spaces turned back into ordinary ones, at a few phone
  // widths: were the check blind, this test would fail.
  await page.goto(ARTICLE);
  await page.locator(TEXT_BLOCKS).evaluateAll((blocks) => {
    for (const block of blocks) {
      const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) node.data = node.data.replace(/[\u00a0\u202f]/g, ' ');
    }
  });
  let found: Line[] = [];
  for (const width of [390, 375, 414, 360, 430, 340]) {
    await page.setViewportSize({ width, height: 900 });
    found = badBreaks(await renderedLines(page));
    if (found.length > 0) break;
  }
  expect(found.length).toBeGreaterThan(0);
});

test('feeds carry the same no-break spaces, and no ordinary space before : ; ! ? » % or after «', async ({ request, page }) => {
  test.setTimeout(60_000);
  const visible = (text: string) => text.replace(/<[^>]*>/g, '');
  const offending = /.{0,20}(?: [:;!?»%€]|« ).{0,20}/;

  const articles = parseXml(await (await request.get('/rss_articles.xml')).text()).rss.channel;
  const items = asArray<{ title: string; link: string; description: string; 'content:encoded': string }>(articles.item);
  const article = items.find((item) => item.link.endsWith(ARTICLE))!;
  expect(article.title).toBe(ARTICLE_TITLE);
  expect(article.description).toContain('«\u202fdurables\u202f»');
  expect(article['content:encoded']).toContain('54\u202f% de produits «\u202fdurables et de qualité\u202f»');
  expect(article['content:encoded']).toContain('7\u202f400 repas');

  const feeds = ['/rss.xml', '/rss_articles.xml', '/rss_emissions.xml'];
  await page.goto('/podcasts/');
  for (const show of await page.locator('article.show h2 a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!))) feeds.push(`${show}/rss.xml`);
  expect(feeds.length).toBeGreaterThan(5);
  for (const feed of feeds) {
    const response = await request.get(feed);
    expect(response.status(), feed).toBe(200);
    const channel = parseXml(await response.text()).rss.channel;
    const texts = [channel.title, channel.description];
    for (const item of asArray<Record<string, string>>(channel.item)) {
      texts.push(item.title!, item.description!, visible(item['content:encoded'] ?? ''));
    }
    for (const text of texts) expect(offending.exec(text)?.[0], feed).toBeUndefined();
  }
  const podcast = parseXml(await (await request.get('/podcasts/la-fabrique-de-l-info/rss.xml')).text()).rss.channel;
  const episode = asArray<Record<string, string>>(podcast.item).find((item) => item.title === 'Pourquoi nous publions nos sources')!;
  expect(episode.description).toContain('publiques\u00a0: à la fin');
});

test('an episode’s search snippet is its text, without date, time or duration, and typeset', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  // « Une matinée au guichet », in the episode « La dernière poste du canton ».
  await page.goto('/rechercher?q=guichet&type=Podcast');
  const result = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'La dernière poste du canton' }) });
  await expect(result).toBeVisible();
  const excerpt = result.locator('.search-result-excerpt');
  await expect(excerpt.locator('mark').first()).toHaveText(/guichet/i);
  // The date is the result's own line ("Podcast · 5 janvier 2026"), never its text.
  expect(await result.locator('.search-result-meta').textContent()).toContain('5\u00a0janvier 2026');
  const text = await excerpt.innerText();
  expect(text).not.toMatch(/janvier|\d{4} à|\d+\s?h\s?\d{2}|\b\d+\s?s\b|Les Voix du terrain/);

  // A snippet with guillemets keeps its narrow no-break spaces, which the index drops.
  await page.goto('/rechercher?q=durables&type=Article');
  const cantines = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: /Cantines scolaires/ }) });
  await expect(cantines).toBeVisible();
  expect(await cantines.getByRole('link').textContent()).toBe(ARTICLE_TITLE);
  expect(await cantines.locator('.search-result-excerpt').innerText()).toContain('le «\u202fdurable\u202f» qui');
});

test('a page rendered on demand is typeset throughout, the layout’s repeated parts included, and its islands’ prefixes are its own', async ({ request }) => {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const login = await request.post('/api/auth/login', {
    headers: { Origin: origin },
    data: { email: 'abonne@exemple.fr', password: 'motdepasse-demo', rememberMe: true },
  });
  expect(login.status()).toBe(200);
  const paths = ['/mon-compte', '/mon-compte/mes-informations', '/mon-compte/mes-abonnements', ...ON_DEMAND_PATHS.slice(0, 5)];
  // Twice each: the first request of a process renders the layout's parts, the next ones repeat them.
  for (const path of [...paths, ...paths]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    // The header's and the footer's own strings, from the repeated parts.
    expect(html, path).toContain('Qui sommes-nous\u202f?');
    expect(html, path).toContain('Contrechamp est une coopérative de presse\u00a0:');
    const typeset = frenchPage(html);
    let at = 0;
    while (at < html.length && typeset[at] === html[at]) at++;
    expect(typeset === html ? '' : html.slice(Math.max(0, at - 60), at + 20), `${path}: text left untypeset`).toBe('');
    const prefixes = [...html.matchAll(/<astro-island\b[^>]*\sprefix="([^"]+)"/g)].map((m) => m[1]);
    expect(prefixes.length, path).toBeGreaterThan(4);
    expect(new Set(prefixes).size, `${path}: ${prefixes.join(' ')}`).toBe(prefixes.length);
  }
});

test('the layout’s parts that pages rendered on demand repeat carry nothing of any reader', async ({ request }) => {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  // Everything of the page but its own content: the head, the header and menu, the footer.
  const layout = (html: string) => html.slice(0, html.indexOf('<main')) + html.slice(html.lastIndexOf('</main>'));
  const readers = [
    { email: 'abonne@exemple.fr', name: 'Agnès' },
    { email: 'societaire@exemple.fr', name: 'Samir' },
  ];
  const seen: string[] = [];
  for (const { email, name } of readers) {
    const login = await request.post('/api/auth/login', { headers: { Origin: origin }, data: { email, password: 'motdepasse-demo', rememberMe: true } });
    expect(login.status()).toBe(200);
    const html = await (await request.get('/mon-compte')).text();
    // The page is this reader's…
    expect(html).toContain(name);
    seen.push(layout(html));
  }
  // …its layout is nobody's: the same for both, and without the name or address of any demo
  // account (whichever reader's request rendered the parts first, in this process or an earlier test).
  expect(seen[1]).toBe(seen[0]);
  expect(seen[0]).not.toContain('@exemple.fr');
  for (const name of ['Louis', 'Agnès', 'Samir', 'Salomé', 'Paul', 'Rose', 'Alix']) expect(seen[0]).not.toContain(name);
});
