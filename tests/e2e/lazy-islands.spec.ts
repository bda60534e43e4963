import { expect, test, type Page } from '../helpers/e2e';
import { signIn } from '../helpers/browse';
import { islandReady } from '../helpers/site';

/**
 * JavaScript only when needed (issue 13, goal 3): a reader who only reads downloads neither
 * React nor any island; each island's code arrives with the first interaction that needs it
 * (src/directives/), and that interaction still does what it says.
 */
const ARTICLE = '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans';
const EPISODE = '/podcasts/a-contre-courant/juger-en-vingt-minutes';

/** React and the islands' own modules (not the client directives, in the layout's script). */
const REACT_OR_ISLAND = /\/_astro\/(react-dom|react|jsx-runtime|[^/]+\.island)\.[\w-]+\.js$/;

/** Records the island and React modules the page requests. */
function watchScripts(page: Page) {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (REACT_OR_ISLAND.test(path)) requested.push(path.replace(/^\/_astro\//, ''));
  });
  return requested;
}

/** Lets the browser go idle, when `client:idle` islands used to load. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => setTimeout(done, 300))));
  await page.waitForLoadState('networkidle');
}

const loaded = (requested: string[], name: string) => requested.some((path) => path.startsWith(name));

test('an article read without interaction downloads neither React nor any island', async ({ page }) => {
  const requested = watchScripts(page);
  await page.goto(ARTICLE);
  await settle(page);
  await page.mouse.wheel(0, 2000);
  await settle(page);
  expect(requested).toEqual([]);
  // Everything server-rendered is there: the search link, the menu button, the sign-in link, the newsletter form.
  const header = page.locator('header');
  await expect(header.getByRole('link', { name: 'Rechercher' })).toHaveAttribute('href', '/rechercher');
  await expect(header.getByRole('button', { name: 'Menu' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
  await expect(page.locator('footer form[action="/mailinglist"][method="post"]')).toHaveCount(1);
});

test('Ctrl+K as the very first keypress opens search, and what is typed while it loads is kept', async ({ page }) => {
  const requested = watchScripts(page);
  await page.goto(ARTICLE);
  await settle(page);
  expect(requested).toEqual([]);
  // No waiting between the shortcut and the typing: the letters come while React and the dialog load.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('logement');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  const field = dialog.getByRole('combobox', { name: 'Rechercher' });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('logement');
  await expect(dialog.getByRole('option').first()).toBeVisible();
  expect(loaded(requested, 'SearchLauncher.island')).toBe(true);
  expect(loaded(requested, 'react-dom')).toBe(true);
  // Typing goes on in the field itself.
  await page.keyboard.type('s');
  await expect(field).toHaveValue('logements');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Ctrl+K again, now served by the hydrated launcher.
  await page.keyboard.press('Control+k');
  await expect(field).toBeFocused();
});

test('a click on the header’s search link opens the dialog rather than leaving the page', async ({ page }) => {
  await page.goto(ARTICLE);
  await settle(page);
  await page.locator('header').getByRole('link', { name: 'Rechercher' }).click();
  await expect(page.getByRole('dialog', { name: 'Recherche' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${ARTICLE}$`));
});

test('the menu loads its island as it opens: a click inside closes it and gives the focus back', async ({ page }) => {
  const requested = watchScripts(page);
  await page.goto(ARTICLE);
  await settle(page);
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.locator('#sidenav');
  await menu.click();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Articles' })).toBeFocused();
  await islandReady(page, '#sidenav');
  expect(loaded(requested, 'SideNav.island')).toBe(true);
  // What only the island does: a click on the panel's title closes it, focus back on the button.
  await nav.getByText('Navigation', { exact: true }).click();
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  expect(loaded(requested, 'SearchLauncher.island')).toBe(false);
});

test('« Écouter » plays at once on first use, and the player persists across a navigation', async ({ page }) => {
  const requested = watchScripts(page);
  await page.goto(EPISODE);
  await settle(page);
  expect(requested).toEqual([]);
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
  const bar = page.getByRole('region', { name: 'Lecteur de podcast' });
  await expect(bar).toBeVisible();
  const audio = () =>
    page.evaluate(() => {
      const element = document.querySelector<HTMLAudioElement & { marker?: string }>('[data-player-bar] audio');
      return { playing: !!element && !element.paused, time: element?.currentTime ?? -1, marker: element?.marker };
    });
  await expect.poll(() => audio().then((a) => a.playing && a.time > 0), { timeout: 10_000 }).toBe(true);
  expect(loaded(requested, 'PlayerRoot.island')).toBe(true);
  await page.evaluate(() => {
    (document.querySelector('[data-player-bar] audio') as HTMLAudioElement & { marker?: string }).marker = 'same';
  });
  const before = (await audio()).time;
  await page.locator('header a[href="/"]').first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(bar).toBeVisible();
  await expect.poll(() => audio().then((a) => a.time)).toBeGreaterThan(before);
  expect(await audio()).toMatchObject({ playing: true, marker: 'same' });
});

test('the newsletter field loads its form, which keeps what was typed and subscribes in place', async ({ page }) => {
  const requested = watchScripts(page);
  await page.goto(ARTICLE);
  await settle(page);
  const footer = page.locator('footer');
  const field = footer.getByLabel('Votre adresse e-mail');
  const email = `lazy-${Date.now()}@exemple.fr`;
  // Typed at once: the first letters arrive before the island has hydrated.
  await field.pressSequentially(email);
  await islandReady(page, '[data-newsletter-text]');
  expect(loaded(requested, 'NewsletterForm.island')).toBe(true);
  await expect(field).toHaveValue(email);
  await footer.getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(footer.locator('[data-newsletter-text]')).toContainText(`Merci ! Un e-mail de confirmation vient d’être envoyé à ${email}`);
  await expect(page).toHaveURL(new RegExp(`${ARTICLE}$`));
});

test('the user menu hydrates at once for a signed-in reader, with no interaction', async ({ page }) => {
  await signIn(page, 'redaction@exemple.fr', 'motdepasse-demo');
  const requested = watchScripts(page);
  await page.goto(ARTICLE);
  // No click, no key: the reader's menu replaces the sign-in link by itself.
  await expect(page.locator('header').getByRole('button', { name: /Mon compte/ })).toBeVisible();
  expect(loaded(requested, 'UserMenu.island')).toBe(true);
  // Nothing else loads for it.
  expect(loaded(requested, 'SearchLauncher.island')).toBe(false);
  expect(loaded(requested, 'SideNav.island')).toBe(false);
});
