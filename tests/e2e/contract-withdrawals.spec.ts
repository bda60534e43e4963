/**
 * The withdrawal function (« Se rétracter du contrat ici », CGV art. 8) as readers walk it,
 * against the production build and its simulated payment provider: a reader subscribes by card
 * (4242 4242 4242 4242), withdraws from the subscription page, confirms, reads the
 * acknowledgement, and the subscription page shows it ended once the refund is confirmed; a gift
 * buyer opens the signed link of the confirmation mail without being signed in and withdraws; a
 * forged link is a 404 in French; another reader's contract is a 404; the subscription's own
 * start mail carries the signed link. axe on each step, and screenshots at 1280 and 390 px in
 * /work/shots/withdrawal/ (SHOTS_DIR): the account's list, the confirmation step, the done page,
 * the link on the subscription page, the mailed link's step, the back-office's list.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { look, reloadUntil, waitForMail } from '../helpers/browse';
import { expectSubscriptionThanks, fillPaymentAndPay, payOnProvider } from '../helpers/payment';
import { createReaderAccount } from '../helpers/accounts';

test.describe.configure({ timeout: 150_000 });
const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/withdrawal';
const DEMO_PASSWORD = 'motdepasse-demo';

test.beforeEach(async ({ page }) => {
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

const main = (page: Page) => page.locator('main');
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name });

async function arrived(page: Page, url: RegExp) {
  await expect(page).toHaveURL(url);
  await page.waitForTimeout(200);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __routerBusy?: boolean }).__routerBusy === true)).toBe(false);
  await expect(page.locator('html')).not.toHaveAttribute('data-astro-transition', /./);
}

async function signedIn(page: Page, reader: { email: string; password: string }) {
  await page.goto('/login');
  await page.locator('#login-email').fill(reader.email);
  await page.locator('#login-password').fill(reader.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await arrived(page, /\/mon-compte$/);
}

/** The signed withdrawal link of a mail, as a path. */
const withdrawalPath = (text: string | undefined): string | undefined => /https?:\/\/[^\s/]+(\/retractation\/lien\/[\w.-]+)/.exec(text ?? '')?.[1];

async function subscribeMonthly(page: Page) {
  await page.goto('/soutenir/paiement?formule=mensuel');
  await expect(page.getByText(/utilisez la fonction «\s*Se rétracter du contrat ici\s*»/)).toBeVisible();
  await fillPaymentAndPay(page);
  await payOnProvider(page);
  await expectSubscriptionThanks(page);
}

