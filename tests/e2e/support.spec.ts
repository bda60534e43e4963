/**
 * The support path as readers walk it, against the production build and its simulated payment
 * provider: offer → account step → payment → the provider's page → confirmation, for each plan,
 * donations, 3-D Secure, SEPA (SIMULATED_SEPA_DELAY_SECONDS is a few seconds in
 * playwright.config.ts), a declined card, an account created on the way, a sign-in link, a double
 * submission, someone else's order, and without JavaScript. What the reader cannot see (one
 * order, the campaign recorded) is read in the test server's database.
 */
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { openDatabase } from '../../src/server/db/client';
import { expect, test } from '../helpers/guard';
import { look, waitForMail } from '../helpers/browse';
import { createReaderAccount, linkFromMail } from '../helpers/accounts';
import { fillPaymentAndPay, payOnProvider } from '../helpers/payment';

test.describe.configure({ timeout: 60_000 });

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

const DEMO = { email: 'lecteur@exemple.fr', password: 'motdepasse-demo' };
const main = (page: Page) => page.locator('main');
const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/support';

/** The page at `url` is in place, and the router's swap (if any) has ended. */
async function arrived(page: Page, url: RegExp) {
  await expect(page).toHaveURL(url);
  await page.waitForTimeout(200);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __routerBusy?: boolean }).__routerBusy === true)).toBe(false);
  await expect(page.locator('html')).not.toHaveAttribute('data-astro-transition', /./);
}

