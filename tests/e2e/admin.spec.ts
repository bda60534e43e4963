/**
 * The back-office in a browser: an administrator finds a reader's orders by e-mail, refunds a
 * paid one (reason, confirmation) and sees it « Remboursée » once the simulated provider's
 * notification has arrived; ends a subscription on the reader's behalf; relaunches a failed job.
 * A reader gets the site's 404, a visitor the sign-in page. Screenshots at 1280 and 390 px go to
 * /work/shots/admin/ (SHOTS_DIR overrides it).
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '../helpers/e2e';
import { createUser } from '../../src/server/auth/service';
import { openDatabase } from '../../src/server/db/client';
import { toTimestamp } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { enqueue } from '../../src/server/jobs/queue';
import { insertOrder } from '../../src/server/orders/repository';
import { insertSubscription } from '../../src/server/subscriptions/repository';
import { expectAccessible, shoot as shootAt } from '../helpers/browse';

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/admin';
const ADMIN = { email: 'administration@exemple.fr', password: 'motdepasse-demo' };
const dataDir = () => resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data');

/**
 * A reader of its own (so that the demo accounts stay as they are for the other specs) with a
 * paid donation, a running subscription and its first paid order, written into the server's
 * database as the payment path would leave them; and a failed job.
 */
async function seedReader() {
  const email = `lectrice-admin-${process.pid}-${Date.now()}@exemple.fr`;
  const handle = openDatabase({ kind: 'sqlite', path: resolve(dataDir(), 'contrechamp.db') });
  try {
    await migrateToLatest(handle.db);
    const now = new Date();
    const earlier = new Date(now.getTime() - 3 * 24 * 3600_000);
    const userId = await createUser(handle.db, { email, password: 'un mot de passe de test', givenName: 'Lina', familyName: 'Remboursée', now: earlier });
    const subscriptionId = await insertSubscription(
      handle.db,
      { userId, kind: 'plan', planId: 'mensuel', amountCents: 700, interval: 'month', vatRateBp: 210, provider: 'simulated', source: 'printemps' },
      earlier,
    );
    await handle.db
      .updateTable('subscriptions')
      .set({
        status: 'active',
        current_period_start: toTimestamp(earlier),
        current_period_end: toTimestamp(new Date(earlier.getTime() + 30 * 24 * 3600_000)),
        payment_method: 'Carte •••• 4242',
      })
      .where('id', '=', subscriptionId)
      .execute();
    const paid = (over: { description: string; amountCents: number; subscriptionId: string | null; at: Date }) =>
      insertOrder(
        handle.db,
        {
          userId,
          purpose: over.subscriptionId ? 'subscription' : 'donation',
          reason: 'initial',
          offerId: over.subscriptionId ? 'mensuel' : 'don',
          description: over.description,
          interval: over.subscriptionId ? 'month' : null,
          amountCents: over.amountCents,
          vatRateBp: over.subscriptionId ? 210 : 0,
          vatCents: over.subscriptionId ? 14 : 0,
          source: 'printemps',
          method: 'card',
          provider: 'simulated',
          subscriptionId: over.subscriptionId,
          attemptKey: `e2e-admin:${randomUUID()}`,
          billingName: 'Lina Remboursée',
          status: 'paid',
          paymentRef: `ch_sim_e2e_${randomUUID()}`,
          paidAt: over.at,
        },
        over.at,
      );
    await paid({ description: 'Abonnement Mensuel', amountCents: 700, subscriptionId, at: earlier });
    const { order: donation } = await paid({ description: 'Don ponctuel', amountCents: 2500, subscriptionId: null, at: now });
    // A job whose every attempt failed (its order is unknown: relaunched, it settles at once).
    const { id: jobId } = await enqueue(handle.db, { kind: 'orders.reconcile', payload: { orderId: randomUUID() }, maxAttempts: 5 });
    const jobError = `ProviderError: le prestataire ne répond pas (${jobId.slice(0, 8)})`;
    await handle.db
      .updateTable('jobs')
      .set({ status: 'failed', attempts: 5, last_error: jobError, finished_at: toTimestamp(now) })
      .where('id', '=', jobId)
      .execute();
    return { email, donationId: donation.id, subscriptionId, jobError };
  } finally {
    await handle.close();
  }
}

