/**
 * The withdrawal function for a share subscription (« Se rétracter du contrat ici », CGV art. 10,
 * Directive (EU) 2023/2673), as a new reader walks it against the production build: she
 * subscribes 2 shares on the site and pays by card; the bulletin's mail arrives with the link; she
 * signs out, opens the mail's « Se rétracter du contrat ici » signed out, confirms, reads the
 * acknowledgement page and mail (the contract, the date and time in Paris); signed in again, the
 * Sociétariat page shows the renunciation, and the back-office's list the one record. The same
 * link opened again says it was already done (nothing recorded twice); a forged link answers a
 * French 404. A bulletin whose account was deleted since: its link says so, in French, and whom
 * to write to (410), and records nothing. Screenshots at 1280 and 390 px in SHOTS_DIR (/work/shots/share-withdrawal).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { look, signIn, trackRouter, waitForMail, withE2eDatabase } from '../helpers/browse';
import { subscribeAsNewReader } from '../helpers/cooperative';

test.describe.configure({ timeout: 180_000 });
const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/share-withdrawal';
const DEMO_PASSWORD = 'motdepasse-demo';
const main = (page: Page) => page.locator('main');

test.beforeEach(async ({ page }) => {
  await trackRouter(page);
});

/** « 28 novembre 2026 à 10 h 41 », as the site writes a moment, in Paris time. */
function parisMoment(at: Date): string {
  const part = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', ...options }).format(at);
  const day = part({ day: 'numeric' });
  const [hour, minute] = part({ hour: 'numeric', minute: '2-digit', hourCycle: 'h23' }).split(':');
  return `${day === '1' ? '1er' : day} ${part({ month: 'long' })} ${part({ year: 'numeric' })} à ${Number(hour)} h ${minute}`;
}
const oneSpace = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ');

test('shares withdrawn from the bulletin mail’s link, signed out: acknowledgement page and mail, the renunciation in Sociétariat; the link again says it is done; a forged link is a French 404', async ({
  page,
  browser,
}) => {
  const email = await subscribeAsNewReader(page, { shares: 2, familyName: 'Lemaire' });

  // Before: one function on the bulletin, with its deadline and the refund.
  await page.goto('/mon-compte/societariat');
  const withdraw = main(page).getByRole('link', { name: 'Se rétracter du contrat ici' });
  await expect(withdraw).toHaveCount(1);
  await expect(
    main(page)
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Se rétracter du contrat ici' }) }),
  ).toContainText('100 € vous sont alors remboursés');
  await look(page, SHOTS, 'societariat-avant');

  const mail = await waitForMail(email, /souscription de parts sociales est enregistrée/);
  expect(oneSpace(mail.text)).toContain('Se rétracter du contrat ici');

  // She signs out.
  await page.goto('/mon-compte');
  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The mail's button, as her mail reader shows it.
  const reader = await (await browser.newContext()).newPage();
  await reader.setContent(mail.html || '');
  const href = await reader.getByRole('link', { name: 'Se rétracter du contrat ici' }).getAttribute('href');
  await reader.close();
  const path = new URL(href!).pathname;
  expect(path).toMatch(/^\/retractation\/lien\/w1\.b\.[\w-]+\.[\w-]{43}$/);

  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Se rétracter d’un contrat' })).toBeVisible();
  await expect(main(page)).toContainText('2 parts sociales de Contrechamp');
  // The bulletin's number, as the step shows it (« B-2026-0042 »).
  const reference = /B-\d{4}-\d{4}/.exec((await main(page).textContent()) ?? '')?.[0];
  expect(reference, 'the step shows the bulletin’s number').toBeDefined();
  await expect(main(page)).toContainText(/jusqu’au\s\d{1,2}(er)?\s\p{L}+\s\d{4}\sà\s\d{1,2}\sh\s\d{2}\s\(heure de Paris\)/u);
  await look(page, SHOTS, 'etape-confirmation');
  const before = new Date();
  await main(page).getByRole('button', { name: 'Confirmer la rétractation' }).click();
  const done = page.getByRole('heading', { name: /^Votre rétractation est enregistrée le .+\sà\s.+\s\(heure de Paris\)\.$/ });
  await expect(done).toBeVisible();
  const after = new Date();
  const moments = [parisMoment(before), parisMoment(after)];
  expect(moments).toContain(/le (.+) \(heure de Paris\)/.exec(oneSpace((await done.textContent()) ?? ''))![1]);
  await expect(main(page)).toContainText('Nous vous remboursons 100 €');
  await look(page, SHOTS, 'accuse-page');

  // The acknowledgement, on a durable medium: the contract, its reference, the date and time in Paris.
  const ack = await waitForMail(email, /^Votre rétractation \(renonciation à la souscription\) est enregistrée/);
  const text = oneSpace(ack.text);
  expect(text).toContain('2 parts sociales de Contrechamp');
  expect(text).toContain(reference!);
  expect(moments.some((m) => text.includes(`Nous avons bien reçu votre rétractation, le ${m} (heure de Paris)`))).toBe(true);
  expect(text).toMatch(/100(,00)? €/);

  // The same link again: already done, in French, and nothing new.
  await page.goto(path);
  await expect(page.getByRole('heading', { name: /^Votre rétractation de ce contrat est déjà enregistrée, depuis le .+\sà\s.+/ })).toBeVisible();
  await expect(main(page)).toContainText('aucune nouvelle demande n’a été enregistrée');
  await expect(main(page).getByRole('button', { name: 'Confirmer la rétractation' })).toHaveCount(0);
  await look(page, SHOTS, 'deja-fait');
  const records = await withE2eDatabase(async (db) => {
    const bulletin = await db.selectFrom('share_bulletins').select(['id', 'status']).where('number', '=', reference!).executeTakeFirstOrThrow();
    const rows = await db.selectFrom('contract_withdrawals').select(['channel']).where('bulletin_id', '=', bulletin.id).execute();
    return { status: bulletin.status, rows };
  });
  expect(records).toEqual({ status: 'renounced', rows: [{ channel: 'mailed_link' }] });

  // A forged link: a French 404, nothing shown of any contract.
  const forged = path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  expect((await page.goto(forged))?.status()).toBe(404);
  await expect(main(page)).toContainText('Ce lien de rétractation n’est pas valide');
  await expect(main(page)).not.toContainText(reference!);
  await look(page, SHOTS, 'lien-faux');

  // Signed in again: the Sociétariat page shows the renunciation and its record; no function any more.
  await signIn(page, email, 'un mot de passe de test');
  await page.goto('/mon-compte/societariat');
  const row = main(page)
    .getByRole('listitem')
    .filter({ hasText: /2 parts · 100\s€/ });
  await expect(row).toContainText('Renonciation');
  await expect(row.getByRole('link', { name: /^Rétractation enregistrée le .+\sà\s.+/ })).toBeVisible();
  await expect(main(page).getByRole('link', { name: 'Se rétracter du contrat ici' })).toHaveCount(0);
  await look(page, SHOTS, 'societariat-apres');

  // The back-office lists it once, as made through the mail's link.
  const office = await (await browser.newContext()).newPage();
  await trackRouter(office);
  await signIn(office, 'administration@exemple.fr', DEMO_PASSWORD);
  await office.goto('/administration/retractations');
  const listed = office.getByRole('article').filter({ hasText: reference! });
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('Lien de l’e-mail');
  await office.close();
});

