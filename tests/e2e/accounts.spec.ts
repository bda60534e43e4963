import { expect, test, type Page } from '../helpers/e2e';
import { createReaderAccount, linkFromMail } from '../helpers/accounts';

/** Signs in and waits for the reader area. */
async function signInOk(page: Page, email: string, password: string) {
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/mon-compte/);
}

async function signIn(page: Page, email: string, password: string, { remember = false } = {}) {
  await page.getByLabel('Adresse e-mail').first().fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  if (remember) await page.getByLabel('Se souvenir de moi').check();
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

test('a demo reader signs in, finds the account, and logs out', async ({ page, context }) => {
  await page.goto('/login');
  await signIn(page, 'lecteur@exemple.fr', 'motdepasse-demo');
  await expect(page).toHaveURL(/\/mon-compte$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mon compte' })).toBeVisible();
  const session = (await context.cookies()).find((c) => c.name === 'cc_session')!;
  // Without “Se souvenir de moi”, a browser-session cookie, HttpOnly.
  expect(session.expires).toBe(-1);
  expect(session.httpOnly).toBe(true);
  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/mon-compte');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmon-compte$/);
});

test('“Se souvenir de moi” keeps the session for 30 days', async ({ page, context }) => {
  const reader = await createReaderAccount();
  await page.goto('/login');
  await signIn(page, reader.email, reader.password, { remember: true });
  await expect(page).toHaveURL(/\/mon-compte$/);
  const session = (await context.cookies()).find((c) => c.name === 'cc_session')!;
  const days = (session.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29);
  expect(days).toBeLessThanOrEqual(30);
});

test('a wrong password gets a French message, and the same one as an unknown address', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, 'lecteur@exemple.fr', 'pas le bon mot de passe');
  const alert = page.getByRole('alert').first();
  await expect(alert).toHaveText('Adresse e-mail ou mot de passe incorrect.');
  await signIn(page, 'personne-inconnue@exemple.fr', 'pas le bon mot de passe');
  await expect(alert).toHaveText('Adresse e-mail ou mot de passe incorrect.');
  await expect(page).toHaveURL(/\/login/);
});

test('a protected page sends to sign-in and back; foreign redirects are ignored', async ({ page }) => {
  await page.goto('/mon-compte/mes-factures');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmon-compte%2Fmes-factures$/);
  await signIn(page, 'abonne@exemple.fr', 'motdepasse-demo');
  await expect(page).toHaveURL(/\/mon-compte\/mes-factures$/);
  // The demo subscriber's invoices, receipts and the credit note of the withdrawn yearly subscription.
  const documents = page.getByRole('table');
  await expect(documents).toContainText('Abonnement Mensuel');
  await expect(documents).toContainText('Reçu de don');
  await expect(documents).toContainText(/Annule la facture F-\d{6}/);
  await page.context().clearCookies();
  for (const hostile of ['//evil.example', '/\\evil.example', 'https:evil.example', '%2F%2Fevil.example']) {
    await page.goto(`/login?redirect=${encodeURIComponent(hostile)}`);
    await signIn(page, 'abonne@exemple.fr', 'motdepasse-demo');
    await expect(page, hostile).toHaveURL(/localhost:\d+\/mon-compte$/);
    await page.context().clearCookies();
  }
});

