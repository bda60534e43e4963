import { expect, test } from '../helpers/e2e';

/**
 * Client-side navigation (<ClientRouter />, SPEC §9): one Content-Security-Policy for the whole
 * visit that every page type satisfies, the 3 px loading bar, pages fetched ahead on intent,
 * and the guarded reload when a script chunk is missing.
 */
test('view transitions through every kind of page break no policy and keep pages styled', async ({ page }) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    Object.assign(window, { cspViolations: violations });
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto('/');
  const visits = ['/podcasts', '/dossiers', '/login', '/soutenir', '/breves', '/rechercher', '/emissions'];
  for (const path of visits) {
    // A link clicked like a reader would, then the router's signal that the page is in place.
    await page.evaluate(
      (href) =>
        new Promise<void>((resolve) => {
          document.addEventListener('astro:page-load', () => resolve(), { once: true });
          const link = document.createElement('a');
          link.href = href;
          document.body.append(link);
          link.click();
        }),
      path,
    );
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('h1').first()).toBeVisible();
  }
  // An émission page: its styles and its video facade script both came along.
  await page.locator('main a[href^="/emissions/20"]').first().click();
  await expect(page.locator('video-facade, [data-video-facade]').first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  // The header still has its styles (sticky, 90 px).
  expect(
    await page
      .locator('header')
      .first()
      .evaluate((el) => getComputedStyle(el).position),
  ).toBe('sticky');
});

test('a slow navigation shows the 3 px loading bar, which goes once the page is there', async ({ page }) => {
  await page.goto('/');
  await page.route('**/contact', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await route.continue();
  });
  const bar = page.locator('[data-loading-bar]');
  await page.locator('header a[href="/contact"]').click();
  await expect(bar).toHaveAttribute('data-state', 'loading');
  expect((await bar.boundingBox())!.height).toBe(3);
  await expect(page).toHaveURL(/\/contact$/);
  await expect(bar).not.toHaveAttribute('data-state', 'loading');
});

test('resting on a link fetches its page ahead; signed-in pages are never fetched ahead', async ({ page }) => {
  await page.goto('/');
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const link = page.locator('main a[href^="/articles/20"]').first();
  const href = (await link.getAttribute('href'))!;
  await link.hover();
  await expect.poll(() => requested).toContain(href);
  await page.locator('header a[href="/login"]').hover();
  await page.waitForTimeout(300);
  expect(requested).not.toContain('/login');
});

test('a missing script chunk reloads the page once, not again within 10 s', async ({ page }) => {
  await page.goto('/podcasts/a-contre-courant/juger-en-vingt-minutes');
  await page.route(/\/_astro\/PlayerBar\.[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  let loads = 0;
  page.on('load', () => loads++);
  const listen = page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first();
  await listen.click();
  await expect.poll(() => loads).toBe(1);
  await page.waitForLoadState('load');
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
  // No second reload: the reader is told instead, and the bar stays closed.
  await expect(page.getByText('Le lecteur n’a pas pu être chargé.', { exact: true })).toBeVisible();
  expect(loads).toBe(1);
  await expect(page.locator('[data-player-bar]')).toHaveCount(0);
});

test('a page from a newer build is loaded in full rather than swapped in', async ({ page }) => {
  await page.goto('/');
  const build = await page.locator('meta[name="build-id"]').getAttribute('content');
  expect(build).toBeTruthy();
  await page.evaluate(() => Object.assign(window, { visitMarker: true }));
  // The same page as the next build would serve it.
  await page.route('**/contact', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/<meta name="build-id" content="[^"]*"/, '<meta name="build-id" content="next-build"');
    await route.fulfill({ response, body });
  });
  await page.locator('header a[href="/contact"]').click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.locator('meta[name="build-id"]')).toHaveAttribute('content', 'next-build');
  expect(await page.evaluate(() => (window as Window & { visitMarker?: boolean }).visitMarker)).toBeUndefined();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});
