/**
 * Gift subscriptions as readers meet them, against the production build and its simulated
 * provider: a reader offers six months for a chosen day (a past day is refused first), pays with
 * the test card 4242 4242 4242 4242, reads the code and the card (PDF) in the mail, follows the
 * gift in « Mes cadeaux »; someone else types the code (lower case, spaces), creates an account
 * and finds « Abonnement offert » in « Mes abonnements »; the code then says it was used. A
 * subscriber signed in is told before confirming that the months come after the paid period, and
 * their next payment moves. A gift sent today arrives by mail, and its link creates the account.
 * axe on every page; screenshots at 1280 and 390 px in /work/shots/gifts/ (SHOTS_DIR overrides).
 */

import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { openDatabase } from '../../src/server/db/client';
import { expect, test } from '../helpers/guard';
import { createReaderAccount, outboxDir } from '../helpers/accounts';
import { seedSubscription } from '../helpers/revenue';
import { expectAccessible, shoot as shootAt } from '../helpers/browse';
import { expectSubscriptionThanks, fillPayment, fillPaymentAndPay, payOnProvider } from '../helpers/payment';

// Long walks (payment, mails, activation by another account) on a machine shared by two browsers.
test.describe.configure({ timeout: 150_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/gifts';
const CODE_IN_MAIL = /Code cadeau\s*:\s*([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/;
const main = (page: Page) => page.locator('main');

test.beforeEach(async ({ page }) => {
  // Whether the client router is between a navigation's start and its page-load (see `arrived`).
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

/** The page at `url` is in place, and the router's swap (if any) has ended. */
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

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

/** Checked by axe, then captured. */
async function look(page: Page, name: string) {
  await expectAccessible(page);
  await shoot(page, name);
}

/** The newest mail to `to` whose subject matches, parsed (MIME, attachments included). */
async function waitForMail(to: string, subject: RegExp): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const files = (await readdir(outboxDir()))
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
        for (const file of files.slice(0, 60)) {
          const mail = await simpleParser(await readFile(resolve(outboxDir(), file)));
          const address = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          if (address?.includes(to) && subject.test(mail.subject ?? '')) {
            found = mail;
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** How many mails the outbox holds for an address. */
async function mailsTo(to: string): Promise<number> {
  let count = 0;
  for (const file of (await readdir(outboxDir())).filter((f) => f.endsWith('.eml'))) {
    const mail = await simpleParser(await readFile(resolve(outboxDir(), file)));
    const address = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
    if (address?.includes(to)) count++;
  }
  return count;
}

/** Offers six months from the offer page (signed in): the payment page with the gift's fields. */
async function offerSixMonths(page: Page) {
  await page.goto('/soutenir/abonnement/offrir');
  await page.getByRole('button', { name: 'Offrir 6 mois' }).click();
  await arrived(page, /\/soutenir\/paiement\?cadeau=cadeau-6-mois$/);
}

/** The account form of the activation pages. */
async function createAccount(page: Page, email: string) {
  const form = main(page);
  await form.getByLabel('Adresse e-mail', { exact: true }).fill(email);
  await form.getByLabel('Prénom', { exact: true }).fill('Camille');
  await form.getByLabel('Nom', { exact: true }).fill('Lefèvre');
  await form.getByLabel('Mot de passe', { exact: true }).fill('un mot de passe de test');
  await page.getByRole('button', { name: 'Créer mon compte et activer mon cadeau' }).click();
}

const paidPeriodEnd = (subscriptionId: string) =>
  (async () => {
    const handle = openDatabase({ kind: 'sqlite', path: resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'contrechamp.db') });
    try {
      return (
        (await handle.db.selectFrom('subscriptions').select('current_period_end').where('id', '=', subscriptionId).executeTakeFirstOrThrow())
          .current_period_end ?? ''
      );
    } finally {
      await handle.close();
    }
  })();

test('a gift for a chosen day: paid by card, the code and the card by mail, followed in Mes cadeaux, activated with the typed code by a new account', async ({
  page,
  browser,
}) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await page.goto('/soutenir/abonnement/offrir');
  await expect(main(page).getByRole('button', { name: /^Offrir/ })).toHaveCount(2);
  await look(page, 'offrir');

  await offerSixMonths(page);
  await expect(page.getByRole('region', { name: 'Votre choix' })).toContainText('Abonnement offert 6 mois');
  const recipientEmail = `camille-${Date.now()}@exemple.fr`;
  await page.getByLabel('Prénom et nom de la personne').fill('Camille Lefèvre');
  await page.getByLabel(/Son adresse e-mail/).fill(recipientEmail);
  await page.getByLabel(/Votre message/).fill('Joyeux anniversaire ! Bonne lecture.');
  await fillPayment(page);
  await look(page, 'paiement-cadeau');

  // A day in the past (the browser's own check bypassed) is refused with a French message, and nothing is placed.
  await page.locator('#date_envoi').evaluate((el) => {
    (el as HTMLInputElement).min = '';
    (el as HTMLInputElement).value = '2020-01-01';
  });
  const refused = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/soutenir/paiement'));
  await page.getByRole('button', { name: 'Payer 40 €' }).click();
  expect((await refused).status()).toBe(422);
  await expect(page.locator('.form-message').first()).toContainText('La date d’envoi est passée : choisissez aujourd’hui ou un jour à venir.');
  // What was typed is kept (the consent box aside).
  await expect(page.getByLabel('Prénom et nom de la personne')).toHaveValue('Camille Lefèvre');
  await look(page, 'paiement-cadeau-erreur');

  const later = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  await page.locator('#date_envoi').fill(later);
  await page.getByLabel(/J’accepte les conditions générales de vente/).check();
  await page.getByRole('button', { name: 'Payer 40 €' }).click();
  await payOnProvider(page);
  await expectSubscriptionThanks(page);
  await expect(main(page)).toContainText('Le code cadeau et sa carte à imprimer vous sont envoyés par e-mail, et la personne recevra le sien le');
  await look(page, 'confirmation-cadeau');

  // The buyer's mail: the code and the card; the recipient gets nothing before the day.
  const mail = await waitForMail(reader.email, /^Votre abonnement offert/);
  const code = CODE_IN_MAIL.exec(mail.text ?? '')?.[1];
  expect(code).toBeTruthy();
  const card = mail.attachments.find((a) => a.contentType === 'application/pdf');
  expect(card?.filename).toBe('carte-cadeau-contrechamp.pdf');
  expect(card!.content.subarray(0, 5).toString()).toBe('%PDF-');

  // Mes cadeaux, reached from Mon compte: the gift, its state, the card; no resend before it is sent.
  await page.goto('/mon-compte');
  await main(page).getByRole('link', { name: 'Voir mes cadeaux' }).click();
  await arrived(page, /\/mon-compte\/mes-cadeaux$/);
  const gift = main(page).getByRole('listitem').filter({ hasText: 'Camille Lefèvre' });
  await expect(gift).toContainText('6 mois pour Camille Lefèvre');
  await expect(gift).toContainText('Envoi prévu le');
  await expect(gift).toContainText(`se terminant par ${code!.slice(-4)}`);
  await expect(gift).not.toContainText(code!);
  await expect(gift.getByRole('button', { name: 'Renvoyer l’e-mail' })).toHaveCount(0);
  const cardHref = await gift.getByRole('link', { name: 'Carte cadeau (PDF)' }).getAttribute('href');
  const download = await page.request.get(cardHref!);
  expect(download.headers()['content-type']).toBe('application/pdf');
  expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await look(page, 'mes-cadeaux');

  // Someone else: the card of another reader's gift is the site's 404.
  const stranger = await createReaderAccount();
  const strangerContext = await browser.newContext();
  const strangerPage = await strangerContext.newPage();
  await signedIn(strangerPage, stranger);
  expect((await strangerPage.request.get(cardHref!)).status()).toBe(404);
  await strangerContext.close();

  // The recipient types the code (lower case, with spaces) and creates an account on the way.
  const other = await browser.newContext();
  const recipient = await other.newPage();
  await recipient.goto('/activer-cadeau');
  await look(recipient, 'activer-saisie');
  // A mistyped character is caught before any lookup.
  const typo = code!.slice(0, 5) + (code![5] === 'A' ? 'B' : 'A') + code!.slice(6);
  await recipient.getByLabel('Code cadeau').fill(typo);
  await recipient.getByRole('button', { name: 'Continuer' }).click();
  await expect(recipient.locator('.form-message')).toContainText('un caractère a peut-être été mal saisi ou inversé');
  await look(recipient, 'activer-faute-de-frappe');

  await recipient.getByLabel('Code cadeau').fill(code!.toLowerCase().replace(/-/g, ' '));
  await recipient.getByRole('button', { name: 'Continuer' }).click();
  await expect(recipient).toHaveURL(new RegExp(`/activer-cadeau/${code!.replace(/-/g, '')}$`));
  await expect(recipient.getByRole('heading', { name: '6 mois d’abonnement offert' })).toBeVisible();
  await look(recipient, 'activer-apercu');
  await recipient.getByRole('link', { name: 'Créer mon compte' }).click();
  await expect(recipient).toHaveURL(/\/creer-mon-compte\/cadeau\/[0-9A-Z]{16}$/);
  await look(recipient, 'creer-compte-cadeau');
  await createAccount(recipient, `camille-compte-${Date.now()}@exemple.fr`);
  await expect(recipient.locator('main')).toContainText(/Bienvenue\s! Votre compte est créé et votre abonnement offert court jusqu’au \d/);
  await look(recipient, 'creer-compte-cadeau-fait');

  await recipient.goto('/mon-compte/mes-abonnements');
  const offered = recipient.locator('main article').filter({ hasText: 'Abonnement offert' });
  await expect(offered).toContainText('Offert');
  await expect(offered).toContainText(/Se termine le \d+\s\S+ \d{4}, sans renouvellement/);
  await expect(offered).not.toContainText('Gérer mon don mensuel');
  await look(recipient, 'mes-abonnements-offert');
  await offered.getByRole('link', { name: /Voir le détail/ }).click();
  await expect(recipient.getByRole('heading', { level: 2, name: 'Votre abonnement offert' })).toBeVisible();
  await expect(recipient.locator('main')).toContainText('rien ne vous est prélevé, et il ne se renouvelle pas');
  await expect(recipient.locator('main')).not.toContainText(/Résilier|Moyen de paiement|Prochain paiement/);
  await look(recipient, 'abonnement-offert-detail');

  // The code served once.
  await recipient.goto(`/activer-cadeau/${code!.replace(/-/g, '')}`);
  await expect(recipient.locator('main')).toContainText('Ce code cadeau a déjà été utilisé');
  await look(recipient, 'activer-deja-utilise');
  await other.close();

  // The buyer's list says it was activated, not by whom; the recipient had no mail.
  await page.goto('/mon-compte/mes-cadeaux');
  await expect(gift).toContainText(/Activé le \d/);
  await expect(gift).not.toContainText('camille-compte');
  const files = (await readdir(outboxDir())).filter((f) => f.endsWith('.eml'));
  for (const file of files.slice(-40)) expect((await readFile(resolve(outboxDir(), file), 'utf8')).includes(recipientEmail)).toBe(false);

  // The invoice of the gift is in Mes factures.
  await page.goto('/mon-compte/mes-factures');
  await expect(main(page)).toContainText('Abonnement offert 6 mois');
});

test('a subscriber signed in is told the gift’s months come after the paid period, and the next payment moves', async ({ page }) => {
  const reader = await createReaderAccount();
  const subscriptionId = await seedSubscription(reader.email, { kind: 'plan', planId: 'mensuel' });
  const paidUntil = new Date(await paidPeriodEnd(subscriptionId));
  await signedIn(page, reader);

  // They bought it themselves, to hand over: the mail says so, and nobody else is written to.
  await offerSixMonths(page);
  await page.getByLabel('Prénom et nom de la personne').fill('Moi-même');
  await page.getByLabel('Je le remets moi-même').check();
  await fillPaymentAndPay(page, { price: '40 €' });
  await payOnProvider(page);
  await expectSubscriptionThanks(page);
  // Handed over by the buyer: nothing to resend to anyone.
  await expect(main(page)).toContainText('c’est à vous de les remettre');
  await expect(main(page)).not.toContainText('renvoyez l’e-mail');
  const mail = await waitForMail(reader.email, /^Votre abonnement offert/);
  expect(mail.text).toContain('Vous avez choisi de remettre le cadeau vous-même');
  const code = CODE_IN_MAIL.exec(mail.text ?? '')![1]!;

  await page.goto(`/activer-cadeau/${code}`);
  const paidDay = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Paris' }).format(paidUntil);
  const notice = main(page).locator('.notice-info');
  await expect(notice).toContainText(
    `Votre abonnement payé continue jusqu’au ${paidDay} ; les 6 mois offerts s’ajoutent ensuite : votre prochain paiement passe au`,
  );
  await expect(main(page)).toContainText(`Compte connecté : ${reader.email}`);
  await look(page, 'activer-abonne');
  await page.getByRole('button', { name: 'Activer mon cadeau' }).click();
  await expect(main(page).locator('.notice-success')).toContainText(
    'C’est fait : les mois offerts s’ajoutent à votre abonnement, et votre prochain paiement passe au',
  );
  await look(page, 'activer-abonne-fait');

  const moved = new Date(await paidPeriodEnd(subscriptionId));
  expect(moved.getTime() - paidUntil.getTime()).toBeGreaterThan(180 * 86_400_000);
  const movedDay = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Paris' }).format(moved);
  await page.goto('/mon-compte/mes-abonnements');
  await expect(main(page)).toContainText(`Prochain paiement le ${movedDay}`);
  await expect(main(page).locator('article')).toHaveCount(1);
});

/** A day goes by since the gift's last mail (the server's clock cannot be moved from here). */
async function aDayAfterLastMail(recipientEmail: string): Promise<void> {
  const handle = openDatabase({ kind: 'sqlite', path: resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'contrechamp.db') });
  try {
    const dayAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await handle.db.updateTable('gifts').set({ last_sent_at: dayAgo }).where('recipient_email', '=', recipientEmail).execute();
  } finally {
    await handle.close();
  }
}

test('a gift sent today: the recipient’s mail links to the account creation, which starts the gift', async ({ page, browser, secrets }) => {
  const reader = await createReaderAccount();
  await signedIn(page, reader);
  await offerSixMonths(page);
  const recipientEmail = `lien-${Date.now()}@exemple.fr`;
  await page.getByLabel('Prénom et nom de la personne').fill('Louise Michel');
  await page.getByLabel(/Son adresse e-mail/).fill(recipientEmail);
  await page.getByLabel(/Votre message/).fill('Pour toi, avec toute mon amitié.');
  await fillPaymentAndPay(page, { price: '40 €' });
  await payOnProvider(page);
  await expectSubscriptionThanks(page);

  const received = await waitForMail(recipientEmail, /vous offre 6 mois de Contrechamp$/);
  expect(received.subject).toBe('Camille Testeur vous offre 6 mois de Contrechamp');
  expect(received.text).toContain('Pour toi, avec toute mon amitié.');
  const link = /https?:\/\/\S+\/creer-mon-compte\/cadeau\/[0-9A-Z]{16}/.exec(received.text ?? '')![0];
  secrets.allow(link);

  // Sent and not activated: the buyer can send it again, a day after the last mail.
  await page.goto('/mon-compte/mes-cadeaux');
  const gift = main(page).getByRole('listitem').filter({ hasText: 'Louise Michel' });
  await expect(gift).toContainText(/Envoyé le \d+\s\S+ \d{4}\s: pas encore activé/);
  await gift.getByRole('button', { name: 'Renvoyer l’e-mail' }).click();
  await expect(main(page)).toContainText(/vous pourrez le renvoyer 24\sheures plus tard/);
  await aDayAfterLastMail(recipientEmail);
  await gift.getByRole('button', { name: 'Renvoyer l’e-mail' }).click();
  await expect(main(page)).toContainText(`L’e-mail du cadeau est renvoyé à ${recipientEmail}.`);
  await expect.poll(() => mailsTo(recipientEmail), { timeout: 20_000 }).toBe(2);
  await look(page, 'mes-cadeaux-renvoye');

  const other = await browser.newContext();
  const recipient = await other.newPage();
  await recipient.goto(link);
  await expect(recipient.getByRole('heading', { level: 1, name: 'On vous a offert Contrechamp' })).toBeVisible();
  await expect(recipient.getByRole('heading', { name: '6 mois d’abonnement offert' })).toBeVisible();
  await createAccount(recipient, `louise-${Date.now()}@exemple.fr`);
  await expect(recipient.locator('main')).toContainText('Bienvenue ! Votre compte est créé');
  await recipient.goto('/mon-compte/mes-abonnements');
  await expect(recipient.locator('main article').filter({ hasText: 'Abonnement offert' })).toHaveCount(1);
  // The same link again: the code was used.
  await recipient.context().clearCookies();
  await recipient.goto(link);
  await expect(recipient.locator('main')).toContainText('Ce code cadeau a déjà été utilisé');
  await look(recipient, 'lien-deja-utilise');
  await other.close();

  // Activated: no more resending.
  await page.goto('/mon-compte/mes-cadeaux');
  await expect(gift).toContainText(/Activé le \d/);
  await expect(gift.getByRole('button', { name: 'Renvoyer l’e-mail' })).toHaveCount(0);
});
