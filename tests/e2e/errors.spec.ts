import { expect, test } from '../helpers/e2e';

test('an unknown route answers 404 with the French error page and a way home', async ({ page }) => {
  const response = await page.goto('/cette-page-n-existe-pas');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Une erreur est survenue' })).toBeVisible();
  await expect(page.locator('main .code')).toHaveText('Erreur 404');
  await expect(page.getByText('Nous sommes désolé, mais la page n’est pas disponible pour le moment.')).toBeVisible();
  const home = page.getByRole('link', { name: "Retour à la page d'accueil" });
  await expect(home).toHaveAttribute('href', '/');
  await expect(page).toHaveTitle(/ \| Contrechamp$/);
});

test('the developer message and stack never show in production', async ({ page }) => {
  await page.goto('/une/route/inconnue');
  await expect(page.getByText(/Page not found/i)).toHaveCount(0);
  await expect(page.locator('details.dev')).toHaveCount(0);
});

test('search and preview crawlers get the status code without the error page', async ({ request }) => {
  for (const ua of ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'facebookexternalhit/1.1', 'Twitterbot/1.0']) {
    const response = await request.get('/cette-page-n-existe-pas', { headers: { 'User-Agent': ua } });
    expect(response.status(), ua).toBe(404);
    expect(await response.text(), ua).not.toContain('Une erreur est survenue');
  }
  // People still get the page.
  const person = await request.get('/cette-page-n-existe-pas');
  expect(await person.text()).toContain('Une erreur est survenue');
});

test('a campaign source that is not a slug is refused with the error page', async ({ request }) => {
  for (const path of ['/soutenir/%3Cscript%3E', '/soutenir/dons/a%20b', '/activer-cadeau/%22%3E']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).toContain('Une erreur est survenue');
  }
});

test('unknown slugs of dynamic routes are 404s, not empty pages', async ({ request }) => {
  for (const path of [
    '/articles/2026/inconnu',
    '/articles/inconnue',
    '/dossiers/inconnu',
    '/podcasts/inconnu',
    '/auteurs/inconnu',
    '/tags/inconnu',
    '/articles/page/999',
  ]) {
    expect((await request.get(path)).status(), path).toBe(404);
  }
});
