import { expect, test } from '../helpers/e2e';
import { asArray, localPath, parseXml, sitemapPaths } from '../helpers/site';

const SITE_FEEDS = ['/rss.xml', '/rss_articles.xml', '/rss_emissions.xml'];

test('the three site feeds are RSS 2.0 whose items all link to live pages', async ({ request }) => {
  test.setTimeout(90_000);
  const schemes: Record<string, RegExp> = {
    '/rss_articles.xml': /^\/articles\/\d{4}\//,
    '/rss_emissions.xml': /^\/emissions\/\d{4}\//,
    '/rss.xml': /^\/(articles|emissions|breves)/,
  };
  for (const feed of SITE_FEEDS) {
    const response = await request.get(feed);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('xml');
    const rss = parseXml(await response.text()).rss;
    expect(rss['@version']).toBe('2.0');
    expect(rss.channel.title).toMatch(/^Contrechamp/);
    expect(rss.channel.language).toBe('fr-FR');
    const items = asArray<{ title: string; link: string; pubDate: string; description: string }>(rss.channel.item);
    expect(items.length, feed).toBeGreaterThanOrEqual(10);
    for (const item of items) {
      expect(item.link, feed).toMatch(/^https?:\/\//);
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
      expect(item.description.length).toBeGreaterThan(10);
      const path = localPath(item.link);
      expect(path, feed).toMatch(schemes[feed]!);
      const page = await request.get(path);
      expect(page.status(), item.link).toBe(200);
      const anchor = new URL(item.link).hash.slice(1);
      if (anchor) expect(await page.text(), item.link).toContain(`id="${anchor}"`);
    }
  }
  // Everything is newest first.
  const all = asArray<{ pubDate: string }>(parseXml(await (await request.get('/rss.xml')).text()).rss.channel.item).map((i) => Date.parse(i.pubDate));
  expect([...all].sort((a, b) => b - a)).toEqual(all);
});

test('each podcast feed is one Apple Podcasts and Spotify accept', async ({ request, page }) => {
  await page.goto('/podcasts/');
  const shows = await page.locator('article.show h2 a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(shows.length).toBeGreaterThanOrEqual(3);
  for (const show of shows) {
    const feed = await request.get(`${show}/rss.xml`);
    expect(feed.status()).toBe(200);
    const text = await feed.text();
    expect(text).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
    const channel = parseXml(text).rss.channel;
    expect(channel.title.length).toBeGreaterThan(2);
    expect(channel['itunes:author']).toBe('Contrechamp');
    expect(channel['itunes:explicit']).toMatch(/^(true|false)$/);
    expect(channel['itunes:category']['@text']).toBeTruthy();
    expect(channel['itunes:owner']['itunes:email']).toContain('@');
    // The cover is a square JPEG of at least 1400 px.
    const cover = await request.get(localPath(channel['itunes:image']['@href']));
    expect(cover.status()).toBe(200);
    expect(cover.headers()['content-type']).toBe('image/jpeg');
    const body = await cover.body();
    expect(body.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(channel['itunes:image']['@href']).toMatch(/^https?:\/\//);
    const items = asArray<Record<string, any>>(channel.item);
    expect(items.length).toBeGreaterThanOrEqual(4);
    for (const item of items) {
      expect(item.guid['#text'] ?? item.guid).toBeTruthy();
      expect(item['itunes:duration']).toMatch(/^(\d+:)?\d{1,2}:\d{2}$/);
      const enclosure = item.enclosure;
      expect(enclosure['@type']).toBe('audio/mpeg');
      const audio = await request.get(localPath(enclosure['@url']), { headers: { Range: 'bytes=0-1' } });
      expect(audio.status()).toBe(206);
      expect(audio.headers()['content-range']).toBe(`bytes 0-1/${enclosure['@length']}`);
      expect((await request.get(localPath(item.link))).status()).toBe(200);
    }
  }
});

test('the sitemap lists the public pages by their canonical address, and robots.txt points to it', async ({ request, page }) => {
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toMatch(/Sitemap: https?:\/\/.+\/sitemap-index\.xml/);
  expect(robots).toContain('Disallow: /mon-compte');
  const paths = await sitemapPaths(request);
  for (const path of [
    '/',
    '/articles',
    '/dossiers/eau-bien-commun',
    '/podcasts/a-contre-courant',
    '/faq',
    '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans',
  ])
    expect(paths).toContain(path);
  // Pages that ask not to be indexed are not listed.
  for (const path of ['/login', '/soutenir/dons/merci', '/404']) expect(paths).not.toContain(path);
  // The canonical link of a page is its sitemap address.
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans/');
  expect(localPath((await page.locator('link[rel="canonical"]').getAttribute('href'))!)).toBe(
    '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans',
  );
});

test('pages carry Open Graph metadata with absolute URLs', async ({ page }) => {
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans');
  await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https?:\/\/.+\.jpg$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Meublés de tourisme/);
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'fr_FR');
});

test('the sharing image, icons and logos a page points to all exist', async ({ page, request }) => {
  await page.goto('/');
  const assets = [
    await page.locator('meta[property="og:image"]').getAttribute('content'),
    ...(await page.locator('link[rel="icon"]').evaluateAll((links) => links.map((l) => l.getAttribute('href')))),
    await page.locator('link[rel="apple-touch-icon"]').getAttribute('href'),
    await page.locator('footer img').first().getAttribute('src'),
  ];
  for (const asset of assets) {
    const response = await request.get(asset!.startsWith('http') ? localPath(asset!) : asset!);
    expect(response.status(), asset!).toBe(200);
    expect(response.headers()['content-type'], asset!).toMatch(/^image\//);
  }
});
