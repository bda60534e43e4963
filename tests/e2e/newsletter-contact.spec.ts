import { expect, test } from '../helpers/e2e';
import { latestMailTo, linksIn } from '../helpers/outbox';
import { outboxDir } from '../helpers/accounts';
import { islandReady } from '../helpers/site';

test('the footer newsletter form: empty is refused; filled, it confirms in place and the mail confirms', async ({ page }) => {
  const email = `lectrice-${Date.now()}@exemple.fr`;
  const posts: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/mailinglist')) posts.push(request.url());
  });
  await page.goto('/articles');
  const footer = page.locator('footer');
  const text = footer.locator('[data-newsletter-text]');
  const field = footer.getByLabel('Votre adresse e-mail');
  // The form's island loads when the reader comes to the field (client:focus).
  await field.focus();
  await islandReady(page, '[data-newsletter-text]');
  // Before submitting: the explanatory text.
  await expect(text).toContainText('choisissez les vôtres');

  // Empty: the browser refuses, nothing is sent.
  await footer.getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(page).toHaveURL(/\/articles$/);
  expect(await field.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  expect(posts).toEqual([]);

  // Filled: the confirmation text takes the explanation's place, and the field is cleared.
  const sent = new Date();
  await field.fill(email);
  await footer.getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(text).toContainText(`Merci ! Un e-mail de confirmation vient d’être envoyé à ${email}`);
  await expect(text).not.toContainText('choisissez les vôtres');
  await expect(field).toHaveValue('');
  await expect(page).toHaveURL(/\/articles$/);
  expect(posts).toHaveLength(1);
  await expect(footer.getByRole('alert')).toHaveCount(0);

  const mail = await latestMailTo(outboxDir(), email, { after: sent });
  expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:\d+\/api\/mailinglist\/unsubscribe\?token=/);
  await page.goto(linksIn(mail.text).find((l) => l.includes('/mailinglist/confirm'))!);
  await expect(page).toHaveURL(/\/mailinglist\/confirm$/);
  await page.getByRole('button', { name: 'Confirmer mon inscription' }).click();
  await expect(page.locator('main').getByRole('status')).toContainText('C’est confirmé');
  // The welcome mail carries the unsubscribe link; one click and a confirmation.
  const welcome = await latestMailTo(outboxDir(), email, { after: new Date(mail.date.getTime() + 1) });
  await page.goto(linksIn(welcome.text).find((l) => l.includes('/mailinglist/unsubscribe'))!);
  await page.getByRole('button', { name: 'Me désinscrire' }).click();
  await expect(page.locator('main').getByRole('status')).toContainText('vous ne recevrez plus aucune de nos lettres');
});

test('the newsletter form shows the API’s refusal, and a lost connection, in an alert', async ({ page }) => {
  await page.goto('/articles');
  const block = page.locator('footer [data-newsletter]');
  const field = block.getByLabel('Votre adresse e-mail');
  await field.focus();
  await islandReady(page, '#footer-newsletter-email');
  await page.route('**/api/mailinglist/', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 429, message: 'Trop de demandes. Réessayez dans 1 minute.' }),
    }),
  );
  await field.fill('lea@exemple.fr');
  await block.getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(block.getByRole('alert')).toHaveText('Trop de demandes. Réessayez dans 1 minute.');
  // Nothing was confirmed: the explanation stays, and so does the address, to try again.
  await expect(block.locator('[data-newsletter-text]')).toContainText('choisissez les vôtres');
  await expect(field).toHaveValue('lea@exemple.fr');

  await page.unroute('**/api/mailinglist/');
  await page.route('**/api/mailinglist/', (route) => route.abort('internetdisconnected'));
  await block.getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(block.getByRole('alert')).toContainText('Vérifiez votre connexion');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the footer newsletter form posts to /mailinglist, which confirms (no address in the URL)', async ({ page }) => {
    await page.goto('/articles');
    const footer = page.locator('footer');
    await footer.getByLabel('Votre adresse e-mail').fill('lea@exemple.fr');
    await footer.getByRole('button', { name: 'Je m’inscris' }).click();
    await expect(page).toHaveURL(/\/mailinglist(#[\w-]*)?$/);
    await expect(page.locator('main [data-newsletter-text]')).toContainText('Merci ! Un e-mail de confirmation vient d’être envoyé à lea@exemple.fr');
  });
});

