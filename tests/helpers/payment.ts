/**
 * The payment path as a reader goes through it under `npm start` with the simulated provider
 * (README, « test card numbers »): the payment step's billing address and consents, the
 * provider's page, and the confirmation that waits for the provider's notification. One copy
 * for every end-to-end spec that pays.
 */
import type { Page } from '@playwright/test';
import { expect } from './e2e';
import { arrived, reloadUntil } from './browse';

/** The test cards of the simulated provider. */
export const CARD = { accepted: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/** How a spec fills the payment step: the SEPA debit instead of a card, the billing city. */
export interface PaymentFields {
  sepa?: boolean;
  city?: string;
}

/**
 * The payment step (`/soutenir/paiement?…`): billing address and consents, without paying yet
 * (a spec that looks at the filled page, or sends it wrong first).
 */
export async function fillPayment(page: Page, { sepa = false, city = 'Nantes' }: PaymentFields = {}): Promise<void> {
  await arrived(page, /\/soutenir\/paiement\?/);
  if (sepa) await page.getByLabel(/Prélèvement SEPA/).check();
  await page.getByLabel('Adresse', { exact: true }).fill('3 rue du Port');
  await page.getByLabel('Code postal').fill('44000');
  await page.getByLabel('Ville').fill(city);
  await page.getByLabel(/J’accepte les conditions générales de vente/).check();
  // A subscription asks, besides, for the express request to start at once (CGV art. 8).
  const immediate = page.getByLabel(/je demande expressément que mon abonnement commence dès le paiement/i);
  if (await immediate.count()) await immediate.check();
}

/**
 * The payment step filled (`fillPayment`), then « Payer … ». `price`: the button must say that
 * amount (« Payer 40 € »).
 */
export async function fillPaymentAndPay(page: Page, { price, ...fields }: PaymentFields & { price?: string } = {}): Promise<void> {
  await fillPayment(page, fields);
  await page.getByRole('button', { name: price ? `Payer ${price}` : /^Payer \d/ }).click();
}

/** On the simulated provider's page: types a test number and pays. */
export async function payOnProvider(page: Page, number: string = CARD.accepted): Promise<void> {
  await arrived(page, /\/paiement-simule\/[\w-]+$/);
  await expect(page.getByText('Prestataire de paiement simulé — aucun argent réel')).toBeVisible();
  await page.locator('#numero').fill(number);
  await page.getByRole('button', { name: /^Payer \d/ }).click();
}

/** The confirmation of a subscription (one's own or offered), once the provider's notification has reached the site. */
export async function expectSubscriptionThanks(page: Page): Promise<void> {
  await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
  await reloadUntil(page, page.getByRole('heading', { level: 1, name: 'Merci, c’est fait !' }));
}

/** A monthly subscription paid by the accepted test card, signed in. */
export async function subscribeMonthly(page: Page): Promise<void> {
  await page.goto('/soutenir/paiement?formule=mensuel');
  await fillPaymentAndPay(page);
  await payOnProvider(page);
  await expectSubscriptionThanks(page);
}
