/**
 * « Mes factures » and the back-office's billing pages against the production build, with the
 * simulated provider: a new reader sees the empty state, pays a monthly subscription with the
 * test card 4242 4242 4242 4242, finds its invoice, filters by year, downloads the PDF (whose
 * text, read by pdftotext, carries the number); another reader, a made-up id and garbage get the
 * site's 404; a visitor is sent to sign in. An administrator finds the invoice by number and by
 * name, downloads it, sees the gifts (never their code) and exports the year's CSV; a reader gets
 * 404 on every back-office address. axe on every page; screenshots at 1280 and 390 px in
 * /work/shots/invoices/ (SHOTS_DIR overrides it).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '../helpers/e2e';
import { allotNumber, formatNumber } from '../../src/server/billing/numbering';
import { openDatabase } from '../../src/server/db/client';
import { newId } from '../../src/server/db/database';
import { createReaderAccount } from '../helpers/accounts';
import { parseCsv } from '../helpers/csv';
import { subscribeMonthly } from '../helpers/payment';
import { expectAccessible, shoot as shootAt } from '../helpers/browse';

test.describe.configure({ timeout: 90_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/invoices';
const ADMIN = { email: 'administration@exemple.fr', password: 'motdepasse-demo' };
const SUBSCRIBER = { email: 'abonne@exemple.fr', password: 'motdepasse-demo' };
const main = (page: Page) => page.locator('main');

async function inDatabase<T>(work: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const handle = openDatabase({ kind: 'sqlite', path: resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'contrechamp.db') });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

async function signIn(page: Page, who: { email: string; password: string }, to = '/mon-compte') {
  await page.goto(`/login?redirect=${encodeURIComponent(to)}`);
  await page.locator('#login-email').fill(who.email);
  await page.locator('#login-password').fill(who.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, '\\$&')}$`));
}

/** A signed-in page of its own (another browser): for « someone else ». */
async function asSomeoneElse(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: 'fr-FR', timezoneId: 'Europe/Paris' })).newPage();
  await signIn(page, who);
  return page;
}