test('the mailing-list API requires the site’s client credential and never says who is subscribed', async ({ request, baseURL }) => {
  const headers = { Origin: baseURL!, 'Content-Type': 'application/json' };
  expect((await request.post('/api/mailinglist/', { headers, data: { email: 'a@exemple.fr' } })).status()).toBe(401);
  const ask = (email: string) => request.post('/api/mailinglist/', { headers: { ...headers, 'X-Client-Id': 'contrechamp-site' }, data: { email } });
  // A subscribed address (the box ticked in a reader's profile) and a new one get the same answer.
  const unknown = await ask(`nouvelle-${Date.now()}@exemple.fr`);
  const again = await ask(`nouvelle-${Date.now()}@exemple.fr`);
  expect(unknown.status()).toBe(202);
  expect(again.status()).toBe(202);
  expect(await again.json()).toEqual(await unknown.json());
  const bad = await request.post('/api/mailinglist/', { headers: { ...headers, 'X-Client-Id': 'contrechamp-site' }, data: { email: 'pas-une-adresse' } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).message).toMatch(/adresse e-mail invalide/i);
});

test('a contact message reaches the newsroom, and a robot filling the honeypot sends nothing', async ({ page }) => {
  const email = `contact-${Date.now()}@exemple.fr`;
  await page.goto('/contact');
  const sent = new Date();
  await page.getByLabel('Votre nom').fill('Jeanne Lectrice');
  await page.locator('#contact-email').fill(email);
  await page.getByLabel('Sujet').selectOption('redaction');
  await page.getByLabel('Votre message').fill('Bonjour, je voudrais signaler une erreur dans votre article sur l’eau.');
  await page.getByRole('button', { name: 'Envoyer' }).click();
  await expect(page).toHaveURL(/\/contact\/envoyer/);
  await expect(page.locator('main').getByRole('status')).toContainText('votre message est bien parti');
  const mail = await latestMailTo(outboxDir(), 'redaction@contrechamp.media', { after: sent });
  expect(mail.text).toContain('je voudrais signaler une erreur');
  expect(mail.headers['reply-to']).toContain(email);

  // A robot fills the hidden field: it is told the same, and the newsroom gets nothing.
  const robot = `robot-${Date.now()}@exemple.fr`;
  await page.getByRole('link', { name: 'Écrire un autre message' }).click();
  await page.getByLabel('Votre nom').fill('Robot');
  await page.locator('#contact-email').fill(robot);
  await page.getByLabel('Votre message').fill('Achetez nos produits miracles dès maintenant.');
  await page.locator('#contact-website').fill('http://spam.example', { force: true });
  await page.getByRole('button', { name: 'Envoyer' }).click();
  await expect(page.locator('main').getByRole('status')).toContainText('Merci');
  await expect(
    latestMailTo(outboxDir(), 'redaction@contrechamp.media', { after: new Date(mail.date.getTime() + 1), timeoutMs: 2000 }).then((m) => m.text),
  ).rejects.toThrow();
});

test('older English page names redirect permanently to their French routes, protected ones staying protected', async ({ page, request }) => {
  const response = await request.get('/account/bills', { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe('/mon-compte/mes-factures');
  await page.goto('/account/bills');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmon-compte%2Fmes-factures$/);
  expect((await request.get('/shop/payment', { maxRedirects: 0 })).headers().location).toBe('/soutenir/paiement');
  expect((await request.get('/account/nimporte-quoi', { maxRedirects: 0 })).status()).toBe(404);
});

test('encoded paths do not get around the sign-in check', async ({ request }) => {
  for (const path of ['/%6Don-compte', '/%6d%6f%6e-compte/mes-informations', '/mon-compte/./mes-factures', '/Mon-compte']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect([302, 404], path).toContain(response.status());
    if (response.status() === 302) expect(response.headers().location, path).toMatch(/^\/login\?redirect=/);
  }
});
