import { expect, test } from '../helpers/e2e';
import { ON_DEMAND_PATHS, TITLE_TEMPLATE, plainSpaces, sitemapPaths } from '../helpers/site';

/** The spec's public routes (SPEC §2) with real slugs, checked on top of the sitemap. */
const SPEC_ROUTES = [
  '/',
  '/login',
  '/mailinglist',
  '/modifier-mon-mot-de-passe',
  '/auteurs',
  '/auteurs/claire-fontaine',
  '/tags',
  '/tags/climat',
  '/dossiers',
  '/dossiers/crise-du-logement',
  '/articles',
  '/articles/politique',
  '/emissions',
  '/emissions/le-grand-entretien',
  '/breves',
  '/breves/en-france',
  '/podcasts/',
  '/podcasts/publications',
  '/podcasts/a-contre-courant',
  '/rechercher',
  '/contact',
  '/presentation',
  '/faq',
  '/legal',
  '/cgv',
  '/cgu',
  '/vie-privee',
  '/devenir-societaire',
  '/devenir-societaire/guide',
  '/soutenir',
  '/soutenir/abonnement',
  '/abonnement',
  '/soutenir/abonnement/offrir',
  '/soutenir/dons',
  '/soutenir/dons/merci',
];

test('every page of the sitemap, and every route of the spec, answers 200 in French with the title template', async ({ request }) => {
  test.setTimeout(120_000);
  const paths = [...new Set([...(await sitemapPaths(request)), ...SPEC_ROUTES, ...ON_DEMAND_PATHS])];
  expect(paths.length).toBeGreaterThan(150);
  const failures: string[] = [];
  for (const path of paths) {
    const response = await request.get(path);
    const html = await response.text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
    if (response.status() !== 200) failures.push(`${path}: status ${response.status()}`);
    else if (!/<html lang="fr"/.test(html)) failures.push(`${path}: not French`);
    else if (!TITLE_TEMPLATE.test(title.replace(/&#39;|&amp;/g, "'"))) failures.push(`${path}: title "${title}"`);
  }
  expect(failures).toEqual([]);
});

test('every internal link of every page leads to a live page, and every anchor exists', async ({ request, playwright, baseURL }) => {
  test.setTimeout(180_000);
  // A link to a page behind sign-in (« choisir dans mon compte ») is followed as a signed-in
  // reader would follow it: its anchor is on the account page, not on the sign-in form.
  const reader = await playwright.request.newContext({ baseURL });
  const signedIn = await reader.post('/api/auth/login', {
    headers: { Origin: baseURL! },
    data: { email: 'abonne@exemple.fr', password: 'motdepasse-demo' },
  });
  expect(signedIn.status()).toBe(200);
  const pages = [...new Set([...(await sitemapPaths(request)), ...ON_DEMAND_PATHS])];
  const targets = new Map<string, string>();
  for (const path of pages) {
    const html = await (await request.get(path)).text();
    for (const [, href] of html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)) {
      const link = href!.replace(/&amp;/g, '&');
      if (!link.startsWith('/') || link.startsWith('//')) continue;
      if (!targets.has(link)) targets.set(link, path);
    }
  }
  expect(targets.size).toBeGreaterThan(150);
  const broken: string[] = [];
  const bodies = new Map<string, string>();
  for (const [href, from] of targets) {
    const [target, anchor] = href.split('#') as [string, string | undefined];
    let body = bodies.get(target);
    if (body === undefined) {
      let response = await request.get(target);
      if (new URL(response.url()).pathname === '/login' && !target.startsWith('/login')) response = await reader.get(target);
      body = response.status() === 200 ? await response.text() : `status ${response.status()}`;
      bodies.set(target, body);
    }
    if (body.startsWith('status ')) broken.push(`${href} (from ${from}): ${body}`);
    else if (anchor && !body.includes(`id="${anchor}"`)) broken.push(`${href} (from ${from}): no #${anchor}`);
  }
  await reader.dispose();
  expect(broken).toEqual([]);
});

test('story URLs carry the publication year in Paris time', async ({ request }) => {
  // Published at 00:30 on 1 January 2026 in Paris, still 2025 in UTC.
  const response = await request.get('/articles/2026/fin-de-l-arenh-ce-qui-change-pour-l-electricite');
  expect(response.status()).toBe(200);
  expect(plainSpaces(await response.text())).toContain('1er janvier 2026 à 0 h 30');
});

test('lists are paginated with working links', async ({ page }) => {
  await page.goto('/articles');
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pagination).toBeVisible();
  await pagination.getByRole('link', { name: 'Page suivante' }).click();
  await expect(page).toHaveURL(/\/articles\/page\/2$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('page 2');
  await expect(page.locator('article.teaser').first()).toBeVisible();
});

test('a story page shows its lead, byline, date, tags, dossier and related stories', async ({ page }) => {
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Meublés de tourisme');
  await expect(page.locator('.lead')).not.toBeEmpty();
  await expect(page.getByRole('link', { name: 'Julien Roussel' }).first()).toHaveAttribute('href', '/auteurs/julien-roussel');
  await expect(page.getByText(/Publié le \d{1,2}\s\p{L}+ 2026/u)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Mots-clés' }).getByRole('link').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'La crise du logement' }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'À lire aussi' })).toBeVisible();
  const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent();
  expect(JSON.parse(jsonLd!)['@type']).toBe('NewsArticle');
});

test('an article needs no JavaScript to be read', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans');
  await expect(page.locator('.story-body p').first()).toBeVisible();
  await expect(page.locator('.story-body')).toContainText(/\w{4,}/);
  // Navigation works too: the side panel is a native popover, and lists paginate with links.
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.locator('#sidenav')).toBeVisible();
  await page.locator('#sidenav').getByRole('link', { name: 'Articles' }).click();
  await page.getByRole('link', { name: 'Page suivante' }).click();
  await expect(page).toHaveURL(/\/articles\/page\/2$/);
  await context.close();
});

test('brèves are read in full in their list, where their links lead', async ({ page }) => {
  await page.goto('/breves');
  const first = page.locator('article.breve').first();
  await expect(first.locator('.prose p').first()).toBeVisible();
  const id = await first.getAttribute('id');
  await page.goto('/');
  await page.locator(`a[href$="#${id}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/breves#${id}$`));
  await expect(page.locator(`#${id}`)).toBeInViewport();
});

