import { expect, test, type Page } from '../helpers/e2e';

/**
 * Plausible (SPEC §7), built into the test build towards https://plausible.test: a pageview for
 * the first page and for every view-transition navigation, back included; nothing when the
 * reader set the local ignore flag. No cookie is set.
 */
async function recordEvents(page: Page) {
  const events: { n: string; u: string; d: string }[] = [];
  await page.route('https://plausible.test/**', async (route) => {
    events.push(JSON.parse(route.request().postData() ?? '{}'));
    await route.fulfill({ status: 202, body: 'ok' });
  });
  // The tracker ignores automated browsers unless told otherwise.
  await page.addInitScript(() => Object.assign(window, { __plausible: true }));
  return events;
}

const pageviews = (events: { n: string; u: string }[]) => events.filter((e) => e.n === 'pageview').map((e) => new URL(e.u).pathname);

test('a pageview on load and on every navigation, view transitions included', async ({ page, context }) => {
  const events = await recordEvents(page);
  await page.goto('/');
  await expect.poll(() => pageviews(events)).toEqual(['/']);
  expect(events[0]!.d).toBe('contrechamp.test');

  await page.locator('main a[href^="/articles/20"]').first().click();
  await expect(page).toHaveURL(/\/articles\/\d{4}\//);
  await expect.poll(() => pageviews(events).length).toBe(2);
  expect(pageviews(events)[1]).toMatch(/^\/articles\/\d{4}\//);
  // It was a client-side navigation: the tracker was not loaded twice.
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);

  await page.locator('header a[href="/contact"]').first().click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect.poll(() => pageviews(events).at(-1)).toBe('/contact');

  await page.goBack();
  await expect.poll(() => pageviews(events).length).toBe(4);
  expect(pageviews(events)[3]).toMatch(/^\/articles\/\d{4}\//);
  expect(await context.cookies()).toEqual([]);
});

test('nothing is sent when the reader opted out in this browser', async ({ page }) => {
  const events = await recordEvents(page);
  await page.addInitScript(() => localStorage.setItem('plausible_ignore', 'true'));
  await page.goto('/');
  await page.locator('header a[href="/contact"]').first().click();
  await expect(page).toHaveURL(/\/contact$/);
  await page.waitForTimeout(500);
  expect(events).toEqual([]);
});
