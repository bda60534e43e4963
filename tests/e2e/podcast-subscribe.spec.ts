import { readdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '../helpers/e2e';
import { load } from 'js-yaml';
import { localPath } from '../helpers/site';

/**
 * Following a show (issue 14): its page links to the show in the podcast apps its content
 * names, and gives its RSS address as text with « Copier l’adresse » (clipboard, else the text
 * selected), a plain readable address without scripts.
 */
interface Show {
  slug: string;
  label: string;
  apps?: { applePodcasts?: string; spotify?: string; others?: { name: string; url: string }[] };
}
const dir = 'src/content/podcasts';
const shows = readdirSync(dir)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => load(readFileSync(`${dir}/${file}`, 'utf8')) as Show);

const expectedApps = (show: Show) => [
  ...(show.apps?.applePodcasts ? [{ name: 'Apple Podcasts', url: show.apps.applePodcasts }] : []),
  ...(show.apps?.spotify ? [{ name: 'Spotify', url: show.apps.spotify }] : []),
  ...(show.apps?.others ?? []),
];

const subscribe = (page: Page, show: Show) => page.getByRole('region', { name: `S’abonner à « ${show.label} »` });

test('the demo has shows with and without podcast apps', () => {
  expect(shows.some((show) => expectedApps(show).length >= 3)).toBe(true);
  expect(shows.some((show) => expectedApps(show).length === 0)).toBe(true);
});

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('each show page links to the podcast apps of its show, beside its RSS address', async ({ page, request }) => {
      for (const show of shows) {
        await page.goto(`/podcasts/${show.slug}`);
        const block = subscribe(page, show);
        await expect(block).toBeVisible();
        const apps = block.getByRole('listitem').getByRole('link');
        const expected = expectedApps(show);
        await expect(apps).toHaveCount(expected.length);
        for (const [index, app] of expected.entries()) {
          await expect(apps.nth(index)).toHaveAccessibleName(`${app.name} (s’ouvre dans un nouvel onglet)`);
          await expect(apps.nth(index)).toHaveAttribute('href', app.url);
          await expect(apps.nth(index)).toBeVisible();
          const box = (await apps.nth(index).boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }
        // The RSS address, whole and legible, leads to the show's feed.
        const address = block.getByRole('link', { name: /\/rss\.xml$/ });
        const url = (await address.innerText()).trim();
        expect(url).toMatch(new RegExp(`^https?://[^/]+/podcasts/${show.slug}/rss\\.xml$`));
        const box = (await address.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        const feed = await request.get(localPath(url));
        expect(feed.status()).toBe(200);
        expect(await feed.text()).toContain(`<title>${show.label}</title>`);
      }
    });

    test('« Copier l’adresse » puts the RSS address in the clipboard', async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const show = shows[0]!;
      await page.goto(`/podcasts/${show.slug}`);
      const block = subscribe(page, show);
      const url = (await block.getByRole('link', { name: /\/rss\.xml$/ }).innerText()).trim();
      await block.getByRole('button', { name: /^Copier l’adresse du flux RSS/ }).click();
      await expect(block.getByRole('status')).toHaveText('Adresse copiée.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    });
  });
}

test('without the clipboard API the address is selected for the reader to copy', async ({ page }) => {
  const show = shows[0]!;
  await page.goto(`/podcasts/${show.slug}`);
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    document.execCommand = () => false;
  });
  const block = subscribe(page, show);
  const url = (await block.getByRole('link', { name: /\/rss\.xml$/ }).innerText()).trim();
  await block.getByRole('button', { name: /^Copier l’adresse du flux RSS/ }).click();
  await expect(block.getByRole('status')).toHaveText(/^Adresse sélectionnée : copiez-la/);
  expect(await page.evaluate(() => window.getSelection()?.toString().trim())).toBe(url);
});

test('without JavaScript the RSS address is plain text and no dead copy button shows', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const show = shows[0]!;
  await page.goto(`/podcasts/${show.slug}`);
  const block = subscribe(page, show);
  await expect(block.getByRole('link', { name: new RegExp(`/podcasts/${show.slug}/rss\\.xml$`) })).toBeVisible();
  await expect(block.getByRole('button', { name: /Copier/ })).toBeHidden();
  await context.close();
});
