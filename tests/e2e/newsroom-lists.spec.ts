/**
 * The newsroom's two lists in a browser: the newsroom (redaction@exemple.fr) reads the contact
 * messages, newest first, filters them by subject, and downloads the newsletters' confirmed
 * subscribers as a CSV (with the newsletters each receives); a reader gets the site's 404 on
 * both, a visitor the sign-in page. Screenshots at 1280 and 390 px go to /work/shots/issue12/prod/
 * (SHOTS_DIR overrides it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { formatInTimeZone } from 'date-fns-tz';
import { expect, test, type Page } from '../helpers/e2e';
import { parseCsv } from '../helpers/csv';
import { openDatabase } from '../../src/server/db/client';
import { newId, toTimestamp } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { AXE_TAGS, shoot as shootAt } from '../helpers/browse';

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/issue12/prod';
const EDITOR = { email: 'redaction@exemple.fr', password: 'motdepasse-demo' };
const READER = { email: 'lecteur@exemple.fr', password: 'motdepasse-demo' };
const dataDir = () => resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data');

/** Two messages and three newsletter addresses of this run, written as the site would leave them. */
async function seed() {
  const tag = `${process.pid}-${Date.now()}`;
  const handle = openDatabase({ kind: 'sqlite', path: resolve(dataDir(), 'contrechamp.db') });
  try {
    await migrateToLatest(handle.db);
    const now = Date.now();
    // Dated a little ahead, so that the contact messages other specs send meanwhile do not come first.
    const messages = [
      {
        name: 'Inès Témoin',
        email: `ines-${tag}@exemple.fr`,
        subject: 'redaction',
        message: 'Bonjour,\n\nJ’ai des documents sur la cantine de Montreuil.\n  — Inès',
        at: now + 120_000,
      },
      {
        name: 'Paul Données',
        email: `paul-${tag}@exemple.fr`,
        subject: 'donnees',
        message: 'Je voudrais savoir quelles données vous gardez sur moi.',
        at: now + 60_000,
      },
    ];
    // Older ones, enough for a second page.
    for (let i = 0; i < 20; i++) {
      messages.push({
        name: `Lecteur ${i}`,
        email: `lecteur-${i}-${tag}@exemple.fr`,
        subject: 'autre',
        message: `Un message plus ancien (${i}).`,
        at: now - 3600_000 * (i + 2),
      });
    }
    for (const m of messages) {
      await handle.db
        .insertInto('contact_messages')
        .values({
          id: newId(),
          name: m.name,
          email: m.email,
          subject: m.subject,
          message: m.message,
          created_at: toTimestamp(new Date(m.at)),
          client_hash: null,
        })
        .execute();
    }
    const confirmedAt = new Date(now - 3600_000);
    const subscribers = { confirmed: `lettre-${tag}@exemple.fr`, pending: `attente-${tag}@exemple.fr`, unsubscribed: `partie-${tag}@exemple.fr` };
    for (const [status, email] of Object.entries(subscribers) as ['confirmed' | 'pending' | 'unsubscribed', string][]) {
      const id = newId();
      const times = {
        created_at: toTimestamp(confirmedAt),
        confirmed_at: status === 'pending' ? null : toTimestamp(confirmedAt),
        unsubscribed_at: status === 'unsubscribed' ? toTimestamp(new Date(now)) : null,
      };
      await handle.db
        .insertInto('newsletter_subscribers')
        .values({ id, email, status, unsubscribe_hash: null, ...times })
        .execute();
      // Each address chose the weekly and the émissions' letter.
      for (const newsletter of ['hebdo', 'emissions'])
        await handle.db
          .insertInto('newsletter_subscriptions')
          .values({ subscriber_id: id, newsletter, status, ...times })
          .execute();
    }
    return { messages, subscribers, confirmedAt };
  } finally {
    await handle.close();
  }
}

async function signIn(page: Page, who: { email: string; password: string }, to: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(to)}`);
  await page.getByLabel('Adresse e-mail').first().fill(who.email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?.]/g, '\\$&')}$`));
}

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

