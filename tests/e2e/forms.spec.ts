/**
 * Every form of the site, as readers use them: reached by clicking through the ClientRouter,
 * again after Back and Forward, and without JavaScript. Each one posts to a page rendered on
 * demand, which answers 303 (with a one-shot message) or the page again with a 4xx status and
 * the message in the form. No request may carry a secret in its URL (tests/helpers/guard.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { createReaderAccount, linkFromMail, outboxDir } from '../helpers/accounts';
import { latestMailTo, linksIn } from '../helpers/outbox';
import { plainSpaces } from '../helpers/site';

test.beforeEach(async ({ page }) => {
  // Whether the router is between a navigation's start and its page-load (see `arrived`).
  await page.addInitScript(() => {
    const w = window as unknown as { __routerBusy?: boolean };
    document.addEventListener('astro:before-preparation', () => {
      w.__routerBusy = true;
    });
    document.addEventListener('astro:page-load', () => {
      w.__routerBusy = false;
    });
  });
});

const header = (page: Page) => page.locator('header.site-header');
const accountNav = (page: Page) => page.getByRole('complementary', { name: 'Mon compte' });
const alert = (page: Page) => page.locator('main').getByRole('alert');
const status = (page: Page) => page.locator('main').getByRole('status');

/** Marks the document: still there after a flow, the flow went through the router (no load). */
async function markDocument(page: Page) {
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
}
async function expectSameDocument(page: Page) {
  expect(
    await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true),
    'the router swapped pages in, no full load',
  ).toBe(true);
}

/**
 * The page at `url` is in place: the address, and the router's swap finished (during a view
 * transition the page does not take clicks yet, for a reader as for a test).
 */
async function arrived(page: Page, url: RegExp) {
  await expect(page).toHaveURL(url);
  await settled(page);
}
async function settled(page: Page) {
  // The address changes a moment before the new page is in: let the swap end, as a reader would.
  await page.waitForTimeout(250);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __routerBusy?: boolean }).__routerBusy === true)).toBe(false);
  await expect(page.locator('html')).not.toHaveAttribute('data-astro-transition', /./);
}

/** Back, then Forward, landing on the same address again. */
async function backAndForth(page: Page, here: RegExp) {
  await arrived(page, here);
  const title = await page.title();
  await page.goBack();
  await expect(page).not.toHaveURL(here);
  await settled(page);
  await expect(page).not.toHaveTitle(title);
  await page.goForward();
  await arrived(page, here);
  await expect(page).toHaveTitle(title);
}

