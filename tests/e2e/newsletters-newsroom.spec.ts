/**
 * Newsletters in the newsroom, in a browser (issue « Newsletters », « The newsroom »): the
 * newsroom (redaction@exemple.fr) writes an issue of the weekly for supporters only with three
 * stories found by title and put in order, previews it at 640 and 390 px, sends itself a test,
 * schedules it a minute ahead, cancels, sends it now, and follows it until it is sent, with its
 * counts; it lifts an address from the suppression list. Bad input gets a French message and
 * changes nothing; a reader gets the site's 404 on every page and action, a visitor the sign-in
 * page. Screenshots at 1280 and 390 px go to /work/shots/newsletters-newsroom/ (SHOTS_DIR
 * overrides it); axe looks at every page.
 */
import AxeBuilder from '@axe-core/playwright';
import { formatInTimeZone } from 'date-fns-tz';
import type { APIResponse, Page } from '@playwright/test';
import { createUser } from '../../src/server/auth/service';
import { newId, toTimestamp } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { insertSubscription } from '../../src/server/subscriptions/repository';
import { AXE_TAGS, expectAccessible, screenshotsWanted, shoot as shootAt, signIn, withE2eDatabase } from '../helpers/browse';
import { expect, test } from '../helpers/guard';
import { outboxDir } from '../helpers/accounts';
import { latestMailTo, readOutbox } from '../helpers/outbox';

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/newsletters-newsroom';
const EDITOR = { email: 'redaction@exemple.fr', password: 'motdepasse-demo' };
const READER = { email: 'lecteur@exemple.fr', password: 'motdepasse-demo' };
const PARIS = 'Europe/Paris';

const shoot = (page: Page, name: string) => shootAt(page, SHOTS, name);

// Whole pages are audited (axe) and captured at two widths, many times per test.
test.describe.configure({ timeout: 120_000 });
/** Text as a reader reads it: the typography's no-break spaces as spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

/**
 * This run's readers of the weekly, written as the site would leave them: two supporters (a
 * running subscription each), one reader who supports nothing; and an address suppressed after
 * a hard bounce.
 */
async function seed() {
  const tag = `${process.pid}-${Date.now()}`;
  return withE2eDatabase(async (db) => {
    await migrateToLatest(db);
    const now = new Date();
    const earlier = new Date(now.getTime() - 24 * 3600_000);
    const subscribe = async (email: string) => {
      const id = newId();
      const at = toTimestamp(earlier);
      await db
        .insertInto('newsletter_subscribers')
        .values({ id, email, status: 'confirmed', unsubscribe_hash: null, created_at: at, confirmed_at: at, unsubscribed_at: null })
        .execute();
      await db
        .insertInto('newsletter_subscriptions')
        .values({ subscriber_id: id, newsletter: 'hebdo', status: 'confirmed', created_at: at, confirmed_at: at, unsubscribed_at: null })
        .execute();
    };
    const supporters = [`soutien-a-${tag}@exemple.fr`, `soutien-b-${tag}@exemple.fr`];
    for (const email of supporters) {
      const userId = await createUser(db, { email, password: 'un mot de passe de test', givenName: 'Sam', familyName: 'Soutien', now: earlier });
      const subscription = await insertSubscription(
        db,
        { userId, kind: 'plan', planId: 'mensuel', amountCents: 700, interval: 'month', vatRateBp: 210, provider: 'simulated', source: null, status: 'active' },
        earlier,
      );
      await db
        .updateTable('subscriptions')
        .set({ current_period_start: toTimestamp(earlier), current_period_end: toTimestamp(new Date(now.getTime() + 29 * 24 * 3600_000)) })
        .where('id', '=', subscription)
        .execute();
      await subscribe(email);
    }
    const nonSupporter = `lecteur-hebdo-${tag}@exemple.fr`;
    await subscribe(nonSupporter);
    const suppressed = `rebond-${tag}@exemple.fr`;
    await db
      .insertInto('newsletter_suppressions')
      .values({ email: suppressed, reason: 'hard_bounce', source: 'relay', detail: '550', created_at: toTimestamp(now), lifted_at: null, lifted_by: null })
      .execute();
    return { tag, supporters, nonSupporter, suppressed };
  });
}