test('a sign-in link from the outbox signs in on click, once', async ({ page }) => {
  const reader = await createReaderAccount();
  const sent = new Date();
  await page.goto('/login');
  await page.locator('#magic-email').fill(reader.email);
  await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
  await expect(page.getByText('Si un compte existe à cette adresse')).toBeVisible();
  const link = await linkFromMail(reader.email, '/welcome/', sent);
  await page.goto(link);
  // The token leaves the address bar at once; nothing happens before the click.
  await expect(page).toHaveURL(/\/welcome$/);
  await page.getByRole('button', { name: 'Me connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
  // The same link again: it says so, with no button that would sign in.
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.locator('main')).toContainText('Il a déjà servi ou il a expiré');
  await expect(page.getByRole('button', { name: 'Me connecter' })).toHaveCount(0);
});

test('a forgotten password is reset from the outbox, and the old one stops working', async ({ page }) => {
  const reader = await createReaderAccount();
  const sent = new Date();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Mot de passe oublié' }).click();
  await page.locator('#reset-email').fill(reader.email);
  await page.getByRole('button', { name: 'Recevoir le lien' }).click();
  await expect(page.getByText('Si un compte existe à cette adresse')).toBeVisible();
  await page.goto(await linkFromMail(reader.email, '/modifier-mon-mot-de-passe/', sent));
  // The token left the address bar (a cookie scoped to the clean page holds it).
  await expect(page).toHaveURL(/\/modifier-mon-mot-de-passe\/nouveau$/);
  // Too short: the browser refuses it before anything is sent (the server refuses it too).
  await page.getByLabel('Nouveau mot de passe').fill('court');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  expect(await page.getByLabel('Nouveau mot de passe').evaluate((el: HTMLInputElement) => el.validity.tooShort)).toBe(true);
  await page.getByLabel('Nouveau mot de passe').fill('une toute nouvelle phrase');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.locator('main').getByRole('status')).toContainText('Votre mot de passe a été modifié');
  await page.goto('/login');
  await signIn(page, reader.email, reader.password);
  await expect(page.getByRole('alert').first()).toHaveText('Adresse e-mail ou mot de passe incorrect.');
  await signIn(page, reader.email, 'une toute nouvelle phrase');
  await expect(page).toHaveURL(/\/mon-compte$/);
});

test('the e-mail address changes once the new one confirms', async ({ page }) => {
  const reader = await createReaderAccount();
  const newEmail = reader.email.replace('membre-', 'nouvelle-');
  await page.goto('/login');
  await signInOk(page, reader.email, reader.password);
  await page.goto('/mon-compte/mes-informations');
  const sent = new Date();
  await page.getByLabel('Nouvelle adresse e-mail').fill(newEmail);
  await page.locator('#email_password').fill(reader.password);
  await page.getByRole('button', { name: 'Changer d’adresse' }).click();
  await expect(page.getByText(`Pour confirmer, cliquez sur le lien envoyé à ${newEmail}`)).toBeVisible();
  // The old address is told, the new one gets the link.
  await linkFromMail(reader.email, '/modifier-mon-mot-de-passe', sent);
  await page.goto(await linkFromMail(newEmail, '/modifier-mon-email/', sent));
  await expect(page).toHaveURL(/\/modifier-mon-email\/confirmer$/);
  await page.getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.locator('main').getByRole('status')).toContainText(`${newEmail} est désormais l’adresse de votre compte`);
  await page.goto('/mon-compte/mes-informations');
  await expect(page.locator('[data-current-email]')).toHaveText(newEmail);
});

