/**
 * « Mes abonnements » against the production build: a reader subscribes through the support
 * path and cancels in three clicks (CGV art. 6.2), with the confirmation mail; resumes; changes
 * plan; changes and stops a monthly donation; changes the payment method at the provider; and
 * another reader's subscription answers 404 to every request. Screenshots of each page and
 * state go to /work/shots/account/ (SHOTS_DIR overrides it).
 */
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect, test, type Page } from '../helpers/e2e';
import { createReaderAccount, outboxDir } from '../helpers/accounts';
import { addressesIn, readOutbox } from '../helpers/outbox';
import { seedSubscription, subscriptionRow } from '../helpers/revenue';
import { plainSpaces } from '../helpers/site';
import { AXE_TAGS, shoot as shootAt } from '../helpers/browse';

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/account';
mkdirSync(SHOTS, { recursive: true });

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Adresse e-mail').first().fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
}

/**
 * The newest mail to `address` whose subject matches, written since `after`, parsed by
 * mailparser (the outbox helper only finds the file).
 */
async function mailTo(address: string, subject: RegExp, after: Date): Promise<ParsedMail> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const files = (await readOutbox(outboxDir())).filter((m) => addressesIn(m.to).includes(address) && m.date >= after).map((m) => m.file);
    for (const file of files.reverse()) {
      const mail = await simpleParser(await readFile(file));
      if (subject.test(mail.subject ?? '')) return mail;
    }
    if (Date.now() > deadline) throw new Error(`No mail "${subject}" to ${address}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const toOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((a) => a.value.map((v) => v.address));
const flash = (page: Page) => page.locator('main').getByRole('status');
const alert = (page: Page) => page.locator('main').getByRole('alert');
/** "23 décembre 2026", as the pages and mails write it. */
const frenchDate = (iso: string) =>
  new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Paris' }).format(new Date(iso)).replace(/^1 /, '1er ');

test('an empty account invites to support, on the dashboard and in « Mes abonnements »', async ({ page }) => {
  const reader = await createReaderAccount();
  await signIn(page, reader.email, reader.password);
  const support = page.getByRole('region', { name: 'Mon soutien' });
  await expect(support).toContainText('Vous ne soutenez pas encore Contrechamp');
  await expect(support.getByRole('link', { name: 'Je m’abonne' })).toHaveAttribute('href', '/soutenir/abonnement');
  await shoot(page, 'dashboard-empty');
  await page.goto('/mon-compte/mes-abonnements');
  await expect(page.getByText('Vous n’avez pas d’abonnement en cours, ni de don mensuel.')).toBeVisible();
  await expect(page.locator('main').getByRole('link', { name: 'Je m’abonne' })).toHaveAttribute('href', '/soutenir/abonnement');
  await expect(page.locator('main').getByRole('link', { name: 'Faire un don' })).toHaveAttribute('href', '/soutenir/dons');
  await shoot(page, 'list-empty');
});

test('subscribed through the support path, a reader cancels in three clicks, gets the mail, and resumes', async ({ page }) => {
  test.setTimeout(60_000);
  const reader = await createReaderAccount();
  await signIn(page, reader.email, reader.password);

  // The support path: billing details, the simulated provider's page, card 4242.
  await page.goto('/soutenir/paiement?formule=mensuel');
  await page.getByLabel('Adresse', { exact: true }).fill('3 rue du Port');
  await page.getByLabel('Code postal').fill('44000');
  await page.getByLabel('Ville').fill('Nantes');
  await page.locator('input[name="cgv"]').check();
  await page.locator('input[name="demarrage_immediat"]').check();
  await page.getByRole('button', { name: /^Payer/ }).click();
  await expect(page).toHaveURL(/\/paiement-simule\//);
  await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Payer/ }).click();
  await expect(page).toHaveURL(/\/soutenir\/confirmation\//);

  // Click 1: the subscription, chosen in the list (once the provider's notification is in).
  await expect(async () => {
    await page.goto('/mon-compte/mes-abonnements');
    await expect(page.getByRole('heading', { name: 'Abonnement Mensuel' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const card = page.locator('[data-subscription]').first();
  await expect(card).toContainText('Actif');
  await expect(card).toContainText('7 € par mois');
  await expect(card).toContainText('Prochain paiement le');
  await expect(card).toContainText('Carte •••• 4242');
  await shoot(page, 'list-active');
  await page.getByRole('link', { name: /Gérer mon abonnement/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Abonnement Mensuel' })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const row = await subscriptionRow(id);
  const endsOn = frenchDate(row.current_period_end!);
  await expect(page.locator('main')).toContainText('7 € TTC par mois (soit 84 € par an)');
  await expect(page.locator('main')).toContainText('Dont TVA à 2,1 % : 0,14 €');
  await expect(page.locator('main')).toContainText(`le ${endsOn}, 7 €`);
  await expect(page.getByRole('table')).toContainText('Payée');
  await shoot(page, 'detail-plan-active');

  // Click 2: « Résilier mon abonnement » leads to the confirmation, which says what happens.
  await page.getByRole('link', { name: 'Résilier mon abonnement' }).click();
  await expect(page).toHaveURL(/\?resilier/);
  const confirm = page.getByRole('region', { name: 'Résilier votre abonnement ?' });
  await expect(confirm).toContainText(`prend fin le ${endsOn}`);
  await expect(confirm).toContainText('Plus rien ne vous sera prélevé.');
  await expect(confirm).toContainText(`le reprendre jusqu’au ${endsOn}`);
  await shoot(page, 'detail-plan-confirm-cancel');

  // Click 3: confirmed; the page says so with the date, and the mail confirms it.
  const before = new Date();
  await page.getByRole('button', { name: 'Confirmer la résiliation' }).click();
  await expect(flash(page)).toHaveText(`Résiliation confirmée : votre abonnement prend fin le ${endsOn}. Un e-mail de confirmation vous a été envoyé.`);
  await expect(page).not.toHaveURL(/resilier/);
  await expect(page.locator('main')).toContainText('Résiliation demandée');
  await expect(page.locator('main')).toContainText(`prend fin le ${endsOn}`);
  const mail = await mailTo(reader.email, /résiliation/i, before);
  expect(mail.subject).toBe('Confirmation de la résiliation de votre abonnement');
  expect(toOf(mail)).toEqual([reader.email]);
  expect(mail.text).toContain(`Elle prend effet le ${endsOn}`);
  expect(mail.text).toContain('Plus rien ne vous sera prélevé.');
  expect((await subscriptionRow(id)).cancel_at_period_end).toBe(1);
  await shoot(page, 'detail-plan-canceled');

  // No cancel link any more; resuming puts it back as it was, with its own mail.
  await expect(page.getByRole('link', { name: 'Résilier mon abonnement' })).toHaveCount(0);
  const resumedAt = new Date();
  await page.getByRole('button', { name: 'Reprendre mon abonnement' }).click();
  await expect(flash(page)).toHaveText(`Votre abonnement continue : prochain paiement le ${endsOn}. Un e-mail de confirmation vous a été envoyé.`);
  expect((await mailTo(reader.email, /continue/, resumedAt)).subject).toBe('Votre abonnement continue');
  expect((await subscriptionRow(id)).cancel_at_period_end).toBe(0);
  await expect(page.getByRole('link', { name: 'Résilier mon abonnement' })).toBeVisible();

  // The dashboard shows it at a glance.
  await page.goto('/mon-compte');
  const support = page.getByRole('region', { name: 'Mon soutien' });
  await expect(support.getByRole('link', { name: 'Abonnement Mensuel' })).toHaveAttribute('href', `/mon-compte/mes-abonnements/${id}`);
  await expect(support).toContainText('7 € par mois');
  await expect(support).toContainText(`Prochain paiement le ${endsOn}`);
  await shoot(page, 'dashboard-support');
});

test('a reader changes plan from the next renewal, then takes the change back', async ({ page }) => {
  const reader = await createReaderAccount();
  const id = await seedSubscription(reader.email, { kind: 'plan', planId: 'mensuel' });
  const endsOn = frenchDate((await subscriptionRow(id)).current_period_end!);
  await signIn(page, reader.email, reader.password);
  await page.goto(`/mon-compte/mes-abonnements/${id}`);
  const form = page.getByRole('region', { name: 'Changer de formule' });
  // The other plans, with their prices; the current one is not offered.
  await expect(form.getByRole('radio')).toHaveCount(3);
  await expect(form).toContainText('70 € par an (soit 5,83 € par mois)');
  await expect(form).toContainText(`effectif à la prochaine échéance, le ${endsOn}`);
  // Nothing chosen: the browser asks first; the server would refuse too.
  const before = new Date();
  await form.getByRole('radio', { name: /^Annuel/ }).check();
  await form.getByRole('button', { name: 'Changer de formule' }).click();
  await expect(flash(page)).toHaveText(
    `C’est noté : à partir du ${endsOn}, votre formule sera « Annuel » (70 € par an). Un e-mail de confirmation vous a été envoyé.`,
  );
  await expect(page.locator('main')).toContainText(`À partir du ${endsOn} : formule Annuel (70 € par an)`);
  expect(plainSpaces((await mailTo(reader.email, /nouvelle formule/, before)).subject ?? '')).toBe(`Votre nouvelle formule s’appliquera le ${endsOn}`);
  expect(await subscriptionRow(id)).toMatchObject({ plan_id: 'mensuel', next_plan_id: 'annuel', amount_cents: 700 });
  await shoot(page, 'detail-plan-change-pending');

  await form.getByRole('radio', { name: /Garder ma formule actuelle, Mensuel/ }).check();
  await form.getByRole('button', { name: 'Changer de formule' }).click();
  await expect(flash(page)).toHaveText('Changement de formule annulé : vous gardez la formule Mensuel.');
  expect(await subscriptionRow(id)).toMatchObject({ plan_id: 'mensuel', next_plan_id: null });
  await expect(page.locator('main')).not.toContainText('Changement prévu');
});

test('a monthly donation: its amount changes (typed in euros, bounds checked), then it stops in three clicks', async ({ page }) => {
  const reader = await createReaderAccount();
  const id = await seedSubscription(reader.email, { kind: 'donation', amountCents: 1000 });
  const endsOn = frenchDate((await subscriptionRow(id)).current_period_end!);
  await signIn(page, reader.email, reader.password);
  await page.goto('/mon-compte/mes-abonnements');
  await page.getByRole('link', { name: /Gérer mon don mensuel/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Don mensuel de 10 €' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Un don n’est pas soumis à la TVA');
  await shoot(page, 'detail-donation');

  const amount = page.getByLabel('Nouveau montant mensuel, en euros');
  await expect(amount).toHaveValue('10');
  await amount.fill('dix euros');
  await page.getByRole('button', { name: 'Changer le montant' }).click();
  await expect(alert(page)).toHaveText('Indiquez un montant en euros, par exemple 20 ou 12,50.');
  await amount.fill('2');
  await page.getByRole('button', { name: 'Changer le montant' }).click();
  await expect(alert(page)).toHaveText(/Le montant minimum d’un don est de 5\s€\./);
  await expect(amount).toHaveValue('2');
  await shoot(page, 'detail-donation-refused');
  const before = new Date();
  await amount.fill('12,50');
  await page.getByRole('button', { name: 'Changer le montant' }).click();
  await expect(flash(page)).toHaveText(`C’est noté : à partir du ${endsOn}, votre don mensuel sera de 12,50 €. Un e-mail de confirmation vous a été envoyé.`);
  await expect(page.locator('main')).toContainText(`À partir du ${endsOn} : 12,50 € par mois`);
  expect((await mailTo(reader.email, /nouveau montant/, before)).text).toContain('12,50');
  expect(await subscriptionRow(id)).toMatchObject({ amount_cents: 1000, next_amount_cents: 1250 });

  await page.getByRole('link', { name: 'Arrêter mon don mensuel' }).click();
  await expect(page.getByRole('region', { name: 'Arrêter votre don mensuel ?' })).toContainText(`prend fin le ${endsOn}`);
  await shoot(page, 'detail-donation-confirm-stop');
  const stopped = new Date();
  await page.getByRole('button', { name: 'Confirmer l’arrêt du don' }).click();
  await expect(flash(page)).toHaveText(`Arrêt confirmé : votre don mensuel prend fin le ${endsOn}. Un e-mail de confirmation vous a été envoyé.`);
  expect((await mailTo(reader.email, /arrêt/i, stopped)).subject).toBe('Confirmation de l’arrêt de votre don mensuel');
  await expect(page.getByRole('button', { name: 'Reprendre mon don mensuel' })).toBeVisible();
});

test('the payment method is changed on the provider’s page, which brings the reader back', async ({ page }) => {
  const reader = await createReaderAccount();
  const id = await seedSubscription(reader.email, { kind: 'plan', planId: 'annuel' });
  await signIn(page, reader.email, reader.password);
  await page.goto(`/mon-compte/mes-abonnements/${id}`);
  await expect(page.locator('main')).toContainText('70 € TTC par an (soit 5,83 € par mois)');
  await page.getByRole('button', { name: 'Modifier mon moyen de paiement' }).click();
  await expect(page).toHaveURL(/\/paiement-simule\/seti_sim_/);
  await expect(page.getByRole('heading', { name: 'Enregistrer une carte' })).toBeVisible();
  await page.getByLabel('Numéro de carte').fill('4000 0000 0000 0341');
  await page.getByRole('button', { name: 'Enregistrer la carte' }).click();
  await expect(page).toHaveURL(new RegExp(`/mon-compte/mes-abonnements/${id}$`));
  await expect(async () => {
    await page.reload();
    await expect(page.locator('main')).toContainText('Carte •••• 0341', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});

test('another reader’s subscription, or an id that is none, is a 404 to every request, and stays as it was', async ({ page, baseURL }) => {
  const owner = await createReaderAccount();
  const id = await seedSubscription(owner.email, { kind: 'plan', planId: 'mensuel' });
  const intruder = await createReaderAccount();
  await signIn(page, intruder.email, intruder.password);

  const url = `/mon-compte/mes-abonnements/${id}`;
  const answer = await page.goto(url);
  expect(answer?.status()).toBe(404);
  await expect(page.locator('main')).not.toContainText('Abonnement Mensuel');
  expect((await page.goto(`${url}?resilier`))?.status()).toBe(404);
  for (const bad of ['pas-un-identifiant', id.toUpperCase().replace(/-/g, ''), `${id}x`]) {
    expect((await page.goto(`/mon-compte/mes-abonnements/${bad}`))?.status(), bad).toBe(404);
  }
  const forms: Record<string, string>[] = [
    { action: 'cancel' },
    { action: 'resume' },
    { action: 'plan', formule: 'annuel' },
    { action: 'amount', montant: '20' },
    { action: 'payment-method' },
  ];
  for (const form of forms) {
    const response = await page.request.post(url, { form, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(response.status(), form.action).toBe(404);
    expect(await response.text()).not.toContain('Abonnement Mensuel');
  }
  expect(await subscriptionRow(id)).toMatchObject({
    status: 'active',
    cancel_at_period_end: 0,
    next_plan_id: null,
    next_amount_cents: null,
    user_id: expect.any(String),
  });

  // Its owner, meanwhile, sees it; a refused action answers its status with the message.
  await page.context().clearCookies();
  await signIn(page, owner.email, owner.password);
  expect((await page.goto(url))?.status()).toBe(200);
  const refused = await page.request.post(url, { form: { action: 'resume' }, headers: { Origin: baseURL! }, maxRedirects: 0 });
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain('ne peut plus être repris');
  const foreign = await page.request.post(url, { form: { action: 'cancel' }, headers: { Origin: 'https://evil.example' }, maxRedirects: 0 });
  expect(foreign.status()).toBe(403);
  expect((await subscriptionRow(id)).cancel_at_period_end).toBe(0);
});

test('axe finds nothing serious on the list, a subscription’s page, its confirmation step and a refused form', async ({ page }) => {
  const reader = await createReaderAccount();
  const plan = await seedSubscription(reader.email, { kind: 'plan', planId: 'mensuel' });
  const gift = await seedSubscription(reader.email, { kind: 'donation', amountCents: 2000 });
  await signIn(page, reader.email, reader.password);
  const blocking = async (what: string) => {
    const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${what} — ${v.id}: ${v.help} (${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(' | ')})`,
      );
  };
  const found: string[] = [];
  await page.goto('/mon-compte');
  found.push(...(await blocking('dashboard')));
  await page.goto('/mon-compte/mes-abonnements');
  found.push(...(await blocking('list')));
  await page.goto(`/mon-compte/mes-abonnements/${plan}`);
  found.push(...(await blocking('plan')));
  await page.goto(`/mon-compte/mes-abonnements/${plan}?resilier`);
  found.push(...(await blocking('confirmation')));
  await page.goto(`/mon-compte/mes-abonnements/${gift}`);
  await page.getByLabel('Nouveau montant mensuel, en euros').fill('1');
  await page.getByRole('button', { name: 'Changer le montant' }).click();
  await expect(alert(page)).toBeVisible();
  // The header's baseline strip fades as the page scrolls to the message: measure it once still.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  found.push(...(await blocking('refused amount')));
  expect(found).toEqual([]);
});
