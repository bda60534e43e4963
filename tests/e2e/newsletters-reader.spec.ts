/**
 * Everything a reader sees of the newsletters, against the production build: the footer's
 * sign-up with a choice of newsletters (double opt-in, the mails naming them), the preferences
 * page reached from the welcome mail (switches, « Me désinscrire de toutes les lettres »), the
 * RFC 8058 one-click POST that leaves one newsletter, the unsubscribe page of one newsletter,
 * /mailinglist with the full choice, the account's switches (the supporters' newsletter for
 * supporters only), and the archive: /lettres, a newsletter's issues, a web version, a
 * supporters-only issue shown to supporters only.
 *
 * The archive's issues are written into the test server's database here, as the sending engine
 * records them once a send starts (status `sent`, the stories as mailed), so that the spec does
 * not depend on what the demo seeds.
 *
 * axe on every new page; screenshots at 1280 and 390 px in /work/shots/newsletters-reader/
 * (SHOTS_DIR overrides).
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { expectAccessible, shoot as shootAt, signIn, withE2eDatabase } from '../helpers/browse';
import { createReaderAccount, outboxDir } from '../helpers/accounts';
import { latestMailTo, linksIn } from '../helpers/outbox';
import { seedSubscription } from '../helpers/revenue';
import { islandReady, localPath, plainSpaces } from '../helpers/site';
import { formatDate } from '../../src/lib/dates';
import { newId, toFlag, toTimestamp } from '../../src/server/db/database';
import type { Segment } from '../../src/server/newsletter/tables';

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/newsletters-reader';
mkdirSync(SHOTS, { recursive: true });
const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

const status = (page: Page) => page.locator('main').getByRole('status');
const statuses = (email: string) =>
  withE2eDatabase(async (db) =>
    Object.fromEntries(
      (
        await db
          .selectFrom('newsletter_subscriptions')
          .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_subscriptions.subscriber_id')
          .select(['newsletter_subscriptions.newsletter', 'newsletter_subscriptions.status'])
          .where('newsletter_subscribers.email', '=', email)
          .execute()
      ).map((r) => [r.newsletter, r.status]),
    ),
  );

// Long walks through several pages, with axe and whole-page captures at two widths.
test.describe.configure({ timeout: 120_000 });

test('the footer signs up to two newsletters; the mails name them; the preferences page, the one-click POST and the unsubscribe page each leave what they say', async ({
  page,
  request,
  secrets,
}) => {
  const email = `choix-${Date.now()}@exemple.fr`;
  await page.goto('/articles');
  const footer = page.locator('footer');
  const field = footer.getByLabel('Votre adresse e-mail');
  await field.focus();
  await islandReady(page, '#footer-newsletter-email');
  await expect(footer.locator('[data-newsletter-text]')).toContainText('choisissez les vôtres');
  // One box per newsletter open to all, the default one ticked; the supporters' one is not offered.
  await expect(footer.getByRole('group', { name: 'Lettres choisies' }).getByRole('checkbox')).toHaveCount(3);
  await expect(footer.getByRole('checkbox', { name: 'L’Hebdo' })).toBeChecked();
  await expect(footer.getByRole('checkbox', { name: 'La Quotidienne' })).not.toBeChecked();
  await expect(footer.getByRole('checkbox', { name: 'Les Coulisses' })).toHaveCount(0);
  await expect(footer.getByRole('link', { name: 'Lire les anciens numéros' })).toHaveAttribute('href', '/lettres');

  // No box ticked: refused in French, tied to the choice, nothing sent.
  await footer.getByRole('checkbox', { name: 'L’Hebdo' }).uncheck();
  await field.fill(email);
  await footer.getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(footer.getByRole('alert')).toHaveText('Cochez au moins une lettre d’information.');
  await expect(footer.getByRole('group', { name: 'Lettres choisies' })).toHaveAttribute('aria-describedby', 'footer-newsletter-error');

  await footer.getByRole('checkbox', { name: 'L’Hebdo' }).check();
  await footer.getByRole('checkbox', { name: 'Les Émissions' }).check();
  const sent = new Date();
  const posted = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/mailinglist/' && r.method() === 'POST');
  await footer.getByRole('button', { name: 'Je m’inscris' }).click();
  expect((await posted).postDataJSON()).toEqual({ email, newsletters: ['hebdo', 'emissions'] });
  await expect(footer.locator('[data-newsletter-text]')).toContainText(`Merci ! Un e-mail de confirmation vient d’être envoyé à ${email}`);
  await expect(field).toHaveValue('');

  // The confirmation names both; the click confirms both; the welcome mail names both again.
  const confirmation = await latestMailTo(outboxDir(), email, { after: sent });
  expect(plainSpaces(confirmation.text)).toContain('L’Hebdo et Les Émissions');
  const confirmLink = linksIn(confirmation.text).find((l) => l.includes('/mailinglist/confirm'))!;
  secrets.allow(confirmLink);
  await page.goto(confirmLink);
  await page.getByRole('button', { name: 'Confirmer mon inscription' }).click();
  await expect(status(page)).toContainText('C’est confirmé');
  const welcome = await latestMailTo(outboxDir(), email, { after: new Date(confirmation.date.getTime() + 1) });
  expect(plainSpaces(welcome.text)).toContain('L’Hebdo et Les Émissions');
  expect(await statuses(email)).toEqual({ hebdo: 'confirmed', emissions: 'confirmed' });

  // The preferences page, from the welcome mail: the token leaves the address at once.
  const preferencesLink = linksIn(welcome.text).find((l) => l.includes('/mailinglist/preferences'))!;
  secrets.allow(preferencesLink);
  await page.goto(preferencesLink);
  await expect(page).toHaveURL(/\/mailinglist\/preferences$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mes lettres d’information');
  await expect(page.locator('[data-masked-email]')).toHaveText(`${email[0]}•••@exemple.fr`);
  await expect(page.locator('main')).not.toContainText(email);
  const switchOf = (name: string) => page.locator('main').getByRole('switch', { name });
  await expect(switchOf('L’Hebdo')).toBeChecked();
  await expect(switchOf('Les Émissions')).toBeChecked();
  await expect(switchOf('La Quotidienne')).not.toBeChecked();
  await expect(switchOf('Les Coulisses')).toHaveCount(0);
  await expect(page.locator('main')).toContainText('Chaque samedi matin');
  await expectAccessible(page);
  await shoot(page, 'preferences');

  // One switch off, another on.
  await switchOf('L’Hebdo').uncheck();
  await switchOf('La Quotidienne').check();
  await page.getByRole('button', { name: 'Enregistrer mes choix' }).click();
  await expect(status(page)).toHaveText('C’est enregistré : vous recevrez La Quotidienne et Les Émissions.');
  await expect(switchOf('L’Hebdo')).not.toBeChecked();
  await expect(switchOf('La Quotidienne')).toBeChecked();
  expect(await statuses(email)).toEqual({ hebdo: 'unsubscribed', emissions: 'confirmed', quotidienne: 'confirmed' });
  await shoot(page, 'preferences-saved');

  // The mail client's one-click button (RFC 8058): a bare POST, no Origin, no cookie; it leaves the mail's newsletter only.
  const header = welcome.headers['list-unsubscribe']!;
  const oneClick = `${localPath(/<(https?:[^>]+)>/.exec(header)![1]!)}&lettre=emissions`;
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const first = await request.post(oneClick, { headers: form, data: 'List-Unsubscribe=One-Click' });
  expect(first.status()).toBe(200);
  expect(await first.json()).toMatchObject({ ok: true, newsletters: ['emissions'] });
  expect(await statuses(email)).toEqual({ hebdo: 'unsubscribed', emissions: 'unsubscribed', quotidienne: 'confirmed' });
  // Again: idempotent. Without the one-click body, or with a forged token: refused, nothing changes.
  expect(await (await request.post(oneClick, { headers: form, data: 'List-Unsubscribe=One-Click' })).json()).toMatchObject({ ok: true, newsletters: [] });
  expect((await request.post(oneClick, { headers: form, data: 'autre=chose' })).status()).toBe(400);
  const forged = oneClick.replace(/token=u1\.([0-9a-f-]{36})\.[A-Za-z0-9_-]{43}/, `token=u1.$1.${'A'.repeat(43)}`);
  expect(forged).not.toBe(oneClick);
  const refused = await request.post(forged.replace('lettre=emissions', 'lettre=quotidienne'), { headers: form, data: 'List-Unsubscribe=One-Click' });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).message).toMatch(/invalide/);
  expect(await statuses(email)).toEqual({ hebdo: 'unsubscribed', emissions: 'unsubscribed', quotidienne: 'confirmed' });
  await page.reload();
  await expect(switchOf('Les Émissions')).not.toBeChecked();
  await expect(switchOf('La Quotidienne')).toBeChecked();

  // The unsubscribe link of an issue of La Quotidienne: the page names it, leaves it alone, and leads to the others.
  const token = /token=([^&>]+)/.exec(header)![1]!;
  const unsubscribeLink = `/mailinglist/unsubscribe?token=${token}&lettre=quotidienne`;
  secrets.allow(new URL(unsubscribeLink, page.url()).href);
  await page.goto(unsubscribeLink);
  await expect(page).toHaveURL(/\/mailinglist\/unsubscribe\?lettre=quotidienne$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Me désinscrire de La Quotidienne');
  await expectAccessible(page);
  await shoot(page, 'unsubscribe-one');
  await page.getByRole('button', { name: 'Me désinscrire' }).click();
  await expect(status(page)).toHaveText('C’est fait : vous ne recevrez plus La Quotidienne. Vos autres lettres ne changent pas.');
  expect((await statuses(email)).quotidienne).toBe('unsubscribed');
  await expectAccessible(page);
  await shoot(page, 'unsubscribe-one-done');
  await page.getByRole('link', { name: 'Gérer mes autres lettres d’information' }).click();
  await expect(page).toHaveURL(/\/mailinglist\/preferences$/);
  await expect(page.locator('main').getByRole('switch', { checked: true })).toHaveCount(0);
  await expect(page.locator('main')).toContainText('Vous ne recevez aucune de nos lettres');

  // Back to one, then « Me désinscrire de toutes les lettres » in one click.
  await switchOf('L’Hebdo').check();
  await page.getByRole('button', { name: 'Enregistrer mes choix' }).click();
  await expect(status(page)).toHaveText('C’est enregistré : vous recevrez L’Hebdo.');
  await page.getByRole('button', { name: 'Me désinscrire de toutes les lettres' }).click();
  await expect(status(page)).toHaveText('C’est fait : vous ne recevrez plus aucune de nos lettres d’information.');
  expect(Object.values(await statuses(email)).every((s) => s === 'unsubscribed')).toBe(true);
});

test('a forged, cut or expired preferences link gets a French page with status 400; a suppressed address is told why it gets nothing', async ({
  page,
  browser,
  secrets,
}) => {
  const link = `/mailinglist/preferences?token=u1.00000000-0000-4000-8000-000000000000.${'A'.repeat(43)}`;
  secrets.allow(new URL(link, test.info().project.use.baseURL).href);
  const forged = await page.goto(link);
  expect(forged?.status()).toBe(400);
  await expect(page).toHaveURL(/\/mailinglist\/preferences$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ce lien ne fonctionne pas');
  await expect(page.getByRole('alert')).toContainText('n’est pas valable');
  await expectAccessible(page);
  await shoot(page, 'preferences-invalid');

  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  expect((await other.goto('/mailinglist/preferences'))?.status()).toBe(400);
  await expect(other.getByRole('alert')).toContainText('ne fonctionne pas dans ce navigateur');
  expect((await other.goto('/mailinglist/preferences?token=%3Cscript%3E'))?.status()).toBe(400);
  await elsewhere.close();

  // A reader whose address bounced: the account says so (and the preferences page, reached with the same address's token).
  const reader = await createReaderAccount();
  await withE2eDatabase((db) =>
    db
      .insertInto('newsletter_suppressions')
      .values({
        email: reader.email,
        reason: 'hard_bounce',
        source: 'relay',
        detail: '550',
        created_at: toTimestamp(new Date()),
        lifted_at: null,
        lifted_by: null,
      })
      .execute(),
  );
  await signIn(page, reader.email, reader.password);
  await page.goto('/mon-compte/mes-informations#lettre');
  await expect(page.locator('#lettre [data-suppressed]')).toContainText('Nous n’envoyons plus rien à cette adresse');
  await expect(page.locator('#lettre [data-suppressed]').getByRole('link', { name: 'écrivez-nous' })).toHaveAttribute('href', '/contact');
});

test('/mailinglist offers every public newsletter with its description and cadence; the choice is checked and named in the mail', async ({ page }) => {
  await page.goto('/mailinglist');
  const choice = page.getByRole('group', { name: 'Les lettres que je veux recevoir' });
  await expect(choice.getByRole('checkbox')).toHaveCount(3);
  await expect(choice.getByRole('checkbox', { name: 'L’Hebdo' })).toBeChecked();
  await expect(choice.getByRole('checkbox', { name: 'L’Hebdo' })).toHaveAccessibleDescription(/Le meilleur de la semaine.*Chaque samedi matin/);
  await expect(choice).toContainText('Du lundi au vendredi, à 7 heures');
  await expect(page.locator('main')).toContainText('Les Coulisses');
  await expect(page.getByRole('link', { name: 'Lire les anciens numéros de nos lettres' })).toHaveAttribute('href', '/lettres');
  await expectAccessible(page);
  await shoot(page, 'mailinglist');

  const email = `page-${Date.now()}@exemple.fr`;
  await choice.getByRole('checkbox', { name: 'L’Hebdo' }).uncheck();
  await page.locator('#page-newsletter-email').fill(email);
  await page.locator('main').getByRole('button', { name: 'Je m’inscris' }).click();
  const again = page.getByRole('group', { name: 'Les lettres que je veux recevoir' });
  await expect(again.getByRole('alert')).toHaveText('Choisissez au moins une lettre d’information.');
  await expect(again).toHaveAttribute('aria-describedby', 'page-newsletter-choice-error');
  await expect(page.locator('#page-newsletter-email')).toHaveValue(email);
  await expectAccessible(page);
  await shoot(page, 'mailinglist-refused');

  const sent = new Date();
  await again.getByRole('checkbox', { name: 'La Quotidienne' }).check();
  await again.getByRole('checkbox', { name: 'Les Émissions' }).check();
  await page.locator('main').getByRole('button', { name: 'Je m’inscris' }).click();
  await expect(page.locator('main [data-newsletter-text]')).toContainText(`Merci ! Un e-mail de confirmation vient d’être envoyé à ${email}`);
  await expect(page.locator('main [data-newsletter-text]')).toContainText('La Quotidienne et Les Émissions');
  const mail = await latestMailTo(outboxDir(), email, { after: sent });
  expect(plainSpaces(mail.text)).toContain('La Quotidienne et Les Émissions');
  expect(await statuses(email)).toEqual({ quotidienne: 'pending', emissions: 'pending' });
});

test('the sign-up API takes newsletters open to all, and refuses anything else in French', async ({ request, baseURL }) => {
  const headers = { Origin: baseURL!, 'Content-Type': 'application/json', 'X-Client-Id': 'contrechamp-site' };
  const ask = (data: unknown) => request.post('/api/mailinglist/', { headers, data });
  for (const newsletters of [['coulisses'], ['hebdo', 'inconnue'], [], Array.from({ length: 21 }, () => 'hebdo'), 'hebdo']) {
    const answer = await ask({ email: 'api@exemple.fr', newsletters });
    expect(answer.status(), JSON.stringify(newsletters)).toBe(400);
    expect((await answer.json()).message, JSON.stringify(newsletters)).toMatch(/lettre/i);
  }
  const email = `api-${Date.now()}@exemple.fr`;
  const sent = new Date();
  expect((await ask({ email, newsletters: ['emissions', 'quotidienne'] })).status()).toBe(202);
  const mail = await latestMailTo(outboxDir(), email, { after: sent });
  expect(plainSpaces(mail.text)).toContain('La Quotidienne et Les Émissions');
});

test('the account has one switch per newsletter it may receive; a supporter also gets the supporters’ one; the API’s box still works', async ({ page }) => {
  const reader = await createReaderAccount();
  await signIn(page, reader.email, reader.password);
  await page.goto('/mon-compte/mes-informations#lettre');
  const section = page.locator('#lettre');
  await expect(section.getByRole('switch')).toHaveCount(3);
  await expect(section.getByRole('switch', { name: 'Les Coulisses' })).toHaveCount(0);
  await section.getByRole('switch', { name: 'L’Hebdo' }).check();
  await section.getByRole('switch', { name: 'Les Émissions' }).check();
  await section.getByRole('button', { name: 'Enregistrer mes choix' }).click();
  await expect(page.locator('#lettre').getByRole('status')).toHaveText('C’est enregistré : vous recevrez L’Hebdo et Les Émissions.');
  // The account's address is proven: confirmed at once, no mail to click.
  expect(await statuses(reader.email)).toEqual({ hebdo: 'confirmed', emissions: 'confirmed' });
  await expect(page.locator('#lettre').getByRole('switch', { name: 'Les Émissions' })).toBeChecked();
  await page.locator('#lettre').scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await shoot(page, 'account');

  // A monthly donation makes the reader a supporter: the supporters' newsletter is offered.
  await seedSubscription(reader.email, { kind: 'donation', amountCents: 1000 });
  await page.reload();
  const coulisses = page.locator('#lettre').getByRole('switch', { name: 'Les Coulisses' });
  await expect(coulisses).toBeVisible();
  await expect(page.locator('#lettre')).toContainText('Réservée aux soutiens');
  await coulisses.check();
  await page.locator('#lettre').getByRole('button', { name: 'Enregistrer mes choix' }).click();
  await expect(page.locator('#lettre').getByRole('status')).toHaveText('C’est enregistré : vous recevrez L’Hebdo, Les Émissions et Les Coulisses.');
  await shoot(page, 'account-supporter');

  // The account API's single box (`newsletter: false`) still leaves every newsletter.
  const profile = { given_name: 'Camille', family_name: 'Testeur', address_line1: '', address_line2: '', postal_code: '', city: '', country: 'FR' };
  const answer = await page.request.post('/api/account/profile', { headers: { Origin: new URL(page.url()).origin }, data: { ...profile, newsletter: false } });
  expect(answer.status()).toBe(200);
  expect(Object.values(await statuses(reader.email)).every((s) => s === 'unsubscribed')).toBe(true);
  expect(
    (await page.request.post('/api/account/profile', { headers: { Origin: new URL(page.url()).origin }, data: { ...profile, newsletter: true } })).status(),
  ).toBe(200);
  expect((await statuses(reader.email)).hebdo).toBe('confirmed');
});

// ——— The archive ———

interface StoryCardJson {
  url: string;
  title: string;
  kicker: string;
  lead: string;
  image: { src: string; alt: string } | null;
  published: string;
}

/** Records an issue as the sending engine does once its send starts; its number follows the newsletter's last. */
async function recordSentIssue(input: {
  newsletter: string;
  subject: string;
  preheader: string;
  intro: string;
  stories: StoryCardJson[];
  segment: Segment;
  supportBlock: boolean;
}): Promise<number> {
  return withE2eDatabase(async (db) => {
    const last = await db
      .selectFrom('newsletter_issues')
      .select((eb) => eb.fn.max<number>('number').as('n'))
      .where('newsletter', '=', input.newsletter)
      .executeTakeFirst();
    const number = Number(last?.n ?? 0) + 1;
    const now = toTimestamp(new Date());
    await db
      .insertInto('newsletter_issues')
      .values({
        id: newId(),
        newsletter: input.newsletter,
        number,
        status: 'sent',
        subject: input.subject,
        preheader: input.preheader,
        intro: input.intro,
        stories: JSON.stringify(input.stories.map((s) => s.url)),
        support_block: toFlag(input.supportBlock),
        segment: input.segment,
        scheduled_at: now,
        created_by: null,
        created_at: now,
        updated_at: now,
        queued_at: now,
        sent_at: now,
        recipients: 1,
        mail_html: '<p>…</p>',
        mail_text: '…',
        mail_stories: JSON.stringify(input.stories),
      })
      .execute();
    return number;
  });
}