test('the newsroom reads the messages received, newest first, by subject, and downloads the subscribers’ CSV', async ({ page }) => {
  const seeded = await seed();
  await signIn(page, EDITOR, '/redaction/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages reçus' })).toBeVisible();

  const nav = page.getByRole('complementary', { name: 'Rédaction' });
  await expect(nav.getByRole('link', { name: 'Messages reçus' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Publication' })).toHaveAttribute('href', '/redaction');
  await expect(nav.getByRole('link', { name: 'Inscrits aux lettres (CSV)' })).toHaveAttribute('download', '');

  // Newest first: this run's two messages lead the list, as they were typed.
  const items = page.locator('ol.messages > li');
  await expect(items.nth(0).getByRole('heading', { level: 2 })).toHaveText('Inès Témoin');
  await expect(items.nth(1).getByRole('heading', { level: 2 })).toHaveText('Paul Données');
  const first = items.nth(0);
  await expect(first.getByRole('link', { name: seeded.messages[0]!.email })).toHaveAttribute('href', `mailto:${seeded.messages[0]!.email}`);
  await expect(first.locator('.badge')).toHaveText(/La rédaction/);
  expect(await first.locator('.message-text').textContent()).toBe(seeded.messages[0]!.message);
  await expect(first.locator('.message-text')).toHaveCSS('white-space', 'pre-wrap');

  const blocking = (await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help}`);
  expect(blocking).toEqual([]);
  await shoot(page, 'redaction-messages');

  // Twenty a page: the older ones are on the next.
  const pager = page.getByRole('navigation', { name: 'Pages des messages' });
  await expect(pager).toContainText(/Page 1 sur \d+/);
  await pager.getByRole('link', { name: 'Plus anciens →' }).click();
  await expect(page).toHaveURL(/\/redaction\/messages\?page=2$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Inès Témoin' })).toHaveCount(0);
  await expect(pager.getByRole('link', { name: '← Plus récents' })).toHaveAttribute('href', '/redaction/messages');
  await shoot(page, 'redaction-messages-page-2');
  await page.goto('/redaction/messages');

  // One subject: the newsroom's message goes, the personal-data one stays.
  await page.getByRole('navigation', { name: 'Filtrer par objet' }).getByRole('link', { name: 'Mes données personnelles' }).click();
  await expect(page).toHaveURL(/\/redaction\/messages\?sujet=donnees$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Paul Données' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Inès Témoin' })).toHaveCount(0);
  await expect(page.locator('.count')).toContainText('pour « Mes données personnelles »');
  await shoot(page, 'redaction-messages-filtre');

  // An address that is not a page of the list is the 404.
  expect((await page.goto('/redaction/messages?page=999'))?.status()).toBe(404);
  expect((await page.goto('/redaction/messages?sujet=inconnu'))?.status()).toBe(404);
  await page.goto('/redaction/messages');

  // The CSV: confirmed addresses only, in French Excel's format, never cached.
  const [download] = await Promise.all([page.waitForEvent('download'), nav.getByRole('link', { name: 'Inscrits aux lettres (CSV)' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^contrechamp-abonnes-lettre-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = parseCsv(readFileSync((await download.path())!, 'utf8'));
  expect(header).toEqual(['Adresse e-mail', 'Inscription confirmée le', 'Lettres reçues']);
  // Its confirmation in Paris time, as a spreadsheet reads a date, and its newsletters by name.
  expect(rows.filter((r) => r[0] === seeded.subscribers.confirmed)).toEqual([
    [seeded.subscribers.confirmed, formatInTimeZone(seeded.confirmedAt, 'Europe/Paris', 'yyyy-MM-dd HH:mm'), 'L’Hebdo, Les Émissions'],
  ]);
  const emails = rows.map((r) => r[0]);
  expect(emails).not.toContain(seeded.subscribers.pending);
  expect(emails).not.toContain(seeded.subscribers.unsubscribed);
  const answer = await page.request.get('/redaction/newsletter.csv');
  expect(answer.headers()['cache-control']).toBe('private, no-store');
  expect(answer.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(answer.headers()['content-disposition']).toMatch(/^attachment; filename="contrechamp-abonnes-lettre-\d{4}-\d{2}-\d{2}\.csv"$/);
});

test('a reader gets the 404 page on both lists, a visitor the sign-in page', async ({ page, request }) => {
  for (const path of ['/redaction/messages', '/redaction/newsletter.csv']) {
    const visitor = await request.get(path, { maxRedirects: 0 });
    expect(visitor.status(), path).toBe(302);
    expect(visitor.headers().location, path).toBe(`/login?redirect=${encodeURIComponent(path)}`);
  }
  await signIn(page, READER, '/mon-compte');
  for (const path of ['/redaction/messages', '/redaction/newsletter.csv']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.locator('main .code')).toHaveText('Erreur 404');
    await expect(page.getByRole('complementary', { name: 'Rédaction' })).toHaveCount(0);
  }
  const csv = await page.request.get('/redaction/newsletter.csv');
  expect(csv.status()).toBe(404);
  expect(await csv.text()).not.toContain('Adresse e-mail;');
});