async function signIn(page: Page, email: string, password: string) {
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Signs in first, from /login. */
async function signedIn(page: Page, reader: { email: string; password: string }) {
  await page.goto('/login');
  await signIn(page, reader.email, reader.password);
  await arrived(page, /\/mon-compte$/);
}

/** Reloads until `locator` shows: the provider's notifications reach the site a moment later. */
async function reloadUntil(page: Page, locator: Locator, timeout = 20_000) {
  await expect(async () => {
    if (!(await locator.isVisible())) {
      await page.reload();
      await expect(locator).toBeVisible({ timeout: 1_500 });
    }
  }).toPass({ timeout, intervals: [500, 1_000] });
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const orderIdOf = (page: Page) => {
  const url = new URL(page.url());
  return url.searchParams.get('commande') ?? url.pathname.split('/').pop()!;
};
/** A paid donation's confirmation hands over to its one thank-you page, with the next steps. */
const DONATION_THANKS = /\/soutenir\/dons\/merci\?commande=[\w-]+$/;

/** Reads the test server's database. */
async function inDatabase<T>(read: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const handle = openDatabase({ kind: 'sqlite', path: resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'contrechamp.db') });
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}
const ordersOf = (email: string) =>
  inDatabase((db) => db.selectFrom('orders').innerJoin('users', 'users.id', 'orders.user_id').selectAll('orders').where('users.email', '=', email).execute());
const orderRow = (id: string) => inDatabase((db) => db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
const subscriptionOf = (orderId: string) =>
  inDatabase(async (db) => {
    const order = await db.selectFrom('orders').select('subscription_id').where('id', '=', orderId).executeTakeFirstOrThrow();
    return db.selectFrom('subscriptions').selectAll().where('id', '=', order.subscription_id!).executeTakeFirstOrThrow();
  });

test('the offers: prices with VAT and their equivalents, and the truth about taxes on donations', async ({ page }) => {
  await page.goto('/soutenir/abonnement');
  const monthly = main(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Mensuel', exact: true }) });
  await expect(monthly).toContainText('7 € par mois');
  await expect(monthly).toContainText('soit 84 € par an');
  await expect(monthly).toContainText('TVA 2,1 % incluse');
  const yearly = main(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Annuel', exact: true }) });
  await expect(yearly).toContainText('70 € par an');
  await expect(yearly).toContainText('soit 5,83 € par mois');
  await expect(main(page).getByRole('button', { name: /^Choisir/ })).toHaveCount(4);

  await page.goto('/soutenir/dons');
  await expect(main(page)).toContainText('n’ouvre droit à aucune réduction d’impôt');
  await expect(main(page).getByRole('link', { name: 'Presse et Pluralisme, sur J’aime l’info' })).toHaveAttribute('href', 'https://jaimelinfo.fr/');
  await expect(main(page)).not.toContainText('après réduction');

  await page.goto('/soutenir/abonnement/offrir');
  await expect(main(page).getByRole('button', { name: /^Offrir/ })).toHaveCount(2);
});

// Gifts have their own spec: tests/e2e/gifts.spec.ts.

test('a monthly subscription by card: offer, sign in, payment, provider, paid', async ({ page }) => {
  await page.goto('/soutenir/abonnement');
  await page.getByRole('button', { name: 'Choisir « Mensuel »' }).click();
  await arrived(page, /\/soutenir\/mon-compte\?formule=mensuel$/);
  await expect(page.getByRole('region', { name: 'Votre choix' })).toContainText('Abonnement Mensuel');
  await page.getByRole('link', { name: 'Me connecter' }).click();
  await arrived(page, /\/login\?redirect=%2Fsoutenir%2Fpaiement%3Fformule%3Dmensuel$/);
  await signIn(page, DEMO.email, DEMO.password);
  await arrived(page, /\/soutenir\/paiement\?formule=mensuel$/);
  const summary = page.getByRole('region', { name: 'Votre choix' });
  await expect(summary).toContainText('7 € par mois');
  await expect(summary).toContainText('Dont TVA 2,1 % : 0,14 €');
  await expect(summary).toContainText('reconduit tacitement chaque mois');
  await expect(
    page.getByText(
      'Dans les deux cas, si vous changez d’avis dans les 14 jours, nous vous remboursons intégralement (CGV, article 8) : utilisez la fonction « Se rétracter du contrat ici »',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Payer 7 €' })).toBeVisible();
  await fillPaymentAndPay(page);
  await expect(page.getByRole('cell', { name: '4242 4242 4242 4242' })).toBeVisible();
  await payOnProvider(page, '4242 4242 4242 4242');
  await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
  await reloadUntil(page, heading(page, 'Merci, c’est fait !'));
  await expect(main(page)).toContainText('Votre abonnement mensuel a commencé');
  await expect(main(page).getByRole('link', { name: 'Mes abonnements' })).toHaveAttribute('href', '/mon-compte/mes-abonnements');
  const orderId = orderIdOf(page);
  expect(await orderRow(orderId)).toMatchObject({ status: 'paid', amount_cents: 700, vat_cents: 14, method: 'card', offer_id: 'mensuel' });
  expect(await subscriptionOf(orderId)).toMatchObject({ status: 'active', plan_id: 'mensuel', payment_method: 'Carte •••• 4242' });
});

test('a yearly subscription with 3-D Secure, passed', async ({ page }) => {
  const reader = await createReaderAccount();
  await page.goto('/soutenir/paiement?formule=annuel');
  await arrived(page, /\/login\?redirect=%2Fsoutenir%2Fpaiement%3Fformule%3Dannuel$/);
  await signIn(page, reader.email, reader.password);
  await arrived(page, /\/soutenir\/paiement\?formule=annuel$/);
  // The yearly notice (L. 215-1) is stated before paying.
  await expect(page.getByRole('region', { name: 'Votre choix' })).toContainText('entre trois mois et un mois avant chaque échéance');
  await fillPaymentAndPay(page);
  await payOnProvider(page, '4000 0027 6000 3184');
  await expect(page.getByRole('heading', { name: 'Authentification 3-D Secure' })).toBeVisible();
  await page.getByRole('button', { name: 'Valider l’authentification' }).click();
  await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
  await reloadUntil(page, heading(page, 'Merci, c’est fait !'));
  expect(await subscriptionOf(orderIdOf(page))).toMatchObject({ status: 'active', plan_id: 'annuel', interval: 'year' });
});

test('the tarif solidaire by SEPA debit: pending first, then active', async ({ page }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/paiement?formule=solidaire-mensuel');
  await expect(page.getByText(/confirmé par votre banque jusqu’à 14 jours ouvrés plus tard/)).toBeVisible();
  await fillPaymentAndPay(page, { sepa: true });
  await arrived(page, /\/paiement-simule\/[\w-]+$/);
  await expect(page.getByRole('textbox', { name: 'IBAN' })).toBeVisible();
  await payOnProvider(page, 'FR14 2004 1010 0505 0001 3M02 606');
  await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
  await reloadUntil(page, heading(page, 'Votre prélèvement est en cours'), 10_000);
  await expect(main(page)).toContainText('la banque le confirme en général sous quelques jours, jusqu’à 14 jours ouvrés. Vous recevrez un e-mail.');
  // SIMULATED_SEPA_DELAY_SECONDS later, the bank says yes.
  await reloadUntil(page, heading(page, 'Merci, c’est fait !'), 30_000);
  expect(await subscriptionOf(orderIdOf(page))).toMatchObject({ status: 'active', plan_id: 'solidaire-mensuel', payment_method: 'Prélèvement SEPA •••• 2606' });
});

test('a one-off donation from a campaign link ends on a thank-you naming it; the campaign is recorded', async ({ page }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/dons/printemps');
  await page.getByRole('radio', { name: '50 €' }).check();
  await page.getByRole('button', { name: 'Je donne' }).click();
  // Signed in: straight from the offer to payment.
  await arrived(page, /\/soutenir\/paiement\?don=5000&frequence=unique&source=printemps$/);
  const summary = page.getByRole('region', { name: 'Votre choix' });
  await expect(summary).toContainText('Don ponctuel');
  await expect(summary).toContainText('Pas de TVA');
  await expect(page.getByLabel(/je demande expressément que mon abonnement commence/i)).toHaveCount(0);
  await expect(main(page)).toContainText('Un don n’ouvre pas de droit de rétractation');
  await fillPaymentAndPay(page);
  await payOnProvider(page, '4242424242424242');
  await arrived(page, /\/soutenir\/(confirmation\/[\w-]+|dons\/merci\?commande=[\w-]+)$/);
  await reloadUntil(page, heading(page, 'Merci pour votre don !'));
  await arrived(page, DONATION_THANKS);
  const orderId = orderIdOf(page);
  await expect(main(page)).toContainText('Votre don de 50 € est bien reçu.');
  await expect(page.getByRole('heading', { name: 'Et maintenant ?' })).toBeVisible();
  await expect(main(page)).not.toContainText('reçu fiscal');
  expect(await orderRow(orderId)).toMatchObject({ status: 'paid', purpose: 'donation', amount_cents: 5000, vat_cents: 0, source: 'printemps' });
  // Signed out, nobody is thanked: the page asks to sign in to see the donation.
  await page.context().clearCookies();
  await page.goto(`/soutenir/dons/merci?commande=${orderId}`);
  await expect(heading(page, 'Retrouver votre don')).toBeVisible();
  await expect(main(page)).not.toContainText('Merci');
  await expect(main(page)).not.toContainText('50 €');
});

test('a monthly donation of the reader’s own amount', async ({ page }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/dons');
  await page.getByRole('radio', { name: 'Tous les mois' }).check();
  await page.getByLabel('Autre montant, en euros').fill('12.50');
  await page.getByRole('button', { name: 'Je donne' }).click();
  await arrived(page, /\/soutenir\/paiement\?don=1250&frequence=mensuel$/);
  await expect(page.getByRole('region', { name: 'Votre choix' })).toContainText('12,50 € par mois');
  await fillPaymentAndPay(page);
  await payOnProvider(page, '4242424242424242');
  await arrived(page, /\/soutenir\/(confirmation\/[\w-]+|dons\/merci\?commande=[\w-]+)$/);
  await reloadUntil(page, heading(page, 'Merci pour votre don !'));
  await arrived(page, DONATION_THANKS);
  const orderId = orderIdOf(page);
  await expect(main(page)).toContainText('Votre don mensuel de 12,50 € a commencé.');
  expect(await subscriptionOf(orderId)).toMatchObject({ status: 'active', kind: 'donation', amount_cents: 1250, interval: 'month' });
});

test('a declined card ends on the failed state, with a way to try again', async ({ page }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/paiement?formule=mensuel');
  await fillPaymentAndPay(page);
  // Not a test number: the provider's page says which ones work, and nothing happens.
  await payOnProvider(page, '1234 5678 9012 3456');
  await expect(main(page).getByRole('alert')).toContainText('n’est pas une carte de test');
  await page.locator('#numero').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Payer \d/ }).click();
  await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
  await reloadUntil(page, heading(page, 'Le paiement n’a pas abouti'));
  await expect(main(page)).toContainText('Votre banque a refusé le paiement.');
  const retry = main(page).getByRole('link', { name: 'Réessayer' });
  await expect(retry).toHaveAttribute('href', '/soutenir/paiement?formule=mensuel');
  expect(await orderRow(orderIdOf(page))).toMatchObject({ status: 'failed' });
  await retry.click();
  await arrived(page, /\/soutenir\/paiement\?formule=mensuel$/);
  await expect(page.getByRole('button', { name: 'Payer 7 €' })).toBeVisible();
});

test('a visitor creates an account in the account step and keeps the choice', async ({ page, browser }) => {
  const email = `nouveau-${Date.now()}-${Math.floor(Math.random() * 1e6)}@exemple.fr`;
  await page.goto('/soutenir/abonnement/printemps');
  await page.getByRole('button', { name: 'Choisir « Annuel »' }).click();
  await arrived(page, /\/soutenir\/mon-compte\?formule=annuel&source=printemps$/);
  const form = page.getByRole('region', { name: 'Je crée mon compte' });
  await form.getByLabel('Adresse e-mail').fill(email);
  await form.getByLabel('Prénom').fill('Lou');
  await form.getByLabel('Nom', { exact: true }).fill('Martin');
  await form.getByLabel('Mot de passe').fill('trop court');
  // The browser would refuse it first; the server says the same.
  await form.getByLabel('Mot de passe').evaluate((input) => input.removeAttribute('minlength'));
  await form.getByRole('button', { name: 'Créer mon compte et continuer' }).click();
  await expect(form.getByRole('alert')).toHaveText('Le mot de passe doit comporter au moins 12 caractères.');
  await expect(form.getByLabel('Adresse e-mail')).toHaveValue(email);
  await form.getByLabel('Mot de passe').fill('une phrase assez longue');
  await form.getByRole('button', { name: 'Créer mon compte et continuer' }).click();
  await arrived(page, /\/soutenir\/paiement\?formule=annuel&source=printemps$/);
  await expect(main(page).getByRole('status')).toHaveText('Votre compte est créé. Vous pouvez maintenant payer.');
  await expect(page.getByLabel('Prénom')).toHaveValue('Lou');
  await expect(page.getByRole('region', { name: 'Votre choix' })).toContainText('Abonnement Annuel');

  // The address is confirmed from its mail, by a click on the page the link opens; the link serves once.
  const confirmation = await waitForMail(email, /Confirmez l’adresse/);
  const link = /https?:\/\/\S+\/creer-mon-compte\/confirmer\/[^\s>\]]+/.exec(confirmation.text ?? '')?.[0];
  expect(link).toBeTruthy();
  const mailTab = await page.context().newPage();
  await mailTab.goto(link!);
  await expect(mailTab.getByRole('heading', { level: 1, name: 'Confirmer l’adresse de mon compte' })).toBeVisible();
  await look(mailTab, SHOTS, 'confirmer-adresse');
  await mailTab.getByRole('button', { name: 'Confirmer mon adresse' }).click();
  await expect(mailTab.getByRole('status').filter({ hasText: `C’est fait : l’adresse ${email} est confirmée.` })).toBeVisible();
  await look(mailTab, SHOTS, 'confirmer-adresse-fait');
  // Opened again, the page changes nothing until its button is pressed; then it says the link has served.
  await mailTab.goto(link!);
  await mailTab.getByRole('button', { name: 'Confirmer mon adresse' }).click();
  await expect(mailTab.getByRole('alert').filter({ hasText: 'Ce lien n’est plus valable : il a déjà servi ou il a expiré.' })).toBeVisible();
  await mailTab.close();

  // The same address again, from another browser: sign in instead.
  const other = await browser.newContext();
  const second = await other.newPage();
  await second.goto('/soutenir/mon-compte?formule=mensuel');
  const again = second.getByRole('region', { name: 'Je crée mon compte' });
  await again.getByLabel('Adresse e-mail').fill(email);
  await again.getByLabel('Prénom').fill('Lou');
  await again.getByLabel('Nom', { exact: true }).fill('Martin');
  await again.getByLabel('Mot de passe').fill('une autre phrase assez longue');
  await again.getByRole('button', { name: 'Créer mon compte et continuer' }).click();
  await expect(again.getByRole('alert')).toContainText('Un compte existe déjà avec cette adresse e-mail');
  await other.close();
});

test('a sign-in link asked for at the account step brings the reader back to payment with the choice', async ({ page }) => {
  const reader = await createReaderAccount();
  await page.goto('/soutenir/mon-compte?formule=mensuel&source=printemps');
  await page.getByRole('link', { name: 'Me connecter' }).click();
  await arrived(page, /\/login\?redirect=/);
  const sent = new Date();
  await page.locator('#magic-email').fill(reader.email);
  await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
  await expect(page.getByText('Si un compte existe à cette adresse')).toBeVisible();
  await page.goto(await linkFromMail(reader.email, '/welcome/', sent));
  await page.getByRole('button', { name: 'Me connecter' }).click();
  await arrived(page, /\/soutenir\/paiement\?formule=mensuel&source=printemps$/);
  await expect(page.getByRole('button', { name: 'Payer 7 €' })).toBeVisible();
});

test('the payment form sent twice (a double click) places one order', async ({ page, baseURL }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/paiement?formule=mensuel');
  await page.getByLabel('Adresse', { exact: true }).fill('3 rue du Port');
  await page.getByLabel('Code postal').fill('44000');
  await page.getByLabel('Ville').fill('Nantes');
  await page.getByLabel(/J’accepte les conditions générales de vente/).check();
  await page.getByLabel(/je demande expressément que mon abonnement commence dès le paiement/i).check();
  const fields = await page.locator('form.pay').evaluate((form) => Object.fromEntries(new FormData(form as HTMLFormElement)) as Record<string, string>);
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/soutenir/paiement') posts++;
  });
  await page.getByRole('button', { name: 'Payer 7 €' }).dblclick();
  await arrived(page, /\/paiement-simule\/[\w-]+$/);
  expect(posts).toBe(2);
  // And once more, the same form as it was: the same provider page again.
  const replay = await page.request.post('/soutenir/paiement?formule=mensuel', { form: fields, headers: { origin: baseURL! }, maxRedirects: 0 });
  expect(replay.status()).toBe(303);
  expect(new URL(replay.headers().location!, baseURL).pathname).toBe(new URL(page.url()).pathname);
  const orders = await ordersOf(reader.email);
  expect(orders).toHaveLength(1);
  expect(await inDatabase((db) => db.selectFrom('simulated_sessions').select('id').where('order_id', '=', orders[0]!.id).execute())).toHaveLength(1);
});

test('a payment left at the provider can be resumed; someone else’s order, or no order, is a 404', async ({ page, browser, request }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/paiement?don=2000&frequence=mensuel&source=printemps');
  await fillPaymentAndPay(page);
  await arrived(page, /\/paiement-simule\/[\w-]+$/);
  await page.getByRole('button', { name: 'Annuler et revenir au site' }).click();
  await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
  await expect(heading(page, 'Votre paiement n’est pas terminé')).toBeVisible();
  await expect(main(page).getByRole('link', { name: 'Reprendre le paiement' })).toHaveAttribute(
    'href',
    '/soutenir/paiement?don=2000&frequence=mensuel&source=printemps',
  );
  const path = new URL(page.url()).pathname;

  const other = await browser.newContext();
  const stranger = await other.newPage();
  const intruder = await createReaderAccount();
  await stranger.goto('/login');
  await signIn(stranger, intruder.email, intruder.password);
  await expect(stranger).toHaveURL(/\/mon-compte$/);
  for (const address of [path, '/soutenir/confirmation/pas-un-identifiant', '/soutenir/confirmation/00000000-0000-4000-8000-000000000000']) {
    const answer = await stranger.goto(address);
    expect(answer?.status(), address).toBe(404);
    await expect(stranger.getByRole('heading', { level: 1, name: 'Une erreur est survenue' })).toBeVisible();
  }
  await other.close();

  // Signed out, the page asks to sign in first, by its French and its older English name.
  const anonymous = await request.get(path, { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  const legacy = await request.get(`/shop/success/${path.split('/').pop()}`, { maxRedirects: 0 });
  expect(legacy.status()).toBe(301);
  expect(legacy.headers().location).toBe(path);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the card flow still works: offer, sign in, payment, provider, paid', async ({ page }) => {
    const reader = await createReaderAccount();
    await page.goto('/soutenir/abonnement');
    await page.getByRole('button', { name: 'Choisir « Solidaire annuel »' }).click();
    await expect(page).toHaveURL(/\/soutenir\/mon-compte\?formule=solidaire-annuel$/);
    await page.getByRole('link', { name: 'Me connecter' }).click();
    await signIn(page, reader.email, reader.password);
    await fillPaymentAndPay(page);
    await payOnProvider(page, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/soutenir\/confirmation\/[\w-]+$/);
    await reloadUntil(page, heading(page, 'Merci, c’est fait !'));
    expect(await subscriptionOf(orderIdOf(page))).toMatchObject({ status: 'active', plan_id: 'solidaire-annuel' });
  });
});

test('the webhook endpoint believes signatures only, and takes POST only', async ({ request }) => {
  const forged = await request.post('/api/payments/webhooks/simulated', { data: { id: 'evt_1', data: { type: 'payment.succeeded' } } });
  expect(forged.status()).toBe(400);
  expect(await forged.json()).toMatchObject({ statusCode: 400, message: 'Signature de notification invalide.' });
  expect((await request.post('/api/payments/webhooks/inconnu', { data: {} })).status()).toBe(404);
  const huge = await request.post('/api/payments/webhooks/simulated', { data: 'x'.repeat(300 * 1024), headers: { 'content-type': 'application/json' } });
  expect(huge.status()).toBe(413);
  const get = await request.get('/api/payments/webhooks/simulated');
  expect(get.status()).toBe(405);
  expect(get.headers().allow).toBe('POST');
});

test('the older English names keep their French route and its sign-in', async ({ request }) => {
  const payment = await request.get('/shop/payment?formule=mensuel', { maxRedirects: 0 });
  expect(payment.status()).toBe(301);
  expect(payment.headers().location).toBe('/soutenir/paiement?formule=mensuel');
  const then = await request.get('/soutenir/paiement?formule=mensuel', { maxRedirects: 0 });
  expect(then.status()).toBe(302);
  expect(then.headers().location).toBe('/login?redirect=%2Fsoutenir%2Fpaiement%3Fformule%3Dmensuel');
  expect((await request.get('/paiement-simule/cs_sim_inconnu', { maxRedirects: 0 })).status()).toBe(404);
});

test('a campaign’s page (/soutenir/{source}, rendered on demand) shows the same text as /soutenir, with links that carry the campaign', async ({ page }) => {
  await page.goto('/soutenir');
  const text = await main(page).locator('.prose').innerText();
  expect(text).toMatch(/Pourquoi nous soutenir\s\?/);

  const response = await page.goto('/soutenir/printemps');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Je soutiens Contrechamp');
  expect(await main(page).locator('.prose').innerText()).toBe(text);
  // The four ways' buttons (the text itself links to the offers without a campaign).
  await expect(main(page).getByRole('link', { name: 'Je m’abonne' }).first()).toHaveAttribute('href', '/soutenir/abonnement/printemps');
});
