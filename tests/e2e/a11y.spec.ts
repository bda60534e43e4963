import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../helpers/e2e';
import { AXE_TAGS } from '../helpers/axe';
import { settled } from '../helpers/browse';
import { createReaderAccount } from '../helpers/accounts';

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
  'gift offer': '/soutenir/abonnement/offrir',
  'support account step': '/soutenir/mon-compte?formule=annuel',
  'donation thanks': '/soutenir/dons/merci?commande=00000000-0000-4000-8000-000000000000',
  shareholders: '/devenir-societaire',
  'token page': '/welcome/abcdef123456',
  error: '/page-inconnue',
};

for (const [name, path] of Object.entries(TEMPLATES)) {
  test(`axe finds no serious or critical violation on the ${name} template`, async ({ page }) => {
    await page.goto(path);
    await settled(page);
    const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    const blocking = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id}: ${v.help} (${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')})`,
      );
    expect(blocking).toEqual([]);
  });
}

test('axe finds no serious violation in the open side navigation', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  const results = await new AxeBuilder({ page }).include('#sidenav').withTags(AXE_TAGS).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

const blockingIn = async (page: import('@playwright/test').Page, selector: string) =>
  (await settled(page), await new AxeBuilder({ page }).include(selector).withTags(AXE_TAGS).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    );

test('axe finds no serious violation in the open player bar', async ({ page }) => {
  await page.goto(TEMPLATES.episode);
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
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

const blockingOnPage = async (page: Page) =>
  (await settled(page), await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')})`,
    );

test('axe finds no serious violation on the payment step, the provider’s page and the confirmation', async ({ page }) => {
  // A sign-in, a payment and three whole-page axe runs: over the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  const reader = await createReaderAccount();
  await page.goto('/login?redirect=%2Fsoutenir%2Fpaiement%3Fformule%3Dmensuel');
  await page.locator('#login-email').fill(reader.email);
  await page.locator('#login-password').fill(reader.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/soutenir\/paiement\?formule=mensuel$/);
  expect(await blockingOnPage(page), 'payment').toEqual([]);
  await page.getByLabel('Adresse', { exact: true }).fill('3 rue du Port');
  await page.getByLabel('Code postal').fill('44000');
  await page.getByLabel('Ville').fill('Nantes');
  await page.getByLabel(/J’accepte les conditions générales de vente/).check();
  await page.getByLabel(/je demande expressément que mon abonnement commence dès le paiement/i).check();
  await page.getByRole('button', { name: 'Payer 7 €' }).click();
  await expect(page).toHaveURL(/\/paiement-simule\//);
  expect(await blockingOnPage(page), 'provider').toEqual([]);
  await page.getByRole('button', { name: 'Annuler et revenir au site' }).click();
  await expect(page).toHaveURL(/\/soutenir\/confirmation\//);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await blockingOnPage(page), 'confirmation').toEqual([]);
});