test('a reader exports their data, then deletes the account', async ({ page }) => {
  const reader = await createReaderAccount();
  await page.goto('/login');
  await signInOk(page, reader.email, reader.password);
  await page.goto('/mon-compte/mes-informations');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exporter mes données' }).click();
  const file = await (await download).path();
  const data = JSON.parse((await import('node:fs')).readFileSync(file!, 'utf8'));
  expect(data.account.email).toBe(reader.email);
  expect(JSON.stringify(data)).not.toMatch(/scrypt|password_hash|id_hash/);

  await page.locator('#delete_password').fill(reader.password);
  await page.getByLabel('Pour confirmer, tapez SUPPRIMER').fill('supprimer');
  await page.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText('SUPPRIMER');
  await page.locator('#delete_password').fill(reader.password);
  await page.getByLabel('Pour confirmer, tapez SUPPRIMER').fill('SUPPRIMER');
  await page.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
  await expect(page).toHaveURL(/\/compte-supprime(#.*)?$/);
  await expect(page.locator('main').getByRole('status')).toContainText('Votre compte est supprimé.');
  await page.goto('/login');
  await signIn(page, reader.email, reader.password);
  await expect(page.getByRole('alert').first()).toHaveText('Adresse e-mail ou mot de passe incorrect.');
});

test('account pages are never cached, and the API refuses cross-site and non-JSON requests', async ({ page, request, baseURL }) => {
  await page.goto('/login');
  await signIn(page, 'societaire@exemple.fr', 'motdepasse-demo');
  await expect(page).toHaveURL(/\/mon-compte$/);
  const response = await page.request.get('/mon-compte');
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  for (const [contentType, data] of [
    ['text/plain', '{"email":"a@b.fr","password":"x"}'],
    ['application/x-www-form-urlencoded', 'email=a%40b.fr&password=x'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/json', '{"email":"a@b.fr","password":"x"}'],
  ]) {
    const foreign = await request.post('/api/auth/login', {
      headers: { Origin: 'https://evil.example', 'Content-Type': contentType! },
      data: Buffer.from(data!),
    });
    expect(foreign.status(), contentType).toBe(403);
  }
  const plain = await request.post('/api/auth/login', { headers: { Origin: baseURL!, 'Content-Type': 'text/plain' }, data: Buffer.from('{}') });
  expect(plain.status()).toBe(415);
  expect((await plain.json()).message).toContain('JSON');
  const malformed = await request.post('/api/auth/login', {
    headers: { Origin: baseURL!, 'Content-Type': 'application/json' },
    data: Buffer.from('{"email": '),
  });
  expect(malformed.status()).toBe(400);
  expect(await malformed.json()).toMatchObject({ statusCode: 400, message: 'JSON invalide.' });
});

test('the proxy relays only allow-listed resources, on this origin, with French errors', async ({ request, baseURL }) => {
  const headers = { Origin: baseURL!, 'Content-Type': 'application/json' };
  const post = (path: string, resource: string, method = 'POST') =>
    request.post(`/api/proxy${path}`, { headers, data: { resource, options: { method, body: { email: 'a@exemple.fr' } } } });
  expect((await post('/profile/reset-password-notification/', '/profile/reset-password-notification/')).status()).toBe(200);
  const unknown = await post('/admin/users/', '/admin/users/');
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toMatchObject({ statusCode: 404, statusMessage: 'Not Found', message: expect.stringMatching(/[a-zé]/) });
  expect((await post('/profile/reset-password-notification/', '/profile/reset-password-notification/', 'DELETE')).status()).toBe(405);
  // Each hostile resource sent to its own address, so that the URL builder itself is tested.
  for (const resource of [
    '//evil.example/x/',
    '/profile/../admin/',
    '/profile%2Freset-password/',
    '/profile\\reset-password/',
    '/profile/reset-password/?x=1',
  ]) {
    const response = await request.post(`/api/proxy${resource.replace(/^\/+/, '/')}`, { headers, data: { resource, options: { method: 'POST', body: {} } } });
    expect(response.status(), resource).toBeGreaterThanOrEqual(400);
    expect(response.status(), resource).toBeLessThan(500);
  }
  // A failed reset comes back as an error object, not a crash.
  const reset = await request.post('/api/proxy/profile/reset-password/', {
    headers,
    data: { resource: '/profile/reset-password/', options: { method: 'POST', body: { new_password: 'une phrase assez longue', token: 'faux' } } },
  });
  expect(reset.status()).toBe(400);
  expect((await reset.json()).message).toContain('n’est plus valable');
});

test('links in e-mails come from the configured site address, never from the request’s Host', async ({ request, baseURL }) => {
  const reader = await createReaderAccount();
  const sent = new Date();
  const response = await request.post('/api/auth/magic-link', {
    headers: { Origin: baseURL!, 'Content-Type': 'application/json', Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' },
    data: { email: reader.email },
  });
  expect(response.status()).toBe(200);
  const link = await linkFromMail(reader.email, '/welcome/', sent);
  expect(new URL(link).origin).toBe(new URL(baseURL!).origin);
});

test('the health check says the server and its database answer', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok', live: true, ready: true, checks: { database: { status: 'ok' }, build: { status: 'ok' } } });
  expect(response.headers()['cache-control']).toBe('no-store');
  // The build it names is the one the pages carry (the client reloads in full on a newer one).
  const home = await (await request.get('/')).text();
  const body = await response.json();
  expect(home).toContain(`<meta name="build-id" content="${body.checks.build.id}"`);
  const live = await request.get('/api/health?probe=live');
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok', live: true });
});