const issueRow = (id: string) => withE2eDatabase((db) => db.selectFrom('newsletter_issues').selectAll().where('id', '=', id).executeTakeFirst());
const issuesWithSubject = (subject: string) =>
  withE2eDatabase((db) => db.selectFrom('newsletter_issues').select('id').where('subject', '=', subject).execute());

/** A form posted as a browser without script would (urlencoded, from the site's origin). */
function post(page: Page, path: string, form: Record<string, string>): Promise<APIResponse> {
  const origin = new URL(page.url()).origin;
  return page.request.post(path, { form, headers: { Origin: origin }, maxRedirects: 0 });
}

/** The server's HTML of a page: no inline style (the CSP forbids it), no inline script. */
async function expectCspClean(page: Page, path: string) {
  const html = await (await page.request.get(path)).text();
  expect(html, path).not.toMatch(/<[^>]+\sstyle=/);
  expect(html, path).not.toMatch(/<meta[^>]+http-equiv=["']?refresh/i);
}

/** Fails the test on any CSP violation the page reports (a frame refused, an inline style). */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (frame|load|apply|execute)/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test('the newsroom writes an issue of the weekly for supporters, previews it, tests it, schedules, cancels, sends it and follows it', async ({ page }) => {
  test.setTimeout(600_000);
  const seeded = await seed();
  const csp = watchCsp(page);
  const subject = `La semaine des soutiens ${seeded.tag}`;
  await signIn(page, EDITOR.email, EDITOR.password);

  // The list: the newsletters, « Nouveau numéro », and what is never measured.
  await page.goto('/redaction/lettres');
  await expect(page.getByRole('heading', { level: 1, name: 'Lettres d’information' })).toBeVisible();
  const nav = page.getByRole('complementary', { name: 'Rédaction' });
  await expect(nav.getByRole('link', { name: 'Lettres d’information' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Liste d’exclusion' })).toHaveAttribute('href', '/redaction/lettres/exclusions');
  await expect(page.getByText('Aucune ouverture ni aucun clic n’est mesuré.')).toBeVisible();
  await expectAccessible(page);
  await expectCspClean(page, '/redaction/lettres');
  await shoot(page, 'lettres');

  await page.getByRole('link', { name: 'Nouveau numéro de L’Hebdo' }).click();
  await expect(page).toHaveURL(/\/redaction\/lettres\/nouveau\?lettre=hebdo$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nouveau numéro de L’Hebdo' })).toBeVisible();
  const form = page.locator('form.compose');
  // Each segment with its audience today; this run's supporters are among the weekly's.
  const supportersChoice = form.getByRole('radio', { name: /Les soutiens seulement/ });
  await expect(supportersChoice).toHaveAccessibleName(/—\s\d+\sdestinataires?\saujourd’hui/);
  await expectAccessible(page);
  await expectCspClean(page, '/redaction/lettres/nouveau?lettre=hebdo');
  await shoot(page, 'nouveau');

  // Bad input, as a browser without its own checks would send it: a French message, a 400, nothing stored.
  const base = { form: 'compose', newsletter: 'hebdo', preheader: '', intro: '', stories: '', segment: 'supporters', q: '' };
  const empty = await post(page, '/redaction/lettres/nouveau?lettre=hebdo', { ...base, action: 'save', subject: '   ' });
  expect(empty.status()).toBe(400);
  expect(plain(await empty.text())).toContain('Donnez un objet au numéro.');
  const long = await post(page, '/redaction/lettres/nouveau?lettre=hebdo', { ...base, action: 'save', subject: `${subject} ${'x'.repeat(150)}` });
  expect(long.status()).toBe(400);
  expect(plain(await long.text())).toContain('L’objet ne doit pas dépasser 150 caractères.');
  expect(await withE2eDatabase((db) => db.selectFrom('newsletter_issues').select('id').where('subject', 'like', `${subject}%`).execute())).toEqual([]);
  // The same in the page: the message is tied to its field.
  await form.getByLabel('Objet du mail').evaluate((input: HTMLInputElement) => input.removeAttribute('required'));
  await form.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
  await expect(page.getByRole('alert')).toHaveText('Donnez un objet au numéro.');
  await expect(form.getByLabel('Objet du mail')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Objet du mail')).toHaveAttribute('aria-describedby', /compose-error/);
  await expect(page).toHaveURL(/\/nouveau\?lettre=hebdo$/);
  await shoot(page, 'nouveau-erreur');

  // Compose: what is typed stays through every search, add and move.
  await form.getByLabel('Objet du mail').fill(subject);
  await form.getByLabel('Texte d’aperçu').fill('Trois histoires choisies pour vous, qui nous faites vivre.');
  await form.getByLabel('Introduction').fill('Bonjour,\n\nCette semaine, **trois histoires** que vous avez rendues possibles.');
  await supportersChoice.check();
  const searchFor = async (words: string) => {
    await form.getByLabel('Chercher un article par son titre').fill(words);
    await form.getByRole('button', { name: 'Chercher', exact: true }).click();
    await expect(form.getByRole('heading', { name: `Résultats pour « ${words} »` })).toBeVisible();
  };
  const chosen = form.locator('ol.chosen > li');
  const add = async (title: string) => {
    const before = await chosen.count();
    await form
      .locator('ul.results > li')
      .filter({ hasText: title })
      .getByRole('button', { name: /^Ajouter/ })
      .click();
    await expect(chosen).toHaveCount(before + 1);
  };
  await searchFor('portugal');
  await add('Au Portugal, le droit d’être injoignable');
  await searchFor('cantines');
  await expect(form.locator('ul.results > li')).toHaveCount(2);
  await add('Cantines scolaires : enquête sur un marché verrouillé');
  await searchFor('nappes');
  await add('Nappes phréatiques'); // a brève: its address is an anchor in the brèves' list
  await expect(chosen).toHaveText([/Au Portugal/, /Cantines scolaires/, /Nappes phréatiques/]);
  await expect(form.locator('ul.results > li').filter({ hasText: 'Nappes phréatiques' })).toContainText('Dans le numéro');
  await shoot(page, 'nouveau-articles');
  // Reorder: the brève up, then the first one down.
  await chosen
    .nth(2)
    .getByRole('button', { name: /^Monter/ })
    .click();
  await expect(chosen).toHaveText([/Au Portugal/, /Nappes phréatiques/, /Cantines scolaires/]);
  await chosen
    .nth(0)
    .getByRole('button', { name: /^Descendre/ })
    .click();
  await expect(chosen).toHaveText([/Nappes phréatiques/, /Au Portugal/, /Cantines scolaires/]);
  await expect(chosen.nth(0).getByRole('button', { name: /^Monter/ })).toBeDisabled();
  // A fourth, removed again.
  await searchFor('jaurès');
  await add('les discours de Jaurès');
  await chosen
    .nth(3)
    .getByRole('button', { name: /^Retirer/ })
    .click();
  await expect(chosen).toHaveCount(3);
  // Nothing typed was lost, nothing was stored.
  await expect(form.getByLabel('Objet du mail')).toHaveValue(subject);
  await expect(form.getByLabel('Introduction')).toHaveValue(/trois histoires/);
  await expect(supportersChoice).toBeChecked();
  expect(await issuesWithSubject(subject)).toEqual([]);
  await expectAccessible(page);

  await form.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
  await expect(page).toHaveURL(/\/redaction\/lettres\/[0-9a-f-]{36}$/);
  const issuePath = new URL(page.url()).pathname;
  const id = issuePath.split('/').pop()!;
  await expect(page.locator('.form-message.success')).toContainText('Brouillon enregistré.');
  await expect(page.locator('.status-line .badge')).toHaveText('Brouillon');
  const saved = await issueRow(id);
  expect(saved).toMatchObject({ newsletter: 'hebdo', status: 'draft', subject, segment: 'supporters', support_block: 1 });
  expect(JSON.parse(saved!.stories)).toEqual([
    expect.stringMatching(/^\/breves#breve-nappes-phreatiques/),
    '/articles/2026/au-portugal-le-droit-d-etre-injoignable-a-l-epreuve',
    '/emissions/2026/cantines-scolaires-enquete-sur-un-marche-verrouille',
  ]);
  await expect(chosen).toHaveText([/Nappes phréatiques/, /Au Portugal/, /Cantines scolaires/]);
  await expectAccessible(page);
  await expectCspClean(page, issuePath);
  await shoot(page, 'brouillon');

  // The preview: the mail in two sandboxed frames, its text part, the audience today.
  await page.getByRole('link', { name: 'Aperçu du mail' }).click();
  await expect(page).toHaveURL(new RegExp(`${issuePath}/apercu$`));
  await expect(page.getByText(/\d+\sdestinataires?\saujourd’hui/)).toBeVisible();
  const phone = page.locator('iframe[title="Le mail sur un téléphone"]');
  const desktop = page.locator('iframe[title="Le mail sur un ordinateur"]');
  await expect(phone).toHaveAttribute('sandbox', 'allow-same-origin');
  expect(await phone.evaluate((f: HTMLIFrameElement) => f.clientWidth)).toBe(390);
  expect(await desktop.evaluate((f: HTMLIFrameElement) => f.clientWidth)).toBe(640);
  for (const frame of [phone, desktop]) {
    await expect(frame.contentFrame().locator('body')).toContainText('Au Portugal');
    await expect(frame.contentFrame().locator('body')).toContainText('Nappes phréatiques');
  }
  await expect(page.locator('pre.text-part')).toContainText('Cantines scolaires');
  const mailFrame = await page.request.get(`${issuePath}/apercu.html`);
  expect(mailFrame.status()).toBe(200);
  expect(mailFrame.headers()['content-security-policy']).toContain("default-src 'none'");
  expect(mailFrame.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  expect(mailFrame.headers()['cache-control']).toBe('no-store');
  expect(plain(await mailFrame.text())).toContain('Au Portugal');
  // The mail's frames are left out: axe cannot run in them (no script runs there), and the mail
  // is its template's to audit. Otherwise as expectAccessible (tests/helpers/browse.ts).
  const preview = await new AxeBuilder({ page }).exclude('.frames iframe').withTags(AXE_TAGS).analyze();
  expect(preview.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await expectCspClean(page, `${issuePath}/apercu`);
  await shoot(page, 'apercu');
  // The mail itself, as each frame shows it.
  if (screenshotsWanted) {
    // Without the sticky header and its strip, which would cover the frame's top once scrolled to it.
    const bars = (visibility: string) =>
      page.evaluate(
        (v) => document.querySelectorAll<HTMLElement>('.site-header, [data-baseline]').forEach((el) => el.style.setProperty('visibility', v)),
        visibility,
      );
    await bars('hidden');
    await phone.screenshot({ path: `${SHOTS}/apercu-telephone.png` });
    await desktop.screenshot({ path: `${SHOTS}/apercu-ordinateur.png` });
    await bars('');
  }
  // At 390 px the phone's frame fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect((await phone.boundingBox())!.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // A test: to the editor's own address by default; a bad address is refused in French.
  await page.goto(issuePath);
  const testForm = page.locator('#test form');
  await expect(testForm.getByLabel('Adresse du test')).toHaveValue(EDITOR.email);
  await testForm.evaluate((f: HTMLFormElement) => {
    f.noValidate = true;
  });
  await testForm.getByLabel('Adresse du test').fill('pas-une-adresse');
  await testForm.getByRole('button', { name: 'Envoyer le test' }).click();
  await expect(page.locator('#test-error')).toHaveText('L’adresse du test n’est pas une adresse e-mail valide.');
  await expect(testForm.getByLabel('Adresse du test')).toHaveAttribute('aria-invalid', 'true');
  const badTest = await post(page, issuePath, { form: 'test', to: 'pas-une-adresse' });
  expect(badTest.status()).toBe(400);
  await shoot(page, 'test-erreur');
  const before = new Date();
  await testForm.getByLabel('Adresse du test').fill(EDITOR.email);
  await testForm.getByRole('button', { name: 'Envoyer le test' }).click();
  await expect(page.locator('.form-message.success')).toContainText(`Test envoyé à ${EDITOR.email}.`);
  const testMail = await latestMailTo(outboxDir(), EDITOR.email, { after: before, timeoutMs: 15_000 });
  expect(plain(testMail.subject)).toBe(`[TEST] ${subject}`);
  expect(plain(testMail.text)).toContain('Au Portugal');
  expect((await issueRow(id))!.status).toBe('draft');

  // A schedule in the past: the service's French message, nothing scheduled.
  const sendForm = page.locator('#envoi form').first();
  const yesterday = formatInTimeZone(new Date(Date.now() - 24 * 3600_000), PARIS, 'yyyy-MM-dd');
  await sendForm.getByLabel('Jour', { exact: true }).fill(yesterday);
  await sendForm.getByLabel('Heure', { exact: true }).fill('12:00');
  await sendForm.getByRole('button', { name: 'Programmer l’envoi' }).click();
  await expect(page.locator('#schedule-error')).toHaveText('Cette date est passée : choisissez une date et une heure à venir.');
  const past = await post(page, issuePath, { form: 'schedule', date: yesterday, time: '12:00' });
  expect(past.status()).toBe(400);
  expect((await issueRow(id))!.status).toBe('draft');
  await shoot(page, 'programmer-erreur');

  // A minute ahead (Paris time), then cancelled: a draft again.
  const ahead = new Date(Date.now() + 120_000);
  await sendForm.getByLabel('Jour', { exact: true }).fill(formatInTimeZone(ahead, PARIS, 'yyyy-MM-dd'));
  await sendForm.getByLabel('Heure', { exact: true }).fill(formatInTimeZone(ahead, PARIS, 'HH:mm'));
  await sendForm.getByRole('button', { name: 'Programmer l’envoi' }).click();
  await expect(page.locator('.form-message.success')).toContainText(/Envoi programmé le .+ \(heure de Paris\)\s:\s\d+\sdestinataires?\saujourd’hui\./);
  await expect(page.locator('.status-line .badge')).toHaveText('Programmé');
  await expect(page.getByRole('region', { name: 'Envoi programmé' })).toContainText(
    `${formatInTimeZone(ahead, PARIS, 'H')} h ${formatInTimeZone(ahead, PARIS, 'mm')}`,
  );
  expect((await issueRow(id))!.status).toBe('scheduled');
  await expectAccessible(page);
  await shoot(page, 'programme');
  await page.getByRole('button', { name: 'Annuler l’envoi programmé' }).click();
  await expect(page.locator('.form-message.success')).toContainText('Envoi programmé annulé : le numéro est de nouveau un brouillon.');
  await expect(page.locator('.status-line .badge')).toHaveText('Brouillon');
  expect((await issueRow(id))!).toMatchObject({ status: 'draft', scheduled_at: null });

  // Now, after a confirmation that says to how many and to whom.
  await page.getByRole('button', { name: 'Envoyer maintenant…' }).click();
  const confirm = page.getByRole('region', { name: 'Envoyer maintenant ?' });
  await expect(confirm).toContainText(/\d+\sdestinataires?/);
  await expect(confirm).toContainText('les soutiens seulement');
  const audience = Number(plain((await confirm.locator('dd strong').textContent()) ?? '').replace(/\D/g, ''));
  expect(audience).toBeGreaterThanOrEqual(seeded.supporters.length);
  await expectAccessible(page);
  await shoot(page, 'envoyer-confirmation');
  await confirm.getByRole('button', { name: /^Confirmer l’envoi/ }).click();
  await expect(page.locator('.form-message.success')).toContainText(/Envoi lancé\s:\s\d+\sdestinataires?\./);

  // It goes: « Actualiser » until it is sent, then the counts.
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.status-line .badge')).toHaveText('Envoyé', { timeout: 1_000 });
  }).toPass({ timeout: 90_000, intervals: [1_000, 2_000] });
  await expect(page.getByRole('button', { name: 'Enregistrer le brouillon' })).toHaveCount(0);
  const sentRow = (await issueRow(id))!;
  expect(sentRow.number).toBeGreaterThan(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`L’Hebdo, n° ${sentRow.number}`);
  await expect(page.locator('.progress')).toHaveText(
    new RegExp(`^${sentRow.recipients} envoyés? · 0 refusé · 0 rebond · 0 plainte · 0 désinscription$`.replace(/ /g, '[\\s\\u00a0\\u202f]')),
  );
  await expect(page.getByRole('region', { name: 'Ce qui a été envoyé' })).toContainText(subject);
  await expectAccessible(page);
  await expectCspClean(page, issuePath);
  await shoot(page, 'envoye');

  // Supporters got it, the reader who supports nothing did not.
  for (const email of seeded.supporters) expect(plain((await latestMailTo(outboxDir(), email, { timeoutMs: 20_000 })).subject)).toBe(subject);
  expect((await readOutbox(outboxDir())).filter((m) => m.to.includes(seeded.nonSupporter))).toEqual([]);

  // A sent issue is a record: no form changes it.
  const change = await post(page, issuePath, { ...base, form: 'compose', action: 'save', subject: 'Changé après coup', stories: '' });
  expect(change.status()).toBe(409);
  expect(plain(await change.text())).toContain('Ce numéro est parti ou part en ce moment : il ne peut plus être modifié.');
  expect((await post(page, issuePath, { form: 'delete' })).status()).toBe(409);
  expect((await issueRow(id))!).toMatchObject({ subject, status: 'sent' });

  // The mail as sent.
  await page.getByRole('link', { name: 'Voir le mail tel qu’il a été envoyé' }).click();
  await expect(page.getByText(new RegExp(`Envoyé à ${sentRow.recipients}\\sdestinataires?`))).toBeVisible();
  await expect(page.locator('iframe[title="Le mail sur un téléphone"]').contentFrame().locator('body')).toContainText(`n° ${sentRow.number}`);
  await shoot(page, 'apercu-envoye');

  // The list: status, date, counts; filtered by newsletter.
  await page.goto('/redaction/lettres?lettre=hebdo');
  const listed = page.locator('article.result').filter({ hasText: subject });
  await expect(listed.locator('.badge')).toHaveText('Envoyé');
  await expect(listed).toContainText(/Envoyé le \d+/);
  await expect(listed.locator('.stats')).toHaveText(
    new RegExp(`${sentRow.recipients} envoyés? · 0 refusé · 0 rebond · 0 plainte · 0 désinscription`.replace(/ /g, '[\\s\\u00a0\\u202f]')),
  );
  await expect(page.getByRole('navigation', { name: 'Filtrer par lettre' }).getByRole('link', { name: 'L’Hebdo' })).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);
  await shoot(page, 'lettres-envoye');
  expect((await page.goto('/redaction/lettres?lettre=inconnue'))?.status()).toBe(404);

  expect(csp).toEqual([]);
});

test('a draft is deleted after a confirmation', async ({ page }) => {
  const subject = `Brouillon à jeter ${process.pid}-${Date.now()}`;
  await signIn(page, EDITOR.email, EDITOR.password);
  await page.goto('/redaction/lettres/nouveau?lettre=quotidienne');
  await page.getByLabel('Objet du mail').fill(subject);
  await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
  await expect(page).toHaveURL(/\/redaction\/lettres\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('button', { name: 'Supprimer le brouillon…' }).click();
  const confirm = page.getByRole('region', { name: 'Supprimer ce brouillon ?' });
  await expect(confirm).toContainText(subject);
  await expectAccessible(page);
  await shoot(page, 'supprimer-confirmation');
  // « Annuler » keeps it.
  await confirm.getByRole('link', { name: 'Annuler' }).click();
  await expect(page.getByRole('button', { name: 'Supprimer le brouillon…' })).toBeVisible();
  expect(await issueRow(id)).toBeDefined();
  await page.getByRole('button', { name: 'Supprimer le brouillon…' }).click();
  await page.getByRole('region', { name: 'Supprimer ce brouillon ?' }).getByRole('button', { name: 'Supprimer le brouillon' }).click();
  await expect(page).toHaveURL(/\/redaction\/lettres$/);
  await expect(page.locator('.form-message.success')).toContainText(`Brouillon « ${subject} » supprimé.`);
  expect(await issueRow(id)).toBeUndefined();
  expect((await page.goto(`/redaction/lettres/${id}`))?.status()).toBe(404);
});

test('the newsroom lifts an address from the suppression list', async ({ page }) => {
  const seeded = await seed();
  await signIn(page, EDITOR.email, EDITOR.password);
  await page.goto('/redaction/lettres/exclusions');
  await expect(page.getByRole('heading', { level: 1, name: 'Liste d’exclusion' })).toBeVisible();
  const answer = await page.request.get('/redaction/lettres/exclusions');
  expect(answer.headers()['cache-control']).toBe('no-store');
  await expectCspClean(page, '/redaction/lettres/exclusions');

  // Searched by address (a POST: no address in a URL).
  await page.getByLabel('Adresse e-mail (ou une partie)').fill(`rebond-${seeded.tag}`);
  await page.getByRole('button', { name: 'Rechercher' }).click();
  await expect(page.locator('#list-title')).toHaveText(`1 adresse exclue pour « rebond-${seeded.tag} »`);
  expect(page.url()).not.toContain('rebond');
  const row = page.locator('li.result').filter({ hasText: seeded.suppressed });
  await expect(row).toContainText('Adresse refusée (rebond définitif)');
  await expect(row).toContainText('Refus du serveur d’envoi');
  await expectAccessible(page);
  await shoot(page, 'exclusions');

  await row.getByRole('button', { name: `Lever l’exclusion… de ${seeded.suppressed}` }).click();
  const confirm = page.getByRole('region', { name: `Lever l’exclusion de ${seeded.suppressed} ?` });
  await expect(confirm).toContainText('Cette adresse recevra de nouveau les lettres auxquelles elle est inscrite');
  await expectAccessible(page);
  await shoot(page, 'exclusions-confirmation');
  await confirm.getByRole('button', { name: `Lever l’exclusion de ${seeded.suppressed}` }).click();
  await expect(page.locator('.form-message.success')).toContainText(`Exclusion levée : ${seeded.suppressed} recevra de nouveau les lettres`);
  await expect(page.locator('#list-title')).toHaveText(`Aucune adresse exclue pour « rebond-${seeded.tag} »`);
  const lifted = await withE2eDatabase((db) =>
    db.selectFrom('newsletter_suppressions').selectAll().where('email', '=', seeded.suppressed).executeTakeFirstOrThrow(),
  );
  expect(lifted.lifted_by).toBe(EDITOR.email);
  expect(lifted.lifted_at).not.toBeNull();
  // Lifted already: a second lift is refused, in French.
  const again = await post(page, '/redaction/lettres/exclusions', { form: 'lift', q: '', email: seeded.suppressed });
  expect(again.status()).toBe(404);
  expect(plain(await again.text())).toContain('Cette adresse n’est pas dans la liste d’exclusion.');
});

test('a reader gets the 404 on every newsroom page and action, a visitor the sign-in page', async ({ page, request }) => {
  const seeded = await seed();
  const id = newId();
  await withE2eDatabase(async (db) => {
    const at = toTimestamp(new Date());
    await db
      .insertInto('newsletter_issues')
      .values({
        id,
        newsletter: 'hebdo',
        number: null,
        status: 'draft',
        subject: `Brouillon ${seeded.tag}`,
        preheader: '',
        intro: 'Bonjour.',
        stories: '[]',
        support_block: 0,
        segment: 'all',
        scheduled_at: null,
        created_by: null,
        created_at: at,
        updated_at: at,
        queued_at: null,
        sent_at: null,
        recipients: null,
        mail_html: null,
        mail_text: null,
        mail_stories: null,
      })
      .execute();
  });
  const paths = [
    '/redaction/lettres',
    '/redaction/lettres/nouveau?lettre=hebdo',
    '/redaction/lettres/exclusions',
    `/redaction/lettres/${id}`,
    `/redaction/lettres/${id}/apercu`,
    `/redaction/lettres/${id}/apercu.html`,
  ];
  for (const path of paths) {
    const visitor = await request.get(path, { maxRedirects: 0 });
    expect(visitor.status(), path).toBe(302);
    expect(visitor.headers().location, path).toBe(`/login?redirect=${encodeURIComponent(path)}`);
  }
  await signIn(page, READER.email, READER.password);
  for (const path of paths) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.locator('main .code')).toHaveText('Erreur 404');
    await expect(page.getByRole('complementary', { name: 'Rédaction' })).toHaveCount(0);
  }
  // Actions too, and nothing changes.
  const created = await post(page, '/redaction/lettres/nouveau?lettre=hebdo', {
    form: 'compose',
    action: 'save',
    newsletter: 'hebdo',
    subject: `Intrus ${seeded.tag}`,
    preheader: '',
    intro: '',
    stories: '',
    segment: 'all',
    q: '',
  });
  expect(created.status()).toBe(404);
  expect(await issuesWithSubject(`Intrus ${seeded.tag}`)).toEqual([]);
  expect((await post(page, `/redaction/lettres/${id}`, { form: 'now' })).status()).toBe(404);
  expect((await post(page, `/redaction/lettres/${id}`, { form: 'delete' })).status()).toBe(404);
  expect((await post(page, `/redaction/lettres/${id}`, { form: 'test', to: READER.email })).status()).toBe(404);
  expect(await issueRow(id)).toMatchObject({ status: 'draft', subject: `Brouillon ${seeded.tag}` });
  expect((await post(page, '/redaction/lettres/exclusions', { form: 'lift', q: '', email: seeded.suppressed })).status()).toBe(404);
  const still = await withE2eDatabase((db) =>
    db.selectFrom('newsletter_suppressions').select('lifted_at').where('email', '=', seeded.suppressed).executeTakeFirstOrThrow(),
  );
  expect(still.lifted_at).toBeNull();
});