async function fillSignIn(page: Page, email: string, password: string) {
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Signs in from the home page, by the header's icon. */
async function signInByClicks(page: Page, email: string, password: string) {
  await page.goto('/');
  await markDocument(page);
  await header(page).getByRole('link', { name: 'Se connecter' }).click();
  await arrived(page, /\/login$/);
  await fillSignIn(page, email, password);
  await arrived(page, /\/mon-compte$/);
}

test.describe('with JavaScript, through the router', () => {
  // Whole journeys (several sign-ins, each a real password hash): more than the default 30 s on a busy machine.
  test.describe.configure({ timeout: 60_000 });
  test('“Mot de passe oublié”, Back, then sign in: signed in, no password in any URL', async ({ page }) => {
    await page.goto('/login');
    await markDocument(page);
    await page.getByRole('link', { name: 'Mot de passe oublié' }).click();
    await arrived(page, /\/modifier-mon-mot-de-passe$/);
    await page.goBack();
    await arrived(page, /\/login$/);
    await fillSignIn(page, 'lecteur@exemple.fr', 'motdepasse-demo');
    await arrived(page, /\/mon-compte$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Mon compte' })).toBeVisible();
    // The header's menu tells the truth without a reload.
    await expect(header(page).getByRole('button', { name: /Mon compte/ })).toBeVisible();
    await expectSameDocument(page);
  });

  test('account → Mes informations → Tableau de bord → Mes informations, then a new password', async ({ page }) => {
    const reader = await createReaderAccount();
    await signInByClicks(page, reader.email, reader.password);
    await accountNav(page).getByRole('link', { name: 'Mes informations' }).click();
    await arrived(page, /\/mon-compte\/mes-informations$/);
    await accountNav(page).getByRole('link', { name: 'Tableau de bord' }).click();
    await arrived(page, /\/mon-compte$/);
    await accountNav(page).getByRole('link', { name: 'Mes informations' }).click();
    await arrived(page, /\/mon-compte\/mes-informations$/);
    // A wrong current password first: refused, nothing changes.
    await page.locator('#current_password').fill('pas le bon');
    await page.locator('#new_password').fill('une toute nouvelle phrase');
    await page.getByRole('button', { name: 'Changer de mot de passe' }).click();
    await expect(page.locator('#mot-de-passe').getByRole('alert')).toHaveText('Le mot de passe actuel est incorrect.');
    await expect(page.locator('#current_password')).toHaveValue('');
    await page.locator('#current_password').fill(reader.password);
    await page.locator('#new_password').fill('une toute nouvelle phrase');
    await page.getByRole('button', { name: 'Changer de mot de passe' }).click();
    await expect(page.locator('#mot-de-passe').getByRole('status')).toHaveText('Votre mot de passe est modifié. Vos autres sessions sont fermées.');
    await arrived(page, /\/mon-compte\/mes-informations#mot-de-passe$/);
    await expectSameDocument(page);
    // Still signed in (a fresh session), and the new password is the one that works.
    await accountNav(page).getByRole('button', { name: 'Se déconnecter' }).click();
    await arrived(page, /\/$/);
    await header(page).getByRole('link', { name: 'Se connecter' }).click();
    await fillSignIn(page, reader.email, reader.password);
    await expect(alert(page)).toHaveText('Adresse e-mail ou mot de passe incorrect.');
    await fillSignIn(page, reader.email, 'une toute nouvelle phrase');
    await arrived(page, /\/mon-compte$/);
  });

  test('“Se déconnecter” after a click inside the account area signs out', async ({ page }) => {
    const reader = await createReaderAccount();
    await signInByClicks(page, reader.email, reader.password);
    await accountNav(page).getByRole('link', { name: 'Mes informations' }).click();
    await arrived(page, /\/mon-compte\/mes-informations$/);
    await accountNav(page).getByRole('button', { name: 'Se déconnecter' }).click();
    await arrived(page, /\/$/);
    await expect(header(page).getByRole('link', { name: 'Se connecter' })).toBeVisible();
    await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Déconnexion effectuée.')).toBeVisible();
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    await expectSameDocument(page);
    // Back to the account page: it asks to sign in again.
    await page.goto('/mon-compte');
    await arrived(page, /\/login\?redirect=%2Fmon-compte$/);
  });

  test('sign-in: a refusal after Back and Forward, French, the address kept and the password not', async ({ page }) => {
    const reader = await createReaderAccount();
    await page.goto('/');
    await markDocument(page);
    await header(page).getByRole('link', { name: 'Se connecter' }).click();
    await arrived(page, /\/login$/);
    await backAndForth(page, /\/login$/);
    await fillSignIn(page, reader.email, 'pas le bon mot de passe');
    await expect(alert(page)).toHaveText('Adresse e-mail ou mot de passe incorrect.');
    await expect(page.locator('#login-email')).toHaveValue(reader.email);
    await expect(page.locator('#login-password')).toHaveValue('');
    await backAndForth(page, /\/login$/);
    await fillSignIn(page, reader.email, reader.password);
    await arrived(page, /\/mon-compte$/);
    await expectSameDocument(page);
  });

  test('a sign-in link: asked for, then opened from the mail, signs in on the click, once', async ({ page, context }) => {
    const reader = await createReaderAccount();
    await page.goto('/');
    await markDocument(page);
    await header(page).getByRole('link', { name: 'Se connecter' }).click();
    await backAndForth(page, /\/login$/);
    const sent = new Date();
    await page.locator('#magic-email').fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    await expect(status(page)).toContainText('Si un compte existe à cette adresse, un lien de connexion vient d’y être envoyé.');
    await expectSameDocument(page);
    const link = await linkFromMail(reader.email, '/welcome/', sent);
    await page.goto(link);
    // The token left the address bar (and the history) before any script ran.
    await arrived(page, /\/welcome$/);
    // Whose account the link opens, masked: a link planted by someone else shows it.
    await expect(page.locator('main')).toContainText(`au compte ${reader.email.slice(0, 1)}•••@${reader.email.split('@')[1]}`);
    await page.getByRole('button', { name: 'Me connecter' }).click();
    await arrived(page, /\/mon-compte$/);
    await expect(status(page)).toHaveText('Connexion réussie. Bienvenue !');
    await expect(header(page).getByRole('button', { name: /Mon compte/ })).toBeVisible();
    // The same link again, signed out: it says so at once (no dead button), and sends a new one.
    await context.clearCookies();
    await page.goto(link);
    await arrived(page, /\/welcome$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ce lien de connexion ne fonctionne plus');
    await expect(page.getByRole('button', { name: 'Me connecter' })).toHaveCount(0);
    const again = new Date();
    await page.getByRole('button', { name: 'Recevoir un nouveau lien' }).click();
    await expect(status(page)).toContainText('Un nouveau lien de connexion vient d’être envoyé');
    await page.goto(await linkFromMail(reader.email, '/welcome/', again));
    await page.getByRole('button', { name: 'Me connecter' }).click();
    await arrived(page, /\/mon-compte$/);
  });

  test('a forgotten password: the request, then the new password from the mailed link', async ({ page }) => {
    const reader = await createReaderAccount();
    await page.goto('/login');
    await markDocument(page);
    await page.getByRole('link', { name: 'Mot de passe oublié' }).click();
    await backAndForth(page, /\/modifier-mon-mot-de-passe$/);
    const sent = new Date();
    await page.locator('#reset-email').fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir le lien' }).click();
    await expect(status(page)).toContainText('Si un compte existe à cette adresse, un lien pour choisir un nouveau mot de passe');
    await expectSameDocument(page);
    const link = await linkFromMail(reader.email, '/modifier-mon-mot-de-passe/', sent);
    await page.goto(link);
    await arrived(page, /\/modifier-mon-mot-de-passe\/nouveau$/);
    await markDocument(page);
    // Too short: the browser refuses it before anything is sent (the server refuses it too).
    await page.getByLabel('Nouveau mot de passe').fill('court');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    expect(await page.getByLabel('Nouveau mot de passe').evaluate((el: HTMLInputElement) => el.validity.tooShort)).toBe(true);
    await page.getByLabel('Nouveau mot de passe').fill('une toute nouvelle phrase');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(status(page)).toHaveText('Votre mot de passe a été modifié. Vous pouvez vous connecter.');
    await page.getByRole('link', { name: 'vous connecter' }).click();
    await fillSignIn(page, reader.email, 'une toute nouvelle phrase');
    await arrived(page, /\/mon-compte$/);
    await expectSameDocument(page);
  });

  test('the account forms: profile, e-mail change and its link, sessions, deletion', async ({ page }) => {
    const reader = await createReaderAccount();
    const newEmail = reader.email.replace('membre-', 'nouvelle-');
    await signInByClicks(page, reader.email, reader.password);
    await accountNav(page).getByRole('link', { name: 'Mes informations' }).click();
    await backAndForth(page, /\/mon-compte\/mes-informations$/);

    // Profile: a refusal keeps what was typed; then saved.
    const profile = page.locator('#profil');
    await page.getByLabel('Ville').fill('Marseille');
    // A country that is not in the list (a forged option) is refused.
    await page.getByLabel('Pays').evaluate((select: HTMLSelectElement) => {
      select.add(new Option('Nulle part', 'ZZ'));
      select.value = 'ZZ';
    });
    await profile.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(profile.getByRole('alert')).toHaveText('Choisissez un pays dans la liste.');
    await expect(page.getByLabel('Ville')).toHaveValue('Marseille');
    await page.getByLabel('Pays').selectOption({ label: 'Belgique' });
    await profile.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(profile.getByRole('status')).toHaveText('Vos informations sont enregistrées.');
    await expect(page.getByLabel('Ville')).toHaveValue('Marseille');
    await expect(page.getByLabel('Pays')).toHaveValue('BE');

    // E-mail change, confirmed from the new address.
    const sent = new Date();
    await page.getByLabel('Nouvelle adresse e-mail').fill(newEmail);
    await page.locator('#email_password').fill(reader.password);
    await page.getByRole('button', { name: 'Changer d’adresse' }).click();
    await expect(page.locator('#adresse-email').getByRole('status')).toHaveText(
      `Pour confirmer, cliquez sur le lien envoyé à ${newEmail}. Il est valable 24 heures.`,
    );
    await page.goto(await linkFromMail(newEmail, '/modifier-mon-email/', sent));
    await arrived(page, /\/modifier-mon-email\/confirmer$/);
    await markDocument(page);
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await expect(status(page)).toHaveText(`C’est fait : ${newEmail} est désormais l’adresse de votre compte.`);
    await page.getByRole('link', { name: 'Voir mes informations' }).click();
    await expect(page.locator('[data-current-email]')).toHaveText(newEmail);

    // Other sessions.
    await page.getByRole('button', { name: 'Déconnecter mes autres sessions' }).click();
    await expect(page.locator('#sessions').getByRole('status')).toHaveText('Aucune autre session n’était ouverte.');

    // Deletion: the word must be typed; then gone, and signed out.
    const deletion = page.locator('#suppression');
    await page.locator('#delete_password').fill(reader.password);
    await page.getByLabel('Pour confirmer, tapez SUPPRIMER').fill('supprimer');
    await deletion.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
    await expect(deletion.getByRole('alert')).toHaveText('Tapez SUPPRIMER pour confirmer.');
    await page.locator('#delete_password').fill(reader.password);
    await page.getByLabel('Pour confirmer, tapez SUPPRIMER').fill('SUPPRIMER');
    await deletion.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
    await arrived(page, /\/compte-supprime(#.*)?$/);
    await expect(status(page)).toContainText('Votre compte est supprimé.');
    await expect(header(page).getByRole('link', { name: 'Se connecter' })).toBeVisible();
    await expectSameDocument(page);
  });

  test('contact: a refusal keeps the message, then it is sent', async ({ page }) => {
    await page.goto('/');
    await markDocument(page);
    await header(page).getByRole('link', { name: 'Contact' }).click();
    await arrived(page, /\/contact$/);
    await backAndForth(page, /\/contact$/);
    const email = `contact-${Date.now()}@exemple.fr`;
    await page.getByLabel('Votre nom').fill('J');
    await page.locator('#contact-email').fill(email);
    await page.locator('#contact-message').fill('Bonjour, une question sur votre enquête.');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect(alert(page)).toHaveText('Indiquez votre nom.');
    await expect(page.locator('#contact-message')).toHaveValue('Bonjour, une question sur votre enquête.');
    const sent = new Date();
    await page.getByLabel('Votre nom').fill('Jeanne Lectrice');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await arrived(page, /\/contact\/envoyer/);
    await expect(status(page)).toContainText('Merci, votre message est bien parti.');
    const mail = await latestMailTo(outboxDir(), 'redaction@contrechamp.media', { after: sent });
    expect(mail.text).toContain('une question sur votre enquête');
    await expectSameDocument(page);
  });

  test('clean token pages without their token say so, and link to a new one', async ({ page }) => {
    for (const [path, message, again] of [
      ['/modifier-mon-mot-de-passe/nouveau', 'Ce lien n’est plus valable', 'Demander un nouveau lien'],
      ['/modifier-mon-email/confirmer', 'Ce lien de confirmation n’est plus valable', 'Demander un nouveau lien depuis mon compte'],
      ['/mailinglist/confirm', 'Ce lien de confirmation n’est plus valable', 'M’inscrire à nouveau'],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.headers()['cache-control'], path).toBe('no-store');
      expect(response?.headers()['referrer-policy'], path).toBe('no-referrer');
      await expect(alert(page), path).toContainText(message);
      await expect(page.getByRole('link', { name: again }), path).toBeVisible();
      await expect(page.locator('main form'), path).toHaveCount(0);
    }
    // The sign-in link's page asks for the address to send a new one to.
    const response = await page.goto('/welcome');
    expect(response?.headers()['cache-control']).toBe('no-store');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ce lien de connexion ne fonctionne plus');
    await expect(page.locator('main form')).toHaveCount(1);
    await expect(page.locator('main').getByLabel('Adresse e-mail', { exact: true })).toBeVisible();
  });
});

test.describe('without JavaScript', () => {
  test.describe.configure({ timeout: 60_000 });
  test.use({ javaScriptEnabled: false });

  test('sign in (refused, then accepted, back to the page asked for), and sign out', async ({ page }) => {
    const reader = await createReaderAccount();
    await page.goto('/mon-compte/mes-factures');
    await arrived(page, /\/login\?redirect=%2Fmon-compte%2Fmes-factures$/);
    await fillSignIn(page, reader.email, 'pas le bon');
    await expect(alert(page)).toHaveText('Adresse e-mail ou mot de passe incorrect.');
    await expect(page.locator('#login-email')).toHaveValue(reader.email);
    await fillSignIn(page, reader.email, reader.password);
    await arrived(page, /\/mon-compte\/mes-factures$/);
    await accountNav(page).getByRole('button', { name: 'Se déconnecter' }).click();
    await arrived(page, /\/$/);
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
  });

  test('a sign-in link, a password reset, and the account forms', async ({ page }) => {
    const reader = await createReaderAccount();
    let sent = new Date();
    await page.goto('/login');
    await page.locator('#magic-email').fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    await expect(status(page)).toContainText('Si un compte existe à cette adresse');
    await page.goto(await linkFromMail(reader.email, '/welcome/', sent));
    await arrived(page, /\/welcome$/);
    await page.getByRole('button', { name: 'Me connecter' }).click();
    await arrived(page, /\/mon-compte$/);
    await expect(status(page)).toHaveText('Connexion réussie. Bienvenue !');

    await accountNav(page).getByRole('link', { name: 'Mes informations' }).click();
    await page.getByLabel('Prénom').fill('Camille-Sans-Script');
    await page.locator('#profil').getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.locator('#profil').getByRole('status')).toHaveText('Vos informations sont enregistrées.');
    await expect(page.getByLabel('Prénom')).toHaveValue('Camille-Sans-Script');
    await page.locator('#current_password').fill(reader.password);
    await page.locator('#new_password').fill('une phrase sans script');
    await page.getByRole('button', { name: 'Changer de mot de passe' }).click();
    await expect(page.locator('#mot-de-passe').getByRole('status')).toHaveText('Votre mot de passe est modifié. Vos autres sessions sont fermées.');
    await page.getByRole('button', { name: 'Déconnecter mes autres sessions' }).click();
    await expect(page.locator('#sessions').getByRole('status')).toBeVisible();
    await accountNav(page).getByRole('button', { name: 'Se déconnecter' }).click();
    await arrived(page, /\/$/);

    sent = new Date();
    await page.goto('/modifier-mon-mot-de-passe');
    await page.locator('#reset-email').fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir le lien' }).click();
    await expect(status(page)).toContainText('Si un compte existe à cette adresse');
    await page.goto(await linkFromMail(reader.email, '/modifier-mon-mot-de-passe/', sent));
    await arrived(page, /\/modifier-mon-mot-de-passe\/nouveau$/);
    await page.getByLabel('Nouveau mot de passe').fill('encore une autre phrase');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(status(page)).toHaveText('Votre mot de passe a été modifié. Vous pouvez vous connecter.');
    await page.getByRole('link', { name: 'vous connecter' }).click();
    await fillSignIn(page, reader.email, 'encore une autre phrase');
    await arrived(page, /\/mon-compte$/);

    // E-mail change and its link.
    const newEmail = reader.email.replace('membre-', 'sans-script-');
    sent = new Date();
    await page.goto('/mon-compte/mes-informations');
    await page.getByLabel('Nouvelle adresse e-mail').fill(newEmail);
    await page.locator('#email_password').fill('encore une autre phrase');
    await page.getByRole('button', { name: 'Changer d’adresse' }).click();
    await expect(page.locator('#adresse-email').getByRole('status')).toContainText(newEmail);
    await page.goto(await linkFromMail(newEmail, '/modifier-mon-email/', sent));
    await page.getByRole('button', { name: 'Confirmer' }).click();
    await expect(status(page)).toContainText(`${newEmail} est désormais l’adresse de votre compte`);

    // Deletion.
    await page.goto('/mon-compte/mes-informations');
    await page.locator('#delete_password').fill('encore une autre phrase');
    await page.getByLabel('Pour confirmer, tapez SUPPRIMER').fill('SUPPRIMER');
    await page.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
    await arrived(page, /\/compte-supprime(#.*)?$/);
    await expect(status(page)).toContainText('Votre compte est supprimé.');
  });

  test('the footer newsletter form subscribes on /mailinglist; confirm and unsubscribe by their links', async ({ page, secrets }) => {
    const email = `sans-script-${Date.now()}@exemple.fr`;
    await page.goto('/articles');
    const footer = page.locator('footer');
    const sent = new Date();
    await footer.getByLabel('Votre adresse e-mail').fill(email);
    await footer.getByRole('button', { name: 'Je m’inscris' }).click();
    await arrived(page, /\/mailinglist(#.*)?$/);
    await expect(page.locator('#page-newsletter-title').locator('..').locator('[data-newsletter-text]')).toContainText(
      `Merci ! Un e-mail de confirmation vient d’être envoyé à ${email}`,
    );
    const mail = await latestMailTo(outboxDir(), email, { after: sent });
    const confirm = linksIn(mail.text).find((l) => l.includes('/mailinglist/confirm'))!;
    secrets.allow(confirm);
    await page.goto(confirm);
    await arrived(page, /\/mailinglist\/confirm$/);
    await page.getByRole('button', { name: 'Confirmer mon inscription' }).click();
    await expect(status(page)).toHaveText('C’est confirmé : vous recevrez les lettres d’information que vous avez choisies.');
    const welcome = await latestMailTo(outboxDir(), email, { after: new Date(mail.date.getTime() + 1) });
    const unsubscribe = linksIn(welcome.text).find((l) => l.includes('/mailinglist/unsubscribe'))!;
    secrets.allow(unsubscribe);
    await page.goto(unsubscribe);
    await arrived(page, /\/mailinglist\/unsubscribe$/);
    await page.getByRole('button', { name: 'Me désinscrire' }).click();
    await expect(status(page)).toHaveText('C’est fait : vous ne recevrez plus aucune de nos lettres d’information.');
  });

  test('a bad newsletter address is refused in French, the address kept', async ({ page }) => {
    await page.goto('/mailinglist');
    await page.locator('#page-newsletter-email').fill('pas-une-adresse@');
    // The browser's own check is what a reader meets first; bypass it to see the server's.
    await page.locator('#page-newsletter-email').evaluate((el: HTMLInputElement) => el.form!.setAttribute('novalidate', ''));
    await page.locator('#page-newsletter-email').evaluate((el: HTMLInputElement) => el.form!.requestSubmit());
    await expect(page.locator('#page-newsletter-error')).toHaveText('Adresse e-mail invalide.');
    await expect(page.locator('#page-newsletter-email')).toHaveValue('pas-une-adresse@');
  });

  test('contact: refused with the message kept, then sent', async ({ page }) => {
    await page.goto('/contact');
    await page.getByLabel('Votre nom').fill('J');
    await page.locator('#contact-email').fill(`contact-nojs-${Date.now()}@exemple.fr`);
    await page.getByLabel('Sujet').selectOption('societariat');
    await page.locator('#contact-message').fill('Bonjour, comment devenir sociétaire ?');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect(alert(page)).toHaveText('Indiquez votre nom.');
    await expect(page.getByLabel('Sujet')).toHaveValue('societariat');
    await expect(page.locator('#contact-message')).toHaveValue('Bonjour, comment devenir sociétaire ?');
    await page.getByLabel('Votre nom').fill('Jeanne');
    await page.getByRole('button', { name: 'Envoyer' }).click();
    await expect(status(page)).toContainText('Merci, votre message est bien parti.');
  });
});

test('the server refuses a form from another site, an unknown type, a file, and too large a body', async ({ request, baseURL }) => {
  const foreign = await request.post('/login', {
    headers: { Origin: 'https://evil.example' },
    form: { form: 'password', email: 'lecteur@exemple.fr', password: 'motdepasse-demo' },
  });
  expect(foreign.status()).toBe(403);
  expect(plainSpaces(await foreign.text())).toContain('Requête refusée : origine non autorisée.');
  expect(foreign.headers()['set-cookie'] ?? '').not.toContain('cc_session');
  const json = await request.post('/login', { headers: { Origin: baseURL!, 'Content-Type': 'application/json' }, data: Buffer.from('{}') });
  expect(json.status()).toBe(415);
  const file = await request.post('/contact/envoyer', {
    headers: { Origin: baseURL! },
    multipart: {
      name: 'Jeanne',
      email: 'a@exemple.fr',
      subject: 'autre',
      message: 'Un message assez long.',
      website: { name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('x') },
    },
  });
  expect(file.status()).toBe(415);
  const large = await request.post('/contact/envoyer', {
    headers: { Origin: baseURL! },
    form: { name: 'Jeanne', email: 'a@exemple.fr', subject: 'autre', message: 'é'.repeat(40_000) },
  });
  expect(large.status()).toBe(413);
  // A gift code with a character that codes never hold is refused before any lookup.
  const gift = await request.post('/activer-cadeau', { headers: { Origin: baseURL! }, form: { form: 'code', code: 'CADEAU-2026' } });
  expect(gift.status()).toBe(422);
  expect(await gift.text()).toContain('n’existe pas dans nos codes cadeaux');
});

test('every form of the site posts to a page, or is a search', async ({ page }) => {
  for (const path of [
    '/',
    '/login',
    '/modifier-mon-mot-de-passe',
    '/contact',
    '/mailinglist',
    '/soutenir/dons',
    '/activer-cadeau',
    '/devenir-societaire/souscrire',
    '/rechercher',
  ]) {
    await page.goto(path);
    const forms = await page
      .locator('form')
      .evaluateAll((all) => all.map((f) => ({ method: f.getAttribute('method'), action: f.getAttribute('action'), role: f.getAttribute('role') })));
    for (const form of forms) {
      if (form.role === 'search') expect(form, path).toMatchObject({ method: 'get', action: '/rechercher' });
      else expect(form.method, `${path} ${form.action}`).toBe('post');
      expect(form.action, path).toMatch(/^\//);
    }
  }
});

test('a signed-in crawl by clicks through the router never puts a password or a token in a URL', async ({ page }) => {
  // A crawl of every page reached by clicks: it takes over a minute on two busy cores.
  test.setTimeout(240_000);
  await signInByClicks(page, 'societaire@exemple.fr', 'motdepasse-demo');
  const gets: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).origin === new URL(page.url()).origin) gets.push(request.url());
  });
  const must = [
    '/mon-compte',
    '/mon-compte/mes-informations',
    '/mon-compte/mes-abonnements',
    '/mon-compte/mes-factures',
    '/mon-compte/societariat',
    '/contact',
    '/mailinglist',
    '/login',
    '/modifier-mon-mot-de-passe',
    '/soutenir/dons',
    '/rechercher',
  ];
  const seen = new Set<string>();
  const queue = ['/', ...must];
  await page.goto('/');
  await markDocument(page);
  await settled(page);
  while (queue.length > 0 && seen.size < 60) {
    const target = queue.shift()!;
    if (seen.has(target)) continue;
    // Reach the page by clicking a link to it on the current page when there is one.
    const link = page.locator(`a[href="${target}"]:visible`).first();
    const before = new URL(page.url()).pathname;
    // The page is settled: the step before ended with it (or with the first page's load).
    const clicked =
      (await link.count()) > 0 &&
      (await link.click({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ));
    if (clicked) {
      if (target !== before) await page.waitForURL((url) => url.pathname !== before, { timeout: 10_000 }).catch(() => {});
    } else await page.goto(target);
    await settled(page);
    seen.add(target);
    seen.add(new URL(page.url()).pathname);
    // Download links (bulletins, certificates, minutes) are files, not pages to crawl.
    const hrefs = await page.locator('a[href^="/"]:not([download])').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    for (const href of hrefs) {
      const path = href.split('#')[0]!;
      if (!path || seen.has(path) || queue.includes(path) || /\.(xml|json|mp3|png|svg|pdf)$|^\/api\/|^\/logout|^\/_/.test(path)) continue;
      queue.push(path);
    }
  }
  expect(seen.size).toBeGreaterThanOrEqual(30);
  for (const path of must) expect([...seen], path).toContain(path);
  const leaks = gets.filter((url) => [...new URL(url).searchParams.keys()].some((name) => /pass|token|secret|code/i.test(name)));
  expect(leaks).toEqual([]);
  // Still signed in after the walk: no link signed out.
  await expect(header(page).getByRole('button', { name: /Mon compte/ })).toBeVisible();
});
