import { expect, test, type Page } from '../helpers/e2e';

/**
 * What a page needs before its first paint (docs/performance.md, goal 2): one stylesheet,
 * holding nothing of the islands not on screen (player bar, toasts, search dialog, user menu),
 * which bring theirs with their code and keep it across navigations; one font file, preloaded
 * and the one the stylesheet uses (the font's second file, for letters beyond French, only where
 * a page shows one); text never invisible; nothing moves once painted; the
 * largest image of a phone's first screen preloaded with the stylesheet, and other covers kept
 * from competing with it. No Content-Security-Policy violation on the way.
 */
const PAGES = {
  home: '/',
  article: '/articles/2026/amiante-dans-les-ecoles-les-diagnostics-que-personne-ne-lit',
  émission: '/emissions/2026/cantines-scolaires-enquete-sur-un-marche-verrouille',
  episode: '/podcasts/a-contre-courant/juger-en-vingt-minutes',
  contact: '/contact',
  login: '/login',
};

/** The font files the page fetched, in the order asked for. */
const fontsFetched = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => /\.(woff2?|ttf|otf)(\?|$)/.test(entry.name))
      .map((entry) => new URL(entry.name).pathname),
  );

/** The state of each @font-face of Inter, in the stylesheet's order (French file, then the rest). */
const interFaces = (page: Page) =>
  page.evaluate(() => [...document.fonts].filter((face) => face.family.replace(/["']/g, '') === 'Inter').map((face) => face.status));

/** Rules of islands that are not on screen when a page is first shown. */
const OFF_SCREEN = ['.player-bar', '.toast-viewport', '.search-dialog', '.dropdown-item'];

function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (apply|load|execute)/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

const stylesheets = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((link) => link.getAttribute('href')!));

for (const [name, path] of Object.entries(PAGES)) {
  test(`${name}: one stylesheet without the islands off screen, one preloaded font that it uses`, async ({ page, request }) => {
    const csp = watchCsp(page);
    const response = await page.goto(path);
    // No inline script: Astro's island runtime and the directives come with the layout's
    // script (src/lib/client/islands.ts), so the policy allows scripts from the site only.
    expect(await page.locator('script:not([src]):not([type="application/ld+json"])').count()).toBe(0);
    const policy =
      (await response!.headerValue('content-security-policy')) ?? (await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content'));
    expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' ?;/);
    const sheets = await stylesheets(page);
    expect(sheets, 'stylesheets blocking the first paint').toHaveLength(1);
    const css = await (await request.get(sheets[0]!)).text();
    for (const selector of OFF_SCREEN) expect(css, `${selector} is not in the page's stylesheet`).not.toContain(selector);

    const preloads = await page
      .locator('link[rel="preload"][as="font"]')
      .evaluateAll((links) =>
        links.map((link) => ({ href: link.getAttribute('href')!, type: link.getAttribute('type'), crossorigin: link.hasAttribute('crossorigin') })),
      );
    expect(preloads).toHaveLength(1);
    expect(preloads[0]).toMatchObject({ type: 'font/woff2', crossorigin: true });
    // The preloaded file is the one the @font-face asks for (else it would be fetched twice).
    expect(css).toContain(`url(${preloads[0]!.href})`);
    expect(css).toMatch(/font-display:\s*swap/);

    // Every weight of the design comes from that one file, and no other font file is fetched:
    // the font's second file is declared, for letters beyond French, and left alone.
    await page.evaluate(() => document.fonts.ready);
    expect(await fontsFetched(page)).toEqual([preloads[0]!.href]);
    expect(await page.evaluate(() => document.fonts.check('800 16px Inter') && document.fonts.check('400 16px Inter'))).toBe(true);
    expect(await interFaces(page)).toEqual(['loaded', 'unloaded']);
    expect(csp).toEqual([]);
  });
}

test('a page that shows letters beyond French (São Paulo, Guaíba) fetches the font’s second file for them, once', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto('/articles/2026/porto-alegre-le-budget-participatif-rejaillit-de-la-crue');
  await expect(page.locator('main')).toContainText('São Paulo');
  await page.evaluate(() => document.fonts.ready);
  const preloaded = await page.locator('link[rel="preload"][as="font"]').getAttribute('href');
  const fetched = await fontsFetched(page);
  expect(fetched).toHaveLength(2);
  expect(fetched[0]).toBe(preloaded);
  expect(fetched[1]).toMatch(/\/_astro\/Inter-latin-more-wght-400-800\.[\w-]+\.woff2$/);
  expect(await interFaces(page)).toEqual(['loaded', 'loaded']);
  expect(await page.evaluate(() => document.fonts.check('700 16px Inter', 'ãí'))).toBe(true);
  expect(csp).toEqual([]);
});

test('nothing moves once painted, and the image at the top of an article comes without taking the lead', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => {
    const win = window as Window & { shift?: number };
    win.shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) win.shift! += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  for (const path of [PAGES.home, PAGES.article, PAGES.émission, PAGES.episode]) {
    await page.goto(path, { waitUntil: 'networkidle' });
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as Window & { shift?: number }).shift), `layout shift on ${path}`).toBe(0);
  }
  await page.goto(PAGES.article);
  const cover = page.locator('main img').first();
  expect(await cover.getAttribute('loading')).not.toBe('lazy');
  // On a phone the lead paragraph is the largest paint: the cover, below it, does not take the
  // link from the font and the stylesheet.
  expect(await cover.getAttribute('fetchpriority')).not.toBe('high');
  expect(await cover.getAttribute('width')).toBeTruthy();
  expect(await cover.getAttribute('height')).toBeTruthy();
  expect(await page.locator('link[rel="preload"][as="image"]').count()).toBe(0);
});