test('a subscription withdrawn from its page: confirmation step, acknowledgement by mail, ended once refunded; the back-office lists it', async ({
  page,
  browser,
}) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await subscribeMonthly(page);
  await page.goto('/mon-compte/mes-abonnements');
  await main(page)
    .getByRole('link', { name: /Gérer mon abonnement/ })
    .first()
    .click();
  await arrived(page, /\/mon-compte\/mes-abonnements\/[\w-]+$/);
  const subscriptionPage = page.url();
  await expect(main(page)).toContainText(/jusqu’au\s\d{1,2}(er)?\s\p{L}+\s\d{4}/u);
  await look(page, SHOTS, 'account-subscription-link');
  // The account's menu leads to the list of contracts within their period.
  await page.getByRole('complementary', { name: 'Mon compte' }).getByRole('link', { name: 'Rétractation' }).click();
  await arrived(page, /\/retractation$/);
  await expect(main(page).getByRole('link', { name: 'Se rétracter du contrat ici' })).toHaveCount(1);
  await look(page, SHOTS, 'account-list');
  await page.goto(subscriptionPage);
  await main(page).getByRole('link', { name: 'Se rétracter du contrat ici' }).click();
  await arrived(page, /\/retractation\?contrat=o\.[\w-]+$/);
  const contractPath = new URL(page.url()).pathname + new URL(page.url()).search;
  await expect(main(page)).toContainText('Abonnement');
  await expect(main(page)).toContainText(/[0-9A-Z]{5}-[0-9A-Z]{5}/);
  await expect(main(page)).toContainText(/7\s€/);
  await look(page, SHOTS, 'confirm-step');

  // Another reader names this contract: a 404, and nothing changes.
  const other = await createReaderAccount();
  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await signedIn(stranger, other);
  expect((await stranger.goto(contractPath))?.status()).toBe(404);
  await strangerContext.close();

  await main(page).getByRole('button', { name: 'Confirmer la rétractation' }).click();
  await expect(heading(page, /Votre rétractation est enregistrée le .+ à .+/)).toBeVisible();
  await look(page, SHOTS, 'done');

  const ack = await waitForMail(reader.email, /^Votre rétractation est enregistrée/);
  expect(ack.text).toMatch(/Nous avons bien reçu votre rétractation, le\s\d{1,2}(er)?\s\p{L}+\s\d{4}\sà\s\d{1,2}\sh\s\d{2}/u);
  expect(ack.text).toMatch(/7\s€/);

  // The provider confirms the refund a moment later: the subscription has ended.
  await page.goto(subscriptionPage);
  await reloadUntil(page, main(page).getByText('Fin après remboursement'), 30_000);
  await expect(main(page).getByText('Résilié', { exact: true })).toBeVisible();
  await expect(main(page).getByRole('link', { name: 'Se rétracter du contrat ici' })).toHaveCount(0);

  const officeContext = await browser.newContext();
  const office = await officeContext.newPage();
  await signedIn(office, { email: 'administration@exemple.fr', password: DEMO_PASSWORD });
  await office.goto('/administration/retractations');
  const row = office.getByRole('article').filter({ hasText: reader.email });
  await expect(row).toContainText('Compte');
  await expect(row).toContainText(/Remboursée/);
  await look(office, SHOTS, 'back-office');
  await officeContext.close();
});

test('a gift withdrawn from the link of its confirmation mail, signed out; a forged link is a 404', async ({ page, browser }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/abonnement/offrir');
  await page.getByRole('button', { name: 'Offrir 6 mois' }).click();
  await arrived(page, /\/soutenir\/paiement\?cadeau=cadeau-6-mois$/);
  await page.getByLabel('Prénom et nom de la personne').fill('Jules Martin');
  await page.getByLabel('Je le remets moi-même').check();
  await fillPaymentAndPay(page);
  await payOnProvider(page);
  await expectSubscriptionThanks(page);
  const mail = await waitForMail(reader.email, /^Votre abonnement offert/);
  expect(mail.text).toContain('Se rétracter du contrat ici');
  const path = withdrawalPath(mail.text);
  expect(path).toBeDefined();

  const stranger = await browser.newContext();
  const visitor = await stranger.newPage();
  await visitor.goto(path!);
  await expect(visitor.getByRole('heading', { name: /Abonnement offert|6 mois/ }).first()).toBeVisible();
  await look(visitor, SHOTS, 'mailed-link-step');
  await visitor.getByRole('button', { name: 'Confirmer la rétractation' }).click();
  await expect(visitor.getByRole('heading', { name: /Votre rétractation est enregistrée le .+ à .+/ })).toBeVisible();
  await waitForMail(reader.email, /^Votre rétractation est enregistrée/);

  const forged = path!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  const answer = await visitor.goto(forged);
  expect(answer?.status()).toBe(404);
  await stranger.close();
});

test('the subscription’s start mail carries the signed link', async ({ page, browser }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await subscribeMonthly(page);
  const mail = await waitForMail(reader.email, /abonnement/i);
  const path = withdrawalPath(mail.text);
  expect(path, 'the start mail carries « Se rétracter du contrat ici »').toBeDefined();
  const stranger = await browser.newContext();
  const visitor = await stranger.newPage();
  await visitor.goto(path!);
  await visitor.getByRole('button', { name: 'Confirmer la rétractation' }).click();
  await expect(visitor.getByRole('heading', { name: /Votre rétractation est enregistrée le .+ à .+/ })).toBeVisible();
  await waitForMail(reader.email, /^Votre rétractation est enregistrée/);
  await stranger.close();
});
