/**
 * The cooperative, as its people use it, in Chromium:
 *
 * - a visitor chooses 3 shares in the readers' college, creates an account at the account step,
 *   signs the bulletin, pays by card, downloads the bulletin; an administrator admits them in the
 *   back-office, moves her to the employees' college, and the certificate appears in Sociétariat;
 * - another new sociétaire renounces within 14 days from Sociétariat and is refunded;
 * - an administrator creates an assembly and schedules its notice, which lands in the outbox;
 *   the partner association gives its proxy to the demo sociétaire; the vote opens (the test moves
 *   the assembly's dates in the database, as time would); three sociétaires of three colleges
 *   vote, one of them by proxy; at the close, the results and the minutes match the hand tally.
 *
 * axe on every page; screenshots at 1280 and 390 px in /work/shots/cooperative/ (SHOTS_DIR).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { arrived, look, reloadUntil, signIn, trackRouter, waitForMail, withE2eDatabase } from '../helpers/browse';
import { subscribeAsNewReader } from '../helpers/cooperative';

test.describe.configure({ timeout: 180_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/cooperative';
const DEMO_PASSWORD = 'motdepasse-demo';
const main = (page: Page) => page.locator('main');

test.beforeEach(async ({ page }) => {
  await trackRouter(page);
});

/** The text of a PDF the page links to, read by poppler. */
async function pdfAt(page: Page, href: string): Promise<string> {
  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  const file = join(mkdtempSync(join(tmpdir(), 'coop-')), 'f.pdf');
  writeFileSync(file, await response.body());
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

test('3 shares in the readers’ college: the bulletin signed and paid by card, then admitted in the back-office, with its certificate', async ({
  page,
  browser,
}) => {
  const email = await subscribeAsNewReader(page, { shares: 3, familyName: 'Durand', see: (name) => look(page, SHOTS, name) });
  await look(page, SHOTS, 'confirmation');
  const bulletin = await pdfAt(page, (await page.getByRole('link', { name: 'Télécharger mon bulletin (PDF)' }).getAttribute('href'))!);
  expect(bulletin).toMatch(/EXEMPLAIRE DU SOCIÉTAIRE/);
  expect(bulletin).toMatch(/Inès Durand/);
  expect(bulletin.replace(/\s+/g, ' ')).toContain('déclare souscrire 3 parts sociales');
  const received = await waitForMail(email, /souscription de parts sociales est enregistrée/);
  expect(received.text).toContain('/devenir-societaire/bulletin/');

  // The back-office admits the bulletin.
  const admin = await (await browser.newContext()).newPage();
  await trackRouter(admin);
  await signIn(admin, 'administration@exemple.fr', DEMO_PASSWORD);
  await admin.goto('/administration/societariat');
  const waiting = admin.getByRole('article').filter({ hasText: 'Inès Durand' }).filter({ hasText: '3\u00a0parts' }).last();
  await expect(waiting).toBeVisible();
  await look(admin, SHOTS, 'admin-societariat');
  await waiting.getByRole('button', { name: 'Prononcer l’admission' }).click();
  await expect(main(admin)).toContainText(/Admission prononcée\s: sociétaire n°\s\d+, certificat n°\s\d+/);
  const memberNumber = /sociétaire n°\s(\d+)/.exec((await main(admin).textContent())!)![1]!;
  // She was hired since: the back-office moves her to the employees' college (a wrong number first).
  const collegeForm = admin.locator('form').filter({ has: admin.getByLabel('Nouveau collège') });
  await admin.getByLabel('N° de sociétaire').fill('999999');
  await admin.getByLabel('Nouveau collège').selectOption({ label: 'Salariés' });
  await admin.getByLabel('Motif').fill('Embauchée comme monteuse');
  await collegeForm.getByRole('button', { name: 'Inscrire le changement' }).click();
  await expect(main(admin)).toContainText('Aucun sociétaire ne porte le n° 999999.');
  await admin.getByLabel('N° de sociétaire').fill(memberNumber);
  await admin.getByLabel('Nouveau collège').selectOption({ label: 'Salariés' });
  await admin.getByLabel('Motif').fill('Embauchée comme monteuse');
  await collegeForm.getByRole('button', { name: 'Inscrire le changement' }).click();
  await expect(main(admin)).toContainText(`Le sociétaire n° ${memberNumber} est inscrit au collège Salariés à compter d’aujourd’hui.`);
  await expect(
    admin
      .getByRole('row')
      .filter({ hasText: `n° ${memberNumber}` })
      .filter({ hasText: 'Changement de collège' }),
  ).toBeVisible();
  await admin.close();

  // The certificate, in Sociétariat.
  await waitForMail(email, /Bienvenue parmi les sociétaires/);
  await waitForMail(email, /Votre collège de sociétaire a changé/);
  await page.goto('/mon-compte/societariat');
  await expect(main(page)).toContainText('3 parts · 150 €');
  await expect(main(page)).toContainText('Salariés');
  const certificate = page.getByRole('link', { name: /certificat n° \d+/ });
  await expect(certificate).toBeVisible();
  await look(page, SHOTS, 'societariat');
  const text = await pdfAt(page, (await certificate.getAttribute('href'))!);
  expect(text).toContain('Certificat de parts sociales');
  expect(text.replace(/\s+/g, ' ')).toContain('pour 3 parts sociales de 50 €');
  // Nobody else reaches it.
  const other = await (await browser.newContext()).newPage();
  await signIn(other, 'lecteur@exemple.fr', DEMO_PASSWORD);
  expect((await other.request.get((await certificate.getAttribute('href'))!)).status()).toBe(404);
  await other.close();

  // A withdrawal asked, then accepted by the back-office: effective at the year's close.
  await page.getByText('Demander le retrait de parts').click();
  await page.getByLabel('Nombre de parts à retirer').fill('3');
  await page.getByRole('checkbox', { name: 'Je demande le retrait de ces parts.' }).check();
  await page.getByRole('button', { name: 'Envoyer ma demande de retrait' }).click();
  await expect(main(page)).toContainText('Votre demande de retrait est enregistrée');
  await expect(main(page)).toContainText('Demande en cours d’examen');
  await look(page, SHOTS, 'societariat-retrait');
  const office = await (await browser.newContext()).newPage();
  await trackRouter(office);
  await signIn(office, 'administration@exemple.fr', DEMO_PASSWORD);
  await office.goto('/administration/societariat');
  const request = office.getByRole('article').filter({ hasText: 'Inès Durand' }).filter({ hasText: 'Demandé le' });
  await request.getByRole('button', { name: 'Accepter le retrait' }).click();
  await expect(main(office)).toContainText('Retrait accepté et inscrit au registre.');
  await office.close();
  await page.reload();
  await expect(main(page)).toContainText(/Accepté, effet au 31\sdécembre \d{4}/);
  // Shares on their way out are no longer offered for renunciation (the service refuses it too).
  await expect(main(page).getByRole('link', { name: 'Se rétracter du contrat ici' })).toHaveCount(0);
});

test('renouncing a subscription within 14 days, from Sociétariat: refunded, and the cooperative’s documents are there', async ({ page }) => {
  const email = await subscribeAsNewReader(page, { shares: 2, familyName: 'Renard' });
  await page.goto('/mon-compte/societariat');
  // One function for the bulletin, « Se rétracter du contrat ici », with the deadline and the refund; no second form.
  const withdraw = main(page).getByRole('link', { name: 'Se rétracter du contrat ici' });
  await expect(withdraw).toHaveCount(1);
  const bulletin = main(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Se rétracter du contrat ici' }) });
  await expect(bulletin).toContainText('100 € vous sont alors remboursés');
  await expect(bulletin).toContainText(
    /dans les 14 jours qui suivent la signature, soit jusqu’au\s\d{1,2}(er)?\s\p{L}+\s\d{4}\sà\s\d{1,2}\sh\s\d{2}\s\(heure de Paris\)/u,
  );
  await expect(main(page).getByText(/Renoncer à cette souscription|Confirmer ma renonciation/)).toHaveCount(0);
  await withdraw.click();
  await arrived(page, /\/retractation\?contrat=b\.[\w-]+$/);
  await look(page, SHOTS, 'renonciation');
  await main(page).getByRole('button', { name: 'Confirmer la rétractation' }).click();
  await expect(page.getByRole('heading', { name: /Votre rétractation est enregistrée le .+ à .+/ })).toBeVisible();
  await page.goto('/mon-compte/societariat');
  await expect(main(page)).toContainText('Renonciation');
  await expect(main(page).getByRole('link', { name: /Rétractation enregistrée le/ })).toBeVisible();
  await expect(main(page).getByRole('link', { name: 'Se rétracter du contrat ici' })).toHaveCount(0);
  const mail = await waitForMail(email, /renonciation/i);
  expect(mail.text).toMatch(/100(,00)?\s€/);

  // The statutes and the last approved accounts, as PDFs.
  const documents = main(page)
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Les documents de la coopérative' }) });
  const accounts = documents.getByRole('listitem').filter({ hasText: 'Comptes annuels de l’exercice 2025' }).getByRole('link', { name: 'PDF' });
  expect((await pdfAt(page, (await accounts.getAttribute('href'))!)).replace(/\s+/g, ' ')).toContain('Résultat net (excédent) 12 430 €');
});

test('an assembly: notice by mail, a proxy, three colleges voting (one by proxy), results and minutes as tallied by hand', async ({ page, browser }) => {
  const title = `Assemblée de test ${Date.now()}`;
  const local = (days: number) => new Date(Date.now() + days * 86_400_000 + 3_600_000).toISOString().slice(0, 16);
  await signIn(page, 'administration@exemple.fr', DEMO_PASSWORD);
  await page.goto('/administration/assemblees');
  await page.getByLabel('Titre', { exact: true }).fill(title);
  await page.getByLabel('Date et heure (heure de Paris)').fill(local(20));
  await page.getByLabel('Lieu').fill('Maison des coopératives, Montreuil');
  await page.getByLabel('Ordre du jour (un point par ligne)').fill('Rapport de la gérance\nVote sur la charte de déontologie');
  await page.getByLabel('Ouverture du vote en ligne').fill(local(10));
  await page.getByLabel('Clôture du vote en ligne').fill(local(20));
  await look(page, SHOTS, 'admin-assemblees');
  await page.getByRole('button', { name: 'Créer l’assemblée' }).click();
  await arrived(page, /\/administration\/assemblees\/[\w-]+$/);
  const assemblyId = page.url().split('/').pop()!;
  await page.getByLabel('Titre de la résolution').fill('Adoption de la charte de déontologie');
  await page.getByLabel('Texte', { exact: true }).fill('L’assemblée adopte la charte de déontologie de la rédaction.');
  await page.getByRole('button', { name: 'Ajouter la résolution' }).click();
  await expect(main(page)).toContainText('Résolution ajoutée.');
  await page.getByRole('button', { name: 'Programmer la convocation' }).click();
  await expect(main(page)).toContainText('Convocation programmée');
  await look(page, SHOTS, 'admin-assemblee');
  const notice = await waitForMail('societaire@exemple.fr', new RegExp(title));
  expect(notice.text).toContain(`/mon-compte/societariat/assemblee-${assemblyId}`);

  // The partner association gives its proxy to the demo sociétaire, before the vote opens.
  const societaireNumber = await withE2eDatabase(async (db) => {
    const user = await db.selectFrom('users').select('id').where('email', '=', 'societaire@exemple.fr').executeTakeFirstOrThrow();
    return (await db.selectFrom('share_members').select('member_number').where('user_id', '=', user.id).executeTakeFirstOrThrow()).member_number;
  });
  const partner = await (await browser.newContext()).newPage();
  await trackRouter(partner);
  await signIn(partner, 'partenaire@exemple.fr', DEMO_PASSWORD);
  await partner.goto(`/mon-compte/societariat/assemblee-${assemblyId}`);
  await look(partner, SHOTS, 'assemblee-convocation');
  await partner.getByLabel('Numéro de sociétaire').fill(String(societaireNumber));
  await partner.getByRole('button', { name: 'Donner mon pouvoir' }).click();
  await expect(main(partner)).toContainText('Votre pouvoir est donné.');
  await partner.close();

  // Ten days pass: the vote opens.
  await withE2eDatabase((db) =>
    db
      .updateTable('assemblies')
      .set({ vote_opens_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', assemblyId)
      .execute(),
  );

  const vote = async (who: Page, choice: 'Pour' | 'Contre') => {
    const ballot = main(who).locator('form.ballot').first();
    await ballot.getByRole('radio', { name: choice }).check();
    await ballot.getByRole('button', { name: /^Voter/ }).click();
    await expect(main(who)).toContainText('Votre vote est enregistré');
    return (await main(who).locator('.receipt code').textContent())!.trim();
  };
  // The employee: pour.
  const employee = await (await browser.newContext()).newPage();
  await trackRouter(employee);
  await signIn(employee, 'salariee@exemple.fr', DEMO_PASSWORD);
  await employee.goto(`/mon-compte/societariat/assemblee-${assemblyId}`);
  const employeeReceipt = await vote(employee, 'Pour');
  await employee.close();
  // The sociétaire (readers): contre for themselves, then pour for the partner (partners).
  await signIn(page, 'societaire@exemple.fr', DEMO_PASSWORD);
  await page.goto(`/mon-compte/societariat/assemblee-${assemblyId}`);
  await expect(main(page)).toContainText('Pour le compte de Association Les Amis du Port');
  await look(page, SHOTS, 'assemblee-vote');
  await vote(page, 'Contre');
  await look(page, SHOTS, 'assemblee-recu');
  await page.goto(`/mon-compte/societariat/assemblee-${assemblyId}`);
  const forPartner = main(page).locator('form.proxy-ballot');
  await forPartner.getByRole('radio', { name: 'Pour' }).check();
  await forPartner.getByRole('button', { name: /Voter pour/ }).click();
  await expect(main(page)).toContainText('Votre vote est enregistré');
  // A second ballot is not possible: no form is left.
  await page.goto(`/mon-compte/societariat/assemblee-${assemblyId}`);
  await expect(main(page).locator('form.ballot')).toHaveCount(0);
  await expect(main(page)).toContainText('Vous avez voté sur toutes les résolutions.');
  // The employee's receipt finds their ballot in the box, as cast, with no name.
  await page.getByLabel('Votre reçu de vote').fill(employeeReceipt);
  await page.getByRole('button', { name: 'Vérifier' }).click();
  await expect(main(page).locator('.verified')).toContainText('Pour (collège Salariés)');

  // The vote closes: the close job runs now.
  await withE2eDatabase(async (db) => {
    const now = new Date(Date.now() - 1_000).toISOString();
    await db.updateTable('assemblies').set({ vote_closes_at: now }).where('id', '=', assemblyId).execute();
    await db.updateTable('jobs').set({ run_at: now }).where('unique_key', '=', `assemblies.close:${assemblyId}`).execute();
  });
  await reloadUntil(page, page.getByRole('heading', { name: 'Résultats' }), 40_000);
  // By hand: employees 1 pour of 1 (35 %), readers 0 of 1 (45 %), partners 1 of 1 (20 %): 55 %, adopted.
  const results = main(page).locator('section', { has: page.getByRole('heading', { name: 'Résultats' }) });
  await expect(results).toContainText('adoptée');
  await expect(results).toContainText('55,0\u00a0% pour, pondéré');
  await look(page, SHOTS, 'assemblee-resultats');
  const minutes = await pdfAt(page, `/mon-compte/societariat/assemblee-${assemblyId}/proces-verbal`);
  expect(minutes).toMatch(/procès-verbal/i);
  expect(minutes).toContain('Adoption de la charte de déontologie');
  expect(minutes.replace(/\s+/g, ' ')).toMatch(/55,0 ?%/);
});

test('an assembly without its quorum: nothing deliberated, for the reader, in the minutes and in the back-office, which shows its second call', async ({
  page,
}) => {
  const title = 'Assemblée générale extraordinaire : titres participatifs';
  // The demo's sociétaire voted pour on every resolution; no one else did.
  await signIn(page, 'societaire@exemple.fr', DEMO_PASSWORD);
  await page.goto('/mon-compte/societariat');
  await page.getByRole('listitem').filter({ hasText: title }).getByRole('link', { name: 'Résultats et procès-verbal' }).click();
  await arrived(page, /\/mon-compte\/societariat\/assemblee-[\w-]+$/);
  const memberPage = page.url();
  await expect(main(page)).toContainText('Résolution 1 — Émission de titres participatifs : non délibérée, faute de quorum');
  await expect(main(page)).toContainText('Résolution 2 — Pouvoirs pour les formalités : non délibérée, faute de quorum');
  await expect(main(page)).not.toContainText(/: (adoptée|rejetée)/);
  await look(page, SHOTS, 'assemblee-sans-quorum');
  const minutes = (await pdfAt(page, `${new URL(memberPage).pathname}/proces-verbal`)).replace(/\s+/g, ' ');
  expect(minutes).toContain('La résolution n’a pas été délibérée, faute de quorum.');
  expect(minutes).not.toMatch(/\b(adoptée|rejetée)\b/);

  // The back-office: the outcome said the same way, and the second call already prepared.
  await page.context().clearCookies();
  await signIn(page, 'administration@exemple.fr', DEMO_PASSWORD);
  await page.goto('/administration/assemblees');
  await page.getByRole('link', { name: title, exact: true }).click();
  await arrived(page, /\/administration\/assemblees\/[\w-]+$/);
  await expect(main(page)).toContainText('Émission de titres participatifs : non délibérée, faute de quorum');
  await expect(main(page)).toContainText('La seconde convocation est créée');
  await look(page, SHOTS, 'admin-assemblee-sans-quorum');
  await page.getByRole('link', { name: `${title} (seconde convocation)` }).click();
  await arrived(page, /\/administration\/assemblees\/[\w-]+$/);
  await expect(main(page)).toContainText('Émission de titres participatifs');
  await look(page, SHOTS, 'admin-seconde-convocation');
});

test('a refund by transfer to a reader without an account: the treasurer enters the IBAN of the RIB received, then marks the transfer made', async ({
  page,
}) => {
  await signIn(page, 'administration@exemple.fr', DEMO_PASSWORD);
  await page.goto('/administration/societariat');
  const row = page.locator('table.data tbody tr').filter({ hasText: 'Théo Garnier' }).filter({ hasText: 'Trop-perçu sur un virement' });
  await expect(row.locator('td.num')).toHaveText(/^50\s€$/);
  await expect(row).toContainText('IBAN attendu');
  await expect(row.getByRole('button', { name: 'Marquer le virement fait' })).toHaveCount(0);
  await row.getByText('Saisir l’IBAN reçu').click();
  await look(page, SHOTS, 'admin-remboursement-iban');

  // A mistyped IBAN: refused in French, nothing recorded.
  await row.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 188');
  await row.getByLabel('Titulaire du compte').fill('Théo Garnier');
  await row.getByRole('button', { name: 'Enregistrer l’IBAN' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'clé de contrôle' })).toBeVisible();
  await page.goto('/administration/societariat');
  await expect(row).toContainText('IBAN attendu');

  await row.getByText('Saisir l’IBAN reçu').click();
  await row.getByLabel('IBAN').fill('FR76 3000 6000 0112 3456 7890 189');
  await row.getByLabel('Titulaire du compte').fill('Théo Garnier');
  await row.getByRole('button', { name: 'Enregistrer l’IBAN' }).click();
  await expect(page.getByRole('status').filter({ hasText: /IBAN enregistré pour le virement RBT-\d{4}-\d{4}/ })).toBeVisible();
  await expect(row).toContainText('FR76 3000 6000 0112 3456 7890 189');
  await expect(row).toContainText('Virement à faire');
  await look(page, SHOTS, 'admin-remboursement-a-faire');
  await row.getByRole('button', { name: 'Marquer le virement fait' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Virement RBT-\d{4}-\d{4} marqué comme fait/ })).toBeVisible();
  await expect(row).toHaveCount(0);
});
