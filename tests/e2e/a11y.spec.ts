import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/** One page per template. */
const TEMPLATES = {
  home: '/',
  article: '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans',
  emission: '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie',
  'story list': '/articles',
  'category list': '/emissions/contre-enquete',
  breves: '/breves',
  dossiers: '/dossiers',
  dossier: '/dossiers/eau-bien-commun',
  authors: '/auteurs',
  author: '/auteurs/karim-benali',
  tags: '/tags',
  tag: '/tags/logement',
  podcasts: '/podcasts/',
  'latest episodes': '/podcasts/publications',
  podcast: '/podcasts/les-voix-du-terrain',
  episode: '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton',
  'editorial page': '/faq',
  contact: '/contact',
  search: '/rechercher',
  login: '/login',
  support: '/soutenir',
  subscription: '/soutenir/abonnement',
  donation: '/soutenir/dons',
  shareholders: '/devenir-societaire',
  'token page': '/welcome/abcdef123456',
  error: '/page-inconnue',
};

for (const [name, path] of Object.entries(TEMPLATES)) {
  test(`axe finds no serious or critical violation on the ${name} template`, async ({ page }) => {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const blocking = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
    expect(blocking).toEqual([]);
  });
}

test('axe finds no serious violation in the open side navigation', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  const results = await new AxeBuilder({ page }).include('#sidenav').analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

const blockingIn = async (page: import('@playwright/test').Page, selector: string) =>
  (await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze())
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);

test('axe finds no serious violation in the open player bar', async ({ page }) => {
  await page.goto(TEMPLATES.episode);
  await page.getByRole('main').getByRole('link', { name: /^Écouter/ }).first().click();
  await expect(page.locator('[data-player-bar]')).toBeVisible();
  expect(await blockingIn(page, '[data-player-bar]')).toEqual([]);
});

test('axe finds no serious violation in the open search dialog with results', async ({ page }) => {
  await page.goto(TEMPLATES.article);
  await expect(page.locator('[data-search-trigger][data-search-ready]')).toHaveCount(1);
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  await dialog.getByRole('combobox', { name: 'Rechercher' }).fill('logement');
  await expect(dialog.getByRole('option').first()).toBeVisible();
  expect(await blockingIn(page, 'dialog[open]')).toEqual([]);
});

test('at 360 px the header keeps its names: axe finds nothing serious and “Menu” opens the navigation', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  expect(await blockingIn(page, 'header')).toEqual([]);
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.locator('#sidenav')).toBeVisible();
});