/** The text pdftotext reads in a PDF. */
function pdfText(bytes: Buffer): string {
  const file = join(tmpdir(), `facture-${randomUUID()}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** Pays a monthly subscription through the support path with the test card, signed in. */
const payMonthly = (page: Page) => subscribeMonthly(page);

/**
 * An invoice of last December for the reader, as the payment path issued it then: a copy of
 * their new invoice's content, numbered in the same series in one transaction (the site has no
 * way to backdate a payment; the renderer draws it from this content).
 */
async function invoiceOfLastYear(email: string): Promise<string> {
  return inDatabase(async (db) => {
    const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const model = await db.selectFrom('billing_documents').selectAll().where('owner_id', '=', user.id).where('kind', '=', 'invoice').executeTakeFirstOrThrow();
    const year = model.year - 1;
    const issuedAt = `${year}-12-15T10:00:00.000Z`;
    return db.transaction().execute(async (trx) => {
      const number = await allotNumber(trx, 'F');
      const label = formatNumber('F', number);
      const content = { ...JSON.parse(model.content), label, issuedAt, payment: { at: issuedAt, method: 'Carte •••• 4242', reference: 'e2e' }, notes: [] };
      await trx
        .insertInto('billing_documents')
        .values({
          ...model,
          id: newId(),
          number,
          label,
          subject_key: `invoice:e2e:${randomUUID()}`,
          order_id: null,
          year,
          issued_at: issuedAt,
          created_at: issuedAt,
          content: JSON.stringify(content),
        })
        .execute();
      return label;
    });
  });
}

test('Mes factures: empty, then the invoice of a payment, by year, as a PDF; 404 for anyone else', async ({ page, browser }) => {
  const reader = await createReaderAccount();
  await signIn(page, reader, '/mon-compte/mes-factures');
  await expect(page.getByRole('heading', { level: 1, name: 'Mes factures' })).toBeVisible();
  await expect(main(page)).toContainText('Vous n’avez encore aucun document.');
  await expect(main(page)).toContainText('Une facture apparaît ici après chaque paiement');
  await expect(main(page).getByRole('link', { name: 'Je m’abonne' })).toHaveAttribute('href', '/soutenir/abonnement');
  await expectAccessible(page);
  await shoot(page, 'mes-factures-vide');

  await payMonthly(page);
  await page.goto('/mon-compte/mes-factures');
  const table = main(page).getByRole('table', { name: /Vos documents/ });
  const row = table.getByRole('row').filter({ hasText: 'Abonnement Mensuel' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('rowheader')).toHaveText(/^Facture F-\d{6}$/);
  await expect(row).toContainText(/7\s€/);
  await expect(row).toContainText(/dont TVA 0,14\s€/);
  const label = (await row.getByRole('rowheader').textContent())!.match(/F-\d{6}/)![0];
  const link = row.getByRole('link', { name: `PDF : Facture ${label}` });
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/^\/mon-compte\/mes-factures\/[0-9a-f-]{36}$/);

  // A document of last year: the years appear, and filter.
  const older = await invoiceOfLastYear(reader.email);
  const thisYear = new Date().getFullYear();
  await page.reload();
  const years = main(page).getByRole('navigation', { name: 'Années' });
  await expect(years.getByRole('link')).toHaveText(['Toutes', String(thisYear), String(thisYear - 1)]);
  await expect(years.getByRole('link', { name: 'Toutes' })).toHaveAttribute('aria-current', 'page');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expectAccessible(page);
  await shoot(page, 'mes-factures');
  await years.getByRole('link', { name: String(thisYear - 1) }).click();
  await expect(page).toHaveURL(new RegExp(`/mon-compte/mes-factures\\?annee=${thisYear - 1}$`));
  await expect(years.getByRole('link', { name: String(thisYear - 1) })).toHaveAttribute('aria-current', 'page');
  await expect(main(page).getByRole('table')).toContainText(older);
  await expect(main(page).getByRole('table')).not.toContainText(label);
  await expect(main(page).getByRole('table', { name: new RegExp(`de ${thisYear - 1}`) })).toBeVisible();
  await shoot(page, 'mes-factures-annee');
  // A year without documents, or garbage: a French notice, a 404, and every document.
  const none = await page.goto('/mon-compte/mes-factures?annee=1999');
  expect(none?.status()).toBe(404);
  await expect(main(page).getByRole('status')).toHaveText(/^Aucun document pour «\s1999\s»\s: voici tous vos documents\.$/);
  await expect(main(page).getByRole('table').getByRole('row')).toHaveCount(3);
  expect((await page.request.get('/mon-compte/mes-factures?annee=%3Cscript%3E')).status()).toBe(404);

  // The download: a PDF with the number in it, never cached, never sniffed.
  await page.goto('/mon-compte/mes-factures');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    main(page)
      .getByRole('link', { name: `PDF : Facture ${label}` })
      .click(),
  ]);
  expect(download.suggestedFilename()).toBe(`contrechamp-${label}.pdf`);
  const answer = await page.request.get(href);
  expect(answer.status()).toBe(200);
  expect(answer.headers()).toMatchObject({
    'content-type': 'application/pdf',
    'content-disposition': `attachment; filename="contrechamp-${label}.pdf"`,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  const bytes = await answer.body();
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(bytes);
  expect(text).toContain(label);
  expect(text).toContain('Facture');
  expect(text).toContain('Camille Testeur');
  expect(pdfText(await (await page.request.get(href)).body())).toBe(text);

  // Someone else: the same address is the site's 404, as are a made-up id and garbage.
  const other = await asSomeoneElse(browser, await createReaderAccount());
  for (const path of [
    href,
    `/mon-compte/mes-factures/${randomUUID()}`,
    '/mon-compte/mes-factures/pas-un-identifiant',
    "/mon-compte/mes-factures/'%20or%201=1",
  ]) {
    const refused = await other.goto(path);
    expect(refused?.status(), path).toBe(404);
    await expect(other, path).toHaveTitle(/^Page introuvable/);
    await expect(other.getByText('Erreur 404'), path).toBeVisible();
  }
  // Without a session: to sign in, and back.
  const visitor = await (await browser.newContext({ baseURL: test.info().project.use.baseURL })).newPage();
  const toSignIn = await visitor.request.get(href, { maxRedirects: 0 });
  expect(toSignIn.status()).toBe(302);
  expect(toSignIn.headers().location).toBe(`/login?redirect=${encodeURIComponent(href)}`);
  await other.context().close();
  await visitor.context().close();
});

test('the demo subscriber’s invoices, receipts and credit note, each with its PDF', async ({ page }) => {
  await signIn(page, SUBSCRIBER, '/mon-compte/mes-factures');
  const table = main(page).getByRole('table', { name: /Vos documents/ });
  await expect(table.getByRole('rowheader', { name: /^Avoir AV-\d{6}$/ })).toBeVisible();
  await expect(table).toContainText(/Annule la facture F-\d{6}/);
  await expect(table).toContainText(/Annulée par l’avoir AV-\d{6}/);
  await expect(table.getByRole('rowheader', { name: /^Reçu de don RD-\d{6}$/ }).first()).toBeVisible();
  await expect(table).toContainText('Abonnement offert 6 mois');
  await expectAccessible(page);
  await shoot(page, 'mes-factures-abonne');
  const note = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^Avoir/ }) });
  const label = (await note.getByRole('rowheader').textContent())!.match(/AV-\d{6}/)![0];
  const pdf = await page.request.get((await note.getByRole('link').getAttribute('href'))!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const text = pdfText(await pdf.body());
  expect(text).toContain(label);
  expect(text).toMatch(/Avoir/);
  expect(text).toMatch(/F-\d{6}/);
});

test('the back-office: invoices by number and by name with their PDF, gifts without their code, the accountant’s CSV; 404 for a reader', async ({
  page,
  browser,
}) => {
  // The longest walk of the suite (three accounts, eight pages, four axe runs, a PDF and a CSV).
  test.setTimeout(180_000);
  await signIn(page, ADMIN, '/administration/factures');
  await expect(page.getByRole('heading', { level: 1, name: 'Factures' })).toBeVisible();
  const nav = page.getByRole('complementary', { name: 'Administration' });
  await expect(nav.getByRole('link', { name: 'Factures' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Cadeaux' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /Les documents les plus récents/ })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'admin-factures');

  // The demo subscriber's credit note, by its number typed loosely, then by name.
  const label = await inDatabase(
    async (db) =>
      (
        await db
          .selectFrom('billing_documents')
          .innerJoin('users', 'users.id', 'billing_documents.owner_id')
          .select('label')
          .where('users.email', '=', SUBSCRIBER.email)
          .where('kind', '=', 'credit_note')
          .executeTakeFirstOrThrow()
      ).label,
  );
  const number = Number(label.slice(3));
  await page.getByLabel('Numéro, nom ou adresse e-mail').fill(`av ${number}`);
  await page.getByRole('button', { name: 'Rechercher' }).click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^1\\sdocument pour «\\sav ${number}\\s»$`) })).toBeVisible();
  const row = page.getByRole('table').getByRole('row').filter({ hasText: label });
  await expect(row).toContainText(/Annule la facture F-\d{6}/);
  await expect(row).toContainText('Agnès Abonnée');
  await expect(row).toContainText(/−70\s€/);
  const pdf = await page.request.get((await row.getByRole('link', { name: new RegExp(`PDF : Avoir ${label}`) }).getAttribute('href'))!);
  expect(pdf.headers()).toMatchObject({ 'content-type': 'application/pdf', 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' });
  expect(pdfText(await pdf.body())).toContain(label);
  const pdfPath = new URL(pdf.url()).pathname;
  // The order behind it.
  await row.getByRole('link', { name: /Voir la commande/ }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Commande du / })).toBeVisible();
  await expect(page.getByRole('article')).toContainText('Abonnement Annuel');
  await expect(page.getByRole('article').getByRole('link', { name: new RegExp(`Avoir ${label}`) })).toBeVisible();
  await expectAccessible(page);

  await page.goto('/administration/factures');
  await page.getByLabel('Numéro, nom ou adresse e-mail').fill('agnes abonnee');
  await page.getByLabel('Type').selectOption('receipt');
  await page.getByRole('button', { name: 'Rechercher' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /documents? pour «\sagnes abonnee\s» \(reçus de dons\)/ })).toBeVisible();
  await expect(page.getByRole('table').getByRole('rowheader').first()).toContainText('Reçu de don');
  await expectAccessible(page);
  await shoot(page, 'admin-factures-recherche');

  // Gifts: the demo gift, by the last group of its code only.
  await nav.getByRole('link', { name: 'Cadeaux' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cadeaux' })).toBeVisible();
  const gift = page.getByRole('article').filter({ hasText: 'Louis Lecteur' });
  await expect(gift).toContainText('…-EMQ8');
  await expect(gift).toContainText('Remis, pas encore activé');
  await expect(main(page)).not.toContainText('7K26');
  expect(await page.content()).not.toContain('CHMP-7K26-AB3D-EMQ8');
  await expectAccessible(page);
  await shoot(page, 'admin-cadeaux');
  await page
    .getByRole('navigation', { name: 'Filtrer par état' })
    .getByRole('link', { name: /^Activé/ })
    .click();
  await expect(page).toHaveURL(/\?etat=activated$/);
  await expect(page.getByRole('article').filter({ hasText: 'Louis Lecteur' })).toHaveCount(0);

  // The accountant's export of this year's invoices and credit notes.
  await page.goto('/administration/factures/export');
  await expect(page.getByRole('heading', { level: 1, name: 'Export comptable' })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'admin-export');
  await page.getByLabel('Du').fill('2026-03-01');
  await page.getByRole('button', { name: 'Télécharger le CSV' }).click();
  await expect(page.getByRole('alert')).toContainText('Indiquez les deux dates');
  await page.getByLabel('Du').fill('');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Télécharger le CSV' }).click()]);
  const year = new Date().getFullYear();
  expect(download.suggestedFilename()).toBe(`contrechamp-factures-${year}.csv`);
  const csv = await page.request.get(`/administration/factures/export?contenu=factures&annee=${year}`);
  expect(csv.headers()).toMatchObject({
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="contrechamp-factures-${year}.csv"`,
    'cache-control': 'private, no-store',
  });
  const body = (await csv.body()).toString('utf8');
  const [header, ...lines] = parseCsv(body);
  expect(header!.slice(0, 3)).toEqual(['Numéro', 'Type', 'Date']);
  const noteLine = lines.find((l) => l[0] === label)!;
  expect(noteLine.slice(1, 4)).toEqual(['Avoir', expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/), 'Agnès Abonnée']);
  expect(noteLine[9]).toBe('-70,00');
  expect(noteLine[10]).toMatch(/^F-\d{6}$/);
  const dons = await page.request.get(`/administration/factures/export?contenu=dons&annee=${year}`);
  expect(
    parseCsv((await dons.body()).toString('utf8'))
      .slice(1)
      .every((l) => l[1] === 'Reçu de don'),
  ).toBe(true);

  // A reader (even the subscriber whose documents these are) gets the site's 404 everywhere.
  const reader = await asSomeoneElse(browser, SUBSCRIBER);
  for (const path of [
    '/administration/factures',
    '/administration/cadeaux',
    '/administration/factures/export',
    `/administration/factures/export?contenu=factures&annee=${year}`,
    pdfPath,
    `/administration/factures/${randomUUID()}`,
  ]) {
    const refused = await reader.goto(path);
    expect(refused?.status(), path).toBe(404);
    await expect(reader, path).toHaveTitle(/^Page introuvable/);
    await expect(reader.getByText('Erreur 404'), path).toBeVisible();
  }
  await reader.context().close();
});