test('the home page preloads its lead image, the very file the phone then shows, fetched once', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const csp = watchCsp(page);
  await page.goto(PAGES.home, { waitUntil: 'networkidle' });
  const preload = page.locator('head link[rel="preload"][as="image"]');
  await expect(preload).toHaveCount(1);
  expect(await preload.getAttribute('fetchpriority')).toBe('high');
  // Before the stylesheet, so that the browser asks for both at once.
  expect(
    await page.evaluate(() => {
      const links = [...document.head.querySelectorAll('link')];
      return links.findIndex((l) => l.rel === 'preload' && l.getAttribute('as') === 'image') < links.findIndex((l) => l.rel === 'stylesheet');
    }),
  ).toBe(true);

  const lead = page.locator('main .teaser.lead img').first();
  await expect(lead).toBeVisible();
  // Same candidates and sizes as the <img>, so the file preloaded is the file shown.
  expect(await preload.getAttribute('imagesrcset')).toBe(await lead.getAttribute('srcset'));
  expect(await preload.getAttribute('imagesizes')).toBe(await lead.getAttribute('sizes'));
  expect(await lead.getAttribute('fetchpriority')).toBe('high');
  const shown = await lead.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname);
  // Sized to the column, not the whole screen: at 390 px (1x), the 640 px file at most.
  expect(await lead.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(640);
  const stem = shown.replace(/_[^_/]+\.webp$/, '');
  const fetched = await page.evaluate(
    (prefix) =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((path) => path.startsWith(prefix)),
    stem,
  );
  expect(fetched).toEqual([shown]);
  expect(csp).toEqual([]);
});

test('the player bar brings its stylesheet with its code and keeps it through navigations', async ({ page }) => {
  const csp = watchCsp(page);
  await page.goto(PAGES.episode);
  const before = await stylesheets(page);
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
  const bar = page.locator('[data-player-bar]');
  await expect(bar).toBeVisible();
  // Styled from its first frame: a fixed bar at the bottom, on the dark background.
  const styled = () =>
    bar.evaluate((element) => {
      const style = getComputedStyle(element);
      return { position: style.position, background: style.backgroundColor, bottom: Math.round(element.getBoundingClientRect().bottom) };
    });
  const expected = { position: 'fixed', background: 'rgb(31, 35, 40)', bottom: page.viewportSize()!.height };
  expect(await styled()).toMatchObject({ position: expected.position, background: expected.background });
  // Its place once it has slid in from below the window (a 0.2 s animation).
  await expect.poll(styled).toEqual(expected);
  // Its stylesheets came with it, after the page had painted.
  expect((await stylesheets(page)).length).toBeGreaterThan(before.length);

  // A prerendered page, then one rendered on demand: the bar is the same element, still styled.
  await page.evaluate(() => ((document.querySelector('[data-player-bar]') as HTMLElement & { marker?: string }).marker = 'same'));
  await page.locator('header a[href="/"]').first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.locator('header a[href="/login"]').click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await bar.evaluate((element: HTMLElement & { marker?: string }) => element.marker)).toBe('same');
  await expect.poll(styled).toEqual(expected);
  expect(csp).toEqual([]);
});

test('icons are drawn by the cached stylesheet in the text colour, also in forced colours, with no SVG in the page', async ({ page }) => {
  const icons = (selector: string) =>
    page.locator(selector).evaluateAll((spans) =>
      spans.map((span) => {
        const style = getComputedStyle(span);
        const box = span.getBoundingClientRect();
        return {
          mask: style.maskImage,
          background: style.backgroundColor,
          color: getComputedStyle(span.parentElement!).color,
          width: box.width,
          height: box.height,
        };
      }),
    );
  await page.goto(PAGES.article);
  // The page sends no icon markup: the header, share bar and footer name their icons by class.
  expect(await page.locator('header svg[data-icon], footer svg, .share-links svg').count()).toBe(0);
  const socials = await icons('.socials .icon');
  expect(socials).toHaveLength(7);
  for (const icon of [...socials, ...(await icons('.site-header .icon-btn .icon'))]) {
    expect(icon.mask).toMatch(/^url\("data:image\/svg\+xml,/);
    expect(icon.background).toBe(icon.color);
    expect(icon.width).toBeGreaterThanOrEqual(20);
    expect(icon.height).toBe(icon.width);
  }
  // Windows' contrast themes: the icon takes the forced link colour, not the page's background.
  await page.emulateMedia({ forcedColors: 'active' });
  for (const icon of await icons('.socials .icon')) expect(icon.background).toBe(icon.color);
});