/** A story of the site as a newsletter card, read from the articles list. */
async function aStory(page: Page): Promise<StoryCardJson> {
  await page.goto('/articles');
  const teaser = page.locator('main article.teaser.has-media').first();
  const link = teaser.locator('.teaser-title a');
  return {
    url: (await link.getAttribute('href'))!,
    title: (await link.textContent())!.trim(),
    kicker: 'Article',
    lead: ((await teaser.locator('.teaser-lead').textContent()) ?? '').trim(),
    image: { src: (await teaser.locator('img').getAttribute('src'))!, alt: '' },
    published: new Date().toISOString(),
  };
}

async function signedInPage(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  return page;
}

test('the archive lists the newsletters and their issues; a web version shows the intro, the stories and the support block; a supporters’ issue only to supporters', async ({
  page,
  request,
  browser,
}) => {
  const story = await aStory(page);
  const stamp = Date.now();
  const publicNumber = await recordSentIssue({
    newsletter: 'emissions',
    subject: `Dans les coulisses du tournage ${stamp}`,
    preheader: 'Trois émissions, un reportage et nos rendez-vous de la semaine.',
    intro: `Bonjour,\n\nCette semaine, **trois émissions** et [notre page de soutien](/soutenir).\n\n- un reportage\n- un entretien\n\n<script>alert(1)</script>`,
    stories: [story],
    segment: 'all',
    supportBlock: true,
  });
  const restrictedNumber = await recordSentIssue({
    newsletter: 'coulisses',
    subject: `Ce que devient votre argent ${stamp}`,
    preheader: 'Les comptes du trimestre, expliqués.',
    intro: 'Le texte réservé à nos soutiens, avec les **comptes du trimestre**.',
    stories: [],
    segment: 'all',
    supportBlock: false,
  });

  await test.step('/lettres: every newsletter, its cadence, its issues count, the supporters’ one marked', async () => {
    const response = await page.goto('/lettres');
    expect(response?.headers()['cache-control']).toBe('public, max-age=60');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Les anciens numéros');
    await expect(page.locator('.newsletter-card')).toHaveCount(4);
    const emissions = page.locator('[data-newsletter="emissions"]');
    await expect(emissions).toContainText('À chaque nouvelle émission');
    await expect(emissions.locator('[data-issues-count]')).toHaveText(/\d+ numéros?/);
    await expect(emissions.getByRole('link', { name: /M’inscrire/ })).toHaveAttribute('href', '/mailinglist');
    await expect(page.locator('[data-newsletter="coulisses"]')).toContainText('Réservée aux soutiens');
    await expectAccessible(page);
    await shoot(page, 'archive');
  });

  await test.step('a newsletter’s issues, newest first, with number, French date, subject and preheader', async () => {
    await page.locator('[data-newsletter="emissions"] h2 a').click();
    await expect(page).toHaveURL(/\/lettres\/emissions$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Les Émissions');
    const first = page.locator('.issue').first();
    await expect(first).toHaveAttribute('data-issue', String(publicNumber));
    await expect(first).toContainText(`n° ${publicNumber}`);
    await expect(first).toContainText(formatDate(new Date()));
    await expect(first).toContainText('Trois émissions, un reportage');
    await expectAccessible(page);
    await shoot(page, 'archive-newsletter');
    await page.goto('/lettres/coulisses');
    await expect(page.locator(`[data-issue="${restrictedNumber}"]`)).toContainText('Réservé aux soutiens');
  });

  await test.step('the web version: intro (escaped HTML), story cards, support block, way back, sign-up call; cached a minute', async () => {
    await page.goto('/lettres/emissions');
    await page.getByRole('link', { name: `Dans les coulisses du tournage ${stamp}` }).click();
    await expect(page).toHaveURL(new RegExp(`/lettres/emissions/${publicNumber}$`));
    const response = await request.get(`/lettres/emissions/${publicNumber}`);
    expect(response.headers()['cache-control']).toBe('public, max-age=60');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Dans les coulisses du tournage ${stamp}`);
    const intro = page.locator('.issue-intro');
    await expect(intro.locator('strong')).toHaveText('trois émissions');
    await expect(intro.getByRole('link', { name: 'notre page de soutien' })).toHaveAttribute('href', /\/soutenir$/);
    await expect(intro.locator('li')).toHaveCount(2);
    await expect(intro.locator('script')).toHaveCount(0);
    const card = page.locator('.story').first();
    await expect(card.getByRole('heading', { name: story.title })).toBeVisible();
    await expect(card.getByRole('link', { name: story.title })).toHaveAttribute('href', story.url);
    await expect(card.locator('img')).toHaveAttribute('src', story.image!.src);
    await expect(card).toContainText('Article');
    await expect(page.locator('.support').getByRole('link', { name: 'Je soutiens Contrechamp' })).toHaveAttribute('href', '/soutenir');
    await expect(page.getByRole('link', { name: 'Tous les numéros des Émissions' })).toHaveAttribute('href', '/lettres/emissions');
    await expect(page.getByRole('link', { name: 'M’inscrire gratuitement' })).toHaveAttribute('href', '/mailinglist');
    await expectAccessible(page);
    await shoot(page, 'web-issue');
  });

  await test.step('unknown newsletter or number: 404', async () => {
    for (const path of [
      '/lettres/inconnue',
      '/lettres/inconnue/1',
      '/lettres/emissions/999999',
      '/lettres/emissions/0',
      '/lettres/emissions/abc',
      `/lettres/hebdo/${publicNumber + 100000}`,
    ]) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
  });

  const restricted = `/lettres/coulisses/${restrictedNumber}`;
  await test.step('a supporters’ issue: a visitor gets the teaser and the ways in, never cached', async () => {
    const response = await page.goto(restricted);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Ce que devient votre argent ${stamp}`);
    const teaser = page.locator('[data-restricted-teaser]');
    await expect(teaser.getByRole('heading', { name: 'Réservé aux soutiens' })).toBeVisible();
    await expect(teaser.getByRole('link', { name: 'Me connecter' })).toHaveAttribute('href', `/login?redirect=${encodeURIComponent(restricted)}`);
    await expect(teaser.getByRole('link', { name: 'Je soutiens Contrechamp' })).toHaveAttribute('href', '/soutenir');
    await expect(page.locator('main')).not.toContainText('Le texte réservé à nos soutiens');
    await expect(page.locator('.issue-intro')).toHaveCount(0);
    await expectAccessible(page);
    await shoot(page, 'web-issue-restricted');
  });

  await test.step('an account that supports nothing gets the teaser too; a supporter reads it', async () => {
    const reader = await createReaderAccount();
    const readerPage = await signedInPage(browser, reader.email, reader.password);
    await readerPage.goto(restricted);
    await expect(readerPage.locator('[data-restricted-teaser]')).toContainText('ne soutient pas Contrechamp');
    await expect(readerPage.locator('.issue-intro')).toHaveCount(0);
    await readerPage.context().close();

    const supporter = await createReaderAccount();
    await seedSubscription(supporter.email, { kind: 'donation', amountCents: 1000 });
    const supporterPage = await signedInPage(browser, supporter.email, supporter.password);
    const response = await supporterPage.goto(restricted);
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    await expect(supporterPage.locator('.issue-intro strong')).toHaveText('comptes du trimestre');
    await expect(supporterPage.locator('[data-restricted-teaser]')).toHaveCount(0);
    await shoot(supporterPage, 'web-issue-restricted-supporter');
    await supporterPage.context().close();
  });
});