test('an émission loads nothing from the video host until its facade is clicked', async ({ page }) => {
  const thirdParty: string[] = [];
  page.on('request', (request) => {
    const { hostname } = new URL(request.url());
    if (hostname !== 'localhost') thirdParty.push(request.url());
  });
  // The video host is unreachable here; answer for it so the click has somewhere to go.
  await page.route(/youtube-nocookie\.com|contrechamp\.media/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>lecteur</p>' }));
  await page.goto('/emissions');
  await page.locator('article.teaser h2 a').first().click();
  await expect(page.locator('video-facade')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(thirdParty).toEqual([]);
  await page.getByRole('link', { name: /Lire la vidéo/ }).click();
  const frame = page.locator('video-facade iframe');
  await expect(frame).toHaveAttribute('src', /^https:\/\/(www\.youtube-nocookie\.com|videos\.contrechamp\.media)\//);
  expect(thirdParty.length).toBeGreaterThan(0);
});

test('podcast shows and episodes have an Écouter button and advertise their feed', async ({ page, request }) => {
  await page.goto('/podcasts/a-contre-courant');
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"][href$="/podcasts/a-contre-courant/rss.xml"]')).toHaveCount(1);
  const listen = page.getByRole('link', { name: /Écouter/ }).first();
  await expect(listen).toBeVisible();
  const episode = JSON.parse((await listen.getAttribute('data-listen'))!);
  expect(episode).toMatchObject({ slug: expect.any(String), title: expect.any(String), duration: expect.any(Number) });
  expect(episode.tags.find((t: { scheme: string }) => t.scheme === 'PODCAST').label).toBe('À contre-courant');
  // The audio is served, and supports range requests for seeking.
  const audio = await listen.getAttribute('href');
  const ranged = await request.get(audio!, { headers: { Range: 'bytes=100-199' } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).length).toBe(100);
  await page.goto(episode.url);
  await expect(page.locator('.actions').getByRole('link', { name: /Écouter/ })).toBeVisible();
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
  expect(jsonLd['@type']).toBe('PodcastEpisode');
});

test('pages, feeds and scripts travel compressed; hashed files are cached for a year, pages revalidate', async ({ page, request }) => {
  const article = '/articles/2026/nitrates-en-bretagne-trois-captages-fermes-en-dix-ans/';
  const brotli = await request.get(article, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(brotli.status()).toBe(200);
  expect(brotli.headers()).toMatchObject({
    'content-encoding': 'br',
    vary: 'Accept-Encoding',
    'cache-control': 'public, no-cache',
    'x-content-type-options': 'nosniff',
  });
  expect(await brotli.text()).toContain('</html>');
  const gzip = await request.get(article, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  expect(await gzip.text()).toBe(await brotli.text());
  // Unchanged since the last visit: 304, nothing sent again.
  const again = await request.get(article, { headers: { 'Accept-Encoding': 'br, gzip', 'If-None-Match': brotli.headers()['etag']! } });
  expect(again.status()).toBe(304);

  await page.goto(article);
  const stylesheet = await page.locator('link[rel="stylesheet"]').first().getAttribute('href');
  const asset = await request.get(stylesheet!, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(asset.headers()).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable' });

  const feed = await request.get('/rss.xml', { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(feed.headers()).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, no-cache' });
  // Rendered on demand: compressed on the way out, its own caching kept.
  const login = await request.get('/login', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(login.headers()).toMatchObject({ 'content-encoding': 'gzip', 'cache-control': 'no-store' });
  expect(await login.text()).toContain('Connexion');
});

test('pages that carry a token are never cached and leak no referrer', async ({ request }) => {
  for (const path of [
    '/welcome/abcdef123456',
    '/modifier-mon-mot-de-passe/abcdef123456',
    '/modifier-mon-email/abcdef123456',
    '/activer-cadeau/CADEAU-2026',
    '/mailinglist/confirm?token=abc',
    '/mailinglist/unsubscribe?token=abc',
    '/login',
  ]) {
    const response = await request.get(path);
    expect(response.headers()['cache-control'], path).toBe('no-store');
    expect(response.headers()['referrer-policy'], path).toBe('no-referrer');
  }
});

test('the reader area sends a visitor without a session to sign in, with the way back', async ({ page }) => {
  await page.goto('/mon-compte/mes-factures');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmon-compte%2Fmes-factures$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Connexion' })).toBeVisible();
});
