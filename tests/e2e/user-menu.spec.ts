import { expect, test } from '../helpers/e2e';

test('an anonymous reader’s page load makes no request to the server’s API', async ({ page }) => {
  const api: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) api.push(request.url());
  });
  for (const path of ['/', '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans', '/podcasts/les-voix-du-terrain', '/contact']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(api).toEqual([]);
  // No audience measurement unless a domain is configured at build time.
  expect(await page.evaluate(() => 'plausible' in window)).toBe(false);
  await expect(page.locator('header').getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
});

test('after login the user icon opens a menu with “Mon compte” and “Se déconnecter”', async ({ page }) => {
  await page.goto('/login');
  await page.locator('#login-email').fill('redaction@exemple.fr');
  await page.locator('#login-password').fill('motdepasse-demo');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
  await page.goto('/articles');
  const trigger = page.locator('header').getByRole('button', { name: /Mon compte/ });
  await expect(trigger).toBeVisible();
  await trigger.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Mon compte' })).toHaveAttribute('href', '/mon-compte');
  // Placed below the icon, 8 px away.
  const [t, m] = [await trigger.boundingBox(), await menu.boundingBox()];
  expect(Math.abs(m!.y - (t!.y + t!.height) - 8)).toBeLessThanOrEqual(1);
  await menu.getByRole('menuitem', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('header').getByRole('link', { name: 'Se connecter' })).toBeVisible();
  // A toast says so on the home page (the toaster persists across the navigation), and closes.
  const notifications = page.getByRole('region', { name: 'Notifications (F8 pour y accéder)' });
  const toast = notifications.getByRole('listitem').filter({ hasText: 'Déconnexion effectuée.' });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: 'Fermer' }).click();
  await expect(toast).toHaveCount(0);
  // The session ended on the server.
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
});