test('the account deleted since: the bulletin’s link says in French what became of it and whom to write to (410), nothing recorded', async ({ page }) => {
  const email = await subscribeAsNewReader(page, { shares: 1, familyName: 'Morel', transfer: true });
  const mail = await waitForMail(email, /en attente de votre virement/);
  const path = /https?:\/\/[^\s/]+(\/retractation\/lien\/[\w.-]+)/.exec(mail.text ?? '')?.[1];
  expect(path, 'the bulletin’s mail carries « Se rétracter du contrat ici »').toBeDefined();

  // Nothing paid yet: the account can go, and the bulletin is closed with it.
  await page.goto('/mon-compte/mes-informations');
  await page.locator('#delete_password').fill('un mot de passe de test');
  await page.getByLabel('Pour confirmer, tapez SUPPRIMER').fill('SUPPRIMER');
  await page.getByRole('button', { name: 'Supprimer définitivement mon compte' }).click();
  await expect(page).toHaveURL(/\/compte-supprime(#.*)?$/);

  const answer = await page.goto(path!);
  expect(answer?.status()).toBe(410);
  await expect(main(page)).toContainText('1 part sociale de Contrechamp');
  await expect(main(page).getByRole('alert')).toContainText('annulée avant d’être payée');
  await expect(main(page).getByRole('alert')).toContainText(/societaires@/);
  await expect(main(page).getByRole('button', { name: 'Confirmer la rétractation' })).toHaveCount(0);
  await look(page, SHOTS, 'compte-supprime');
  const bulletinId = /\/lien\/w1\.b\.([\w-]{36})\./.exec(path!)![1]!;
  expect(await withE2eDatabase((db) => db.selectFrom('contract_withdrawals').select('id').where('bulletin_id', '=', bulletinId).execute())).toEqual([]);
});
