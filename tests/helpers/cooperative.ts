/**
 * The cooperative's path as a new reader walks it, shared by the specs that need a sociétaire
 * (cooperative.spec.ts, share-withdrawal.spec.ts).
 */
import type { Page } from '@playwright/test';
import { expect } from './guard';
import { arrived, reloadUntil } from './browse';

const main = (page: Page) => page.locator('main');
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/**
 * A visitor chooses `shares` shares in the readers' college from the pitch, creates an account at
 * the account step, signs the bulletin and pays by card (or, with `transfer`, chooses a bank transfer
 * and stops at the bulletin waiting for it); returns the new account's address.
 * With `see`, each page is looked at (given its name).
 */
export async function subscribeAsNewReader(
  page: Page,
  {
    shares,
    familyName,
    see = async () => {},
    transfer = false,
  }: { shares: number; familyName: string; see?: (name: string) => Promise<void>; transfer?: boolean },
): Promise<string> {
  await page.goto('/devenir-societaire');
  await expect(main(page)).toContainText(/sociétaires détiennent \d+ parts/);
  await see('pitch');
  await page.getByRole('link', { name: 'Je souscris des parts' }).click();
  await arrived(page, /\/devenir-societaire\/souscrire$/);
  await page.getByLabel('Nombre de parts').fill(String(shares));
  await page.getByRole('radio', { name: /Lecteurs-sociétaires/ }).check();
  await see('souscrire-choix');
  await page.getByRole('button', { name: 'Continuer' }).click();
  await arrived(page, new RegExp(`/devenir-societaire/mon-compte\\?parts=${shares}&college=lecteurs$`));
  await see('mon-compte');
  const email = `societaire-${Date.now()}-${familyName.toLowerCase()}@exemple.fr`;
  await page.getByLabel('Adresse e-mail', { exact: true }).fill(email);
  await page.getByLabel('Prénom', { exact: true }).fill('Inès');
  await page.getByLabel('Nom', { exact: true }).fill(familyName);
  await page.getByLabel('Mot de passe', { exact: true }).fill('un mot de passe de test');
  await page.getByRole('button', { name: 'Créer mon compte et continuer' }).click();
  await arrived(page, new RegExp(`/devenir-societaire/souscrire\\?parts=${shares}&college=lecteurs$`));

  // The bulletin, kept from the choice, then signed.
  await expect(main(page)).toContainText('Votre compte est créé');
  await expect(page.getByLabel('Nombre de parts')).toHaveValue(String(shares));
  await page.getByLabel('Adresse postale').fill('3 rue du Port');
  await page.getByLabel('Code postal').fill('44000');
  await page.getByLabel('Ville').fill('Nantes');
  await page.getByRole('checkbox', { name: /J’ai lu et j’accepte les statuts/ }).check();
  await page.getByRole('checkbox', { name: /n’est pas un placement/ }).check();
  if (transfer) await page.getByRole('radio', { name: /Virement bancaire/ }).check();
  await see('bulletin');
  await page.getByRole('button', { name: 'Signer mon bulletin et payer' }).click();
  if (transfer) {
    await arrived(page, /\/devenir-societaire\/confirmation\/[\w-]+$/);
    await expect(heading(page, 'Votre bulletin attend votre virement')).toBeVisible();
    return email;
  }
  await arrived(page, /\/paiement-simule\/[\w-]+$/);
  await expect(main(page)).toContainText(String(shares * 50));
  await page.locator('#numero').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Payer \d/ }).click();
  await arrived(page, /\/devenir-societaire\/confirmation\/[\w-]+$/);
  await reloadUntil(page, heading(page, 'Merci, votre souscription est enregistrée'));
  return email;
}