async function signIn(page: Page, email: string, password: string, to: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(to)}`);
  await page.getByLabel('Adresse e-mail').first().fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/\//g, '\\/')}$`));
}

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

/** Opens an order's history (once the page under it has settled: a late swap would close it again). */
async function openHistory(order: Locator) {
  const history = order.locator('details').filter({ has: order.page().locator('summary', { hasText: /^Historique/ }) });
  await expect(async () => {
    if (!(await history.evaluate((details: HTMLDetailsElement) => details.open))) await history.locator('summary').click();
    await expect(history).toHaveAttribute('open', '', { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

async function search(page: Page, email: string) {
  await page.getByLabel('Adresse e-mail (ou son début)').fill(email);
  await page.getByRole('button', { name: 'Rechercher' }).click();
}

test('an administrator refunds a paid order, which becomes « Remboursée » when the provider confirms', async ({ page }) => {
  const reader = await seedReader();
  await signIn(page, ADMIN.email, ADMIN.password, '/administration');
  await expect(page.getByRole('heading', { level: 1, name: 'Recettes' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Par mois' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Par source de campagne' }).getByRole('rowheader', { name: 'printemps' })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'recettes');

  await page.getByRole('complementary', { name: 'Administration' }).getByRole('link', { name: 'Commandes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Commandes' })).toBeVisible();
  // The demo subscriber, by the beginning of the address and in capitals.
  await search(page, 'ABONNE@exemple');
  await expect(page.getByRole('heading', { level: 2, name: /commandes? pour «\s?abonne@exemple\s?»/ })).toBeVisible();
  await expect(page.getByText('Agnès Abonnée · abonne@exemple.fr').first()).toBeVisible();

  await search(page, reader.email.toUpperCase());
  await expect(page.getByRole('heading', { level: 2, name: `2 commandes pour « ${reader.email} »` })).toBeVisible();
  const donation = page.getByRole('article').filter({ hasText: 'Don ponctuel' });
  await expect(donation.getByText('Payée', { exact: true })).toBeVisible();
  await openHistory(donation);
  await expect(donation.getByText('Commande créée')).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'commandes');

  await donation.getByRole('button', { name: 'Rembourser…' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Rembourser 25 € ?' })).toBeVisible();
  await expect(page.getByText(`Lina Remboursée, ${reader.email}`)).toBeVisible();
  // No reason: refused by the browser first; a reason of blanks, by the server.
  await page.getByLabel('Motif du remboursement').fill('   ');
  await page.getByRole('button', { name: 'Confirmer le remboursement de 25 €' }).click();
  await expect(page.getByRole('alert')).toContainText('Indiquez le motif');
  await page.getByLabel('Motif du remboursement').fill('Don fait en double par erreur');
  await expectAccessible(page);
  await shoot(page, 'commandes-confirmation');
  await page.getByRole('button', { name: 'Confirmer le remboursement de 25 €' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Remboursement demandé : 25 €' })).toBeVisible();
  // The results come back for the same address; the notification follows within a moment.
  await expect(async () => {
    await search(page, reader.email);
    await expect(page.getByRole('article').filter({ hasText: 'Don ponctuel' }).getByText('Remboursée', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const refunded = page.getByRole('article').filter({ hasText: 'Don ponctuel' });
  await openHistory(refunded);
  await expect(refunded.getByText(`Remboursement demandé par ${ADMIN.email} : Don fait en double par erreur`)).toBeVisible();
  await expect(refunded.getByText('Remboursement effectué')).toBeVisible();
  await expect(refunded.getByRole('button', { name: 'Rembourser…' })).toHaveCount(0);
  await shoot(page, 'commandes-remboursee');

  // The refund shows, apart, in the revenue.
  await page.goto('/administration');
  const printemps = page.getByRole('table', { name: 'Par source de campagne' }).getByRole('row', { name: /printemps/ });
  await expect(printemps.getByRole('cell').nth(1)).toContainText(/€\s*\d+ commandes?/);
});

test('an administrator ends a subscription on the reader’s behalf, and relaunches a failed job', async ({ page }) => {
  const reader = await seedReader();
  await signIn(page, ADMIN.email, ADMIN.password, '/administration/abonnements');
  await search(page, reader.email);
  const subscription = page.getByRole('article').filter({ hasText: 'Abonnement Mensuel' });
  await expect(subscription.getByText('Actif', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, 'abonnements');
  await subscription.getByRole('button', { name: 'Résilier…' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Résilier maintenant ?' })).toBeVisible();
  // « Annuler » goes back to the results, nothing changed.
  await page.getByRole('button', { name: 'Annuler' }).click();
  await expect(page.getByRole('article').filter({ hasText: 'Abonnement Mensuel' }).getByText('Actif', { exact: true })).toBeVisible();
  await page.getByRole('article').filter({ hasText: 'Abonnement Mensuel' }).getByRole('button', { name: 'Résilier…' }).click();
  await page.getByLabel('Motif de la résiliation').fill('Demande de la lectrice par courrier');
  await shoot(page, 'abonnements-confirmation');
  await page.getByRole('button', { name: 'Confirmer la résiliation' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Abonnement résilié' })).toBeVisible();
  const ended = page.getByRole('article').filter({ hasText: 'Abonnement Mensuel' });
  await expect(ended.getByText('Résilié', { exact: true })).toBeVisible();
  await expect(ended.getByRole('button', { name: 'Résilier…' })).toHaveCount(0);

  await page.goto('/administration/taches');
  await expect(page.getByRole('heading', { level: 1, name: 'Tâches en échec' })).toBeVisible();
  const job = page.getByRole('listitem').filter({ hasText: reader.jobError });
  await expect(job).toHaveCount(1);
  await expectAccessible(page);
  await shoot(page, 'taches');
  await job.getByRole('button', { name: /^Relancer/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tâche relancée' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: reader.jobError })).toHaveCount(0);
});

test('the account menu offers the back-office to administrators only', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password, '/mon-compte');
  await page.getByRole('complementary', { name: 'Mon compte' }).getByRole('link', { name: 'Administration' }).click();
  await expect(page).toHaveURL(/\/administration$/);
  await page.context().clearCookies();
  await signIn(page, 'lecteur@exemple.fr', 'motdepasse-demo', '/mon-compte');
  await expect(page.getByRole('complementary', { name: 'Mon compte' }).getByRole('link', { name: 'Administration' })).toHaveCount(0);
});

test('a reader gets the 404 page on every back-office address, a visitor the sign-in page', async ({ page, request }) => {
  for (const path of ['/administration', '/administration/commandes', '/administration/abonnements', '/administration/taches']) {
    const visitor = await request.get(path, { maxRedirects: 0 });
    expect(visitor.status(), path).toBe(302);
    expect(visitor.headers().location, path).toBe(`/login?redirect=${encodeURIComponent(path)}`);
  }
  await signIn(page, 'lecteur@exemple.fr', 'motdepasse-demo', '/mon-compte');
  for (const path of ['/administration', '/administration/commandes', '/administration/abonnements', '/administration/taches']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.locator('main .code')).toHaveText('Erreur 404');
    await expect(page.getByText('Recettes')).toHaveCount(0);
  }
  // A form posted by a reader changes nothing: the same 404.
  const posted = await page.request.post('/administration/taches', { form: { form: 'retry', tache: 'x' }, headers: { origin: new URL(page.url()).origin } });
  expect(posted.status()).toBe(404);
  await page.goto('/administration');
  await shoot(page, 'lecteur-404');
});
