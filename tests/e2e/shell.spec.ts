import { expect, test } from '../helpers/e2e';
import { islandReady } from '../helpers/site';

test('the header is sticky and 90 px high', async ({ page }) => {
  await page.goto('/articles');
  const header = page.locator('header.site-header');
  expect((await header.boundingBox())?.height).toBe(90);
  await page.evaluate(() => window.scrollTo(0, 800));
  await expect.poll(async () => (await header.boundingBox())?.y).toBe(0);
  await expect(header.getByRole('link', { name: /retour à l’accueil/ })).toHaveAttribute('href', '/');
  await expect(header.getByRole('link', { name: 'Rechercher' })).toHaveAttribute('href', '/rechercher');
  await expect(header.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
  await expect(header.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
  await expect(header.getByRole('link', { name: 'Je soutiens' })).toBeVisible();
});

test('“Je soutiens” is in the header’s row at every width, and the row fits the screen', async ({ page }) => {
  for (const width of [1280, 800, 390, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/');
    const header = page.locator('header.site-header');
    const support = header.getByRole('link', { name: 'Je soutiens' });
    await expect(support, `${width} px`).toBeVisible();
    const [box, logo] = [await support.boundingBox(), await header.getByRole('link', { name: /retour à l’accueil/ }).boundingBox()];
    // On the logo's row, inside the screen, not over the logo, and nothing scrolls sideways.
    expect(Math.abs(box!.y + box!.height / 2 - (logo!.y + logo!.height / 2)), `${width} px`).toBeLessThan(12);
    expect(box!.x + box!.width, `${width} px`).toBeLessThanOrEqual(width);
    expect(box!.x, `${width} px`).toBeGreaterThanOrEqual(logo!.x + logo!.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
    // Contact stays one tap away: in the header from 481 px, in the menu below.
    if (width > 480) await expect(header.getByRole('link', { name: 'Contact' })).toBeVisible();
  }
});

test('the baseline strip shows at 40 px of scroll and hides at 60 px, without moving the page', async ({ page }) => {
  await page.goto('/articles');
  const strip = page.locator('[data-baseline]');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(strip).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 40));
  await expect(strip).toBeVisible();
  const before = await heading.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  await page.evaluate(() => window.scrollTo(0, 60));
  await expect(strip).toBeHidden();
  const after = await heading.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  expect(after).toBe(before);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(strip).toBeVisible();
});

test('the side navigation opens from the menu, and any click closes it', async ({ page }) => {
  await page.goto('/');
  const nav = page.locator('#sidenav');
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav).toBeVisible();
  // The panel's island loads as it first opens (client:menu), and takes it up open.
  await islandReady(page, '#sidenav');
  expect(await nav.evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(330);
  await expect(nav.getByText('Navigation', { exact: true })).toBeVisible();
  const links = await nav.getByRole('link').allTextContents();
  expect(links.map((l) => l.trim())).toEqual([
    'Articles',
    'Émissions',
    'Podcasts',
    'Dossiers',
    'Brèves',
    'Je soutiens',
    'Qui sommes-nous\u202f?',
    'Questions fréquentes',
    'S’abonner',
    'Faire un don',
    'Devenir sociétaire',
    'Lettres d’information',
    'Archives des lettres',
    'Mon compte',
    'Contact',
  ]);
  // Focus moves into the panel.
  await expect(nav.getByRole('link', { name: 'Articles' })).toBeFocused();

  // The close mark closes it, and focus goes back to the menu button.
  await nav.getByRole('button', { name: 'Fermer la navigation' }).click();
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();

  // A click inside, outside, or Escape close it too, each time giving focus back to the menu.
  await menu.click();
  await nav.getByText('Navigation', { exact: true }).click();
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await page.locator('.baseline-text').click();
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();

  // From the keyboard: Enter on the menu button opens it on its first link.
  await page.keyboard.press('Enter');
  await expect(nav.getByRole('link', { name: 'Articles' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeFocused();

  // Its links lead where they say.
  await menu.click();
  await nav.getByRole('link', { name: 'Dossiers' }).click();
  await expect(page).toHaveURL(/\/dossiers$/);
  await expect(nav).toBeHidden();
  // The next page's panel works as well (islands mount again after a navigation).
  await menu.click();
  await expect(nav).toBeVisible();
  await islandReady(page, '#sidenav');
  await nav.getByText('Navigation', { exact: true }).click();
  await expect(nav).toBeHidden();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the side navigation still opens, takes focus and closes', async ({ page }) => {
    await page.goto('/');
    const nav = page.locator('#sidenav');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Articles' })).toBeFocused();
    await nav.getByRole('button', { name: 'Fermer la navigation' }).click();
    await expect(nav).toBeHidden();
    await menu.click();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
  });
});

test('the footer holds every block of the spec', async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer.site-footer');
  await expect(footer.getByText('Média indépendant et citoyen')).toBeVisible();
  for (const href of ['/rss.xml', '/rss_articles.xml', '/rss_emissions.xml']) {
    await expect(footer.locator(`a[href="${href}"]`)).toHaveAttribute('target', '_blank');
  }
  await expect(footer.getByRole('img', { name: /ministère de la Culture/ })).toBeVisible();
  await expect(footer.getByRole('heading', { name: 'Les lettres d’information' })).toBeVisible();
  await expect(footer.getByText(`© ${new Date().getFullYear()} Contrechamp`)).toBeVisible();
  await expect(footer.getByRole('list', { name: 'Contrechamp sur les réseaux' }).getByRole('link')).toHaveCount(7);
  for (const label of ['Mentions légales', 'Vie privée', 'CGU', 'CGV']) await expect(footer.getByRole('link', { name: label })).toBeVisible();
});

test('the newsletter field is required and of type email', async ({ page }) => {
  await page.goto('/');
  const field = page.locator('footer').getByLabel('Votre adresse e-mail');
  await expect(field).toHaveAttribute('type', 'email');
  await page.locator('footer').getByRole('button', { name: 'Je m’inscris' }).click();
  // The browser refuses the empty field: we stay on the page.
  await expect(page).toHaveURL(/\/$/);
  expect(await field.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
});

test('pages are light-only, in Inter, with the theme colour', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#ffffff');
  await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute('content', 'light');
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^Inter/);
  await page.evaluate(() => document.fonts.ready);
  expect(await page.evaluate(() => document.fonts.check('16px Inter'))).toBe(true);
});

test('images are responsive WebP at the widths of the spec', async ({ page }) => {
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans');
  const srcset = await page.locator('.cover img').getAttribute('srcset');
  const widths = srcset!.split(',').map((c) => Number(/ (\d+)w$/.exec(c.trim())![1]));
  expect(widths).toEqual(expect.arrayContaining([320, 640, 720, 960, 1024, 1140, 1440]));
  expect(srcset).toMatch(/\.webp/);
  await expect(page.locator('.cover img')).toHaveAttribute('alt', /.{10,}/);
});

test('nothing overflows sideways on a small phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ['/', '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans', '/podcasts/les-voix-du-terrain', '/breves']) {
    await page.goto(path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    // The header's row fits: its last controls (« Je soutiens », the account) are whole on screen.
    const header = page.locator('header.site-header');
    await expect(header.getByRole('link', { name: 'Je soutiens' })).toBeInViewport({ ratio: 1 });
    await expect(header.locator('[data-user-slot]')).toBeInViewport({ ratio: 1 });
  }
});

test('every page carries a Content-Security-Policy that nothing on it breaks', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
  });
  for (const path of ['/', '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie', '/podcasts/les-voix-du-terrain', '/login', '/contact']) {
    // Prerendered pages carry it in a <meta>, pages rendered on demand in a header.
    const response = await page.goto(path);
    const csp = response?.headers()['content-security-policy'] ?? (await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content'));
    expect(csp, path).toMatch(/script-src 'self'/);
    expect(csp, path).toContain("object-src 'none'");
    await page.evaluate(() => window.scrollTo(0, 200));
    await page.waitForTimeout(100);
  }
  expect(violations).toEqual([]);
});
