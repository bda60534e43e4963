import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../helpers/e2e';
import { AXE_TAGS } from '../helpers/axe';

const ARTICLE = '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans';
/** The search code (dialog, page, shared chunks, styles) and the index; not the launcher. */
const SEARCH_ASSET = /\/pagefind\/|\/_astro\/(?!SearchLauncher)[^/]*search/i;

/** Waits until the header's search shortcuts listen (src/directives/search.ts, before any island code). */
async function launcherReady(page: Page) {
  // Set by the launcher's client directive once its shortcuts listen.
  await expect(page.locator('[data-search-trigger][data-search-ready]')).toHaveCount(1);
}

test('Ctrl+K opens search, which finds an article by a word of its body typed without accents', async ({ page }) => {
  const loaded: string[] = [];
  let launcher = false;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (SEARCH_ASSET.test(path)) loaded.push(path);
    if (path.includes('/SearchLauncher')) launcher = true;
  });
  await page.goto(ARTICLE);
  await launcherReady(page);
  await page.waitForLoadState('networkidle');
  // Nothing of search, not even its launcher, is downloaded before a reader opens it.
  expect(launcher).toBe(false);
  expect(loaded).toEqual([]);

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  await expect(dialog).toBeVisible();
  const field = dialog.getByRole('combobox', { name: 'Rechercher' });
  await expect(field).toBeFocused();

  // « Aucune mesure d’empoussièrement… », in the body only: no accent, and an elided word.
  await field.fill('empoussierement');
  const result = dialog.getByRole('option', { name: /Amiante dans les écoles/ });
  await expect(result).toBeVisible();
  await expect(result).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByRole('status')).toHaveText('1 résultat pour « empoussierement »');
  await expect(result.locator('mark')).toHaveText(/empoussièrement/i);
  await expect(result).toContainText('Article');
  expect(loaded).toContainEqual(expect.stringMatching(/^\/_astro\/SearchDialog\./));
  expect(loaded).toContainEqual('/pagefind/pagefind.js');
  expect(launcher).toBe(true);

  await field.press('Enter');
  await expect(page).toHaveURL(/\/articles\/2026\/amiante-dans-les-ecoles-les-diagnostics-que-personne-ne-lit$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Amiante dans les écoles : les diagnostics que personne ne lit');
  await expect(dialog).toBeHidden();
});

test('an accent-free word after an elision finds its article, and arrows then a click open it', async ({ page }) => {
  await page.goto('/');
  await launcherReady(page);
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  const field = dialog.getByRole('combobox', { name: 'Rechercher' });
  // « …plans d’épandage. » in the article on nitrates.
  await field.fill('epandage');
  const options = dialog.getByRole('option');
  await expect(options.first()).toBeVisible();
  const target = dialog.getByRole('option', { name: /Nitrates et pesticides/ });
  await expect(target).toBeVisible();
  // The arrow keys move the active result (the field keeps the focus).
  const count = await options.count();
  if (count > 1) {
    await field.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(field).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
    await field.press('ArrowUp');
  }
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await target.click();
  await expect(page).toHaveURL(/\/articles\/2026\/nitrates-en-bretagne-trois-captages-fermes-en-dix-ans$/);
});

test('a brève is found on its own and opens at its place in the list', async ({ page }) => {
  await page.goto('/podcasts/');
  await launcherReady(page);
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  await dialog.getByRole('combobox', { name: 'Rechercher' }).fill('mediterraneen');
  const result = dialog.getByRole('option', { name: /Nappes phréatiques/ });
  await expect(result).toContainText('Brève');
  await result.click();
  await expect(page).toHaveURL(/\/breves(\/page\/\d+)?#breve-nappes-phreatiques-un-tiers-encore-sous-les-normales$/);
  await expect(page.locator('#breve-nappes-phreatiques-un-tiers-encore-sous-les-normales')).toBeInViewport();
});

test('Escape closes the dialog and gives the focus back to the search button', async ({ page }) => {
  await page.goto(ARTICLE);
  await launcherReady(page);
  const trigger = page.locator('header').getByRole('link', { name: 'Rechercher' });
  await trigger.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox').fill('logement');
  await expect(dialog.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  // Reopened, it offers the last query again; the close button closes it too.
  await page.keyboard.press('Control+k');
  await expect(dialog.getByRole('combobox')).toHaveValue('logement');
  await dialog.getByRole('button', { name: 'Fermer la recherche' }).click();
  await expect(dialog).toBeHidden();
  // After a page change by the ClientRouter, the dialog still has its styles.
  await page
    .locator('header')
    .getByRole('link', { name: /retour à l’accueil/ })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await launcherReady(page);
  await page.keyboard.press('Control+k');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveCSS('border-radius', '12px');
});

test('axe finds no serious violation in the open dialog with results', async ({ page }) => {
  await page.goto('/dossiers');
  await launcherReady(page);
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  await dialog.getByRole('combobox').fill('eau');
  await expect(dialog.getByRole('option').first()).toBeVisible();
  const results = await new AxeBuilder({ page }).include('.search-dialog').withTags(AXE_TAGS).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the search page reads its query from the address, and the kind filter narrows the results', async ({ page }) => {
  await page.goto('/rechercher?q=eau');
  const status = page.locator('.search-page-status');
  await expect(status).toHaveText(/^\d+ résultats pour «\seau\s»$/);
  const all = Number((await status.textContent())!.split(' ')[0]);
  const results = page.getByRole('list', { name: 'Résultats de la recherche' }).getByRole('listitem');
  await expect(results.first()).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('[data-search-root]').withTags(AXE_TAGS).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await page.getByRole('checkbox', { name: 'Brève' }).check();
  await expect(page).toHaveURL(/[?&]type=Br%C3%A8ve/);
  await expect(status).not.toHaveText(`${all} résultats pour « eau »`);
  const narrowed = Number((await status.textContent())!.split(' ')[0]);
  expect(narrowed).toBeGreaterThan(0);
  expect(narrowed).toBeLessThan(all);
  for (const meta of await results.locator('.search-result-meta').allTextContents()) expect(meta).toMatch(/^Brève/);

  // The address keeps the filters: a reload gives the same search.
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Brève' })).toBeChecked();
  await expect(status).toHaveText(`${narrowed} résultat${narrowed > 1 ? 's' : ''} pour « eau »`);

  // No match: said in French.
  await page.getByRole('searchbox', { name: 'Rechercher dans les contenus' }).fill('zzzxqw');
  await expect(status).toHaveText('Aucun résultat pour « zzzxqw »');
});

test('on the search page, Ctrl+K goes to its own field', async ({ page }) => {
  await page.goto('/rechercher');
  await launcherReady(page);
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('searchbox', { name: 'Rechercher dans les contenus' })).toBeFocused();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the search link leads to the search page, which says why it cannot search and offers topics', async ({ page, request }) => {
    await page.goto(ARTICLE);
    await page.locator('header').getByRole('link', { name: 'Rechercher' }).click();
    await expect(page).toHaveURL(/\/rechercher$/);
    await expect(page.getByRole('heading', { name: 'Parcourir par sujet' })).toBeVisible();
    // Playwright's switch leaves <noscript> unrendered, so the notice is checked in the HTML.
    const html = await (await request.get('/rechercher')).text();
    expect(html).toMatch(/<noscript><p[^>]*>La recherche a besoin de JavaScript/);
  });
});
