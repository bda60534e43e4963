/**
 * Trust and hygiene: what search engines are given (sitemap, robots.txt), the icon every browser
 * asks for, a Content-Security-Policy that no page breaks with an inline style, the 404's way
 * on, a spent sign-in link, the account's address and newsletter forms and its menu on a phone,
 * and a donation thank-you that thanks only for a donation that happened.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { createReaderAccount, linkFromMail } from '../helpers/accounts';
import { sitemapPaths } from '../helpers/site';
import { withE2eDatabase } from '../helpers/browse';
import { CARD, fillPaymentAndPay, payOnProvider } from '../helpers/payment';
import { PRIVATE_PATH_PREFIXES, isPrivatePath } from '../../src/config/indexing';

test.describe.configure({ timeout: 60_000 });

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __routerBusy?: boolean; __cspViolations?: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations!.push(`${e.violatedDirective} ${e.sample}`));
    document.addEventListener('astro:before-preparation', () => {
      w.__routerBusy = true;
    });
    document.addEventListener('astro:page-load', () => {
      w.__routerBusy = false;
    });
  });
});

const main = (page: Page) => page.locator('main');
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const cspViolations = (page: Page) => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

async function arrived(page: Page, url: RegExp) {
  await expect(page).toHaveURL(url);
  await page.waitForTimeout(200);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __routerBusy?: boolean }).__routerBusy === true)).toBe(false);
  await expect(page.locator('html')).not.toHaveAttribute('data-astro-transition', /./);
}

async function signIn(page: Page, reader: { email: string; password: string }) {
  await page.goto('/login');
  await page.locator('#login-email').fill(reader.email);
  await page.locator('#login-password').fill(reader.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await arrived(page, /\/mon-compte$/);
}

/** Every HTML file the build wrote. */
function builtPages(dir = join(process.cwd(), 'dist', 'client')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '_astro' || name === 'pagefind' ? [] : builtPages(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** `style="…"` on any element (the one thing a hash-based style-src cannot allow). */
const STYLE_ATTRIBUTE = /<[a-z][^>]*\sstyle\s*=/i;

test.describe('search engines', () => {
  test('the sitemap lists public, indexable pages only: none of a private area, each one live without noindex', async ({ request }) => {
    const paths = await sitemapPaths(request);
    expect(paths.length).toBeGreaterThan(100);
    for (const path of ['/', '/articles', '/faq', '/contact', '/mailinglist', '/soutenir/dons', '/devenir-societaire']) expect(paths, path).toContain(path);
    const leaked = paths.filter(
      (path) => isPrivatePath(path) || /^\/(mon-compte|administration|api|welcome|logout|mailinglist\/(confirm|unsubscribe))(\/|$)/.test(path),
    );
    expect(leaked).toEqual([]);
    // Every listed page answers 200 and does not ask to stay out of the index.
    const refused: string[] = [];
    for (const path of paths) {
      const response = await request.get(path);
      const html = await response.text();
      if (response.status() !== 200 || /<meta name="robots" content="[^"]*noindex/.test(html)) refused.push(path);
    }
    expect(refused).toEqual([]);
  });

  test('robots.txt keeps crawlers out of the very areas the sitemap leaves out', async ({ request }) => {
    const robots = await (await request.get('/robots.txt')).text();
    for (const prefix of PRIVATE_PATH_PREFIXES) expect(robots).toContain(`Disallow: ${prefix}\n`);
    expect(robots).toContain('Disallow: /mailinglist/confirm');
    expect(robots).not.toMatch(/Disallow: \/mailinglist\n/);
  });

  test('/favicon.ico is an icon, and pages name it', async ({ request, page }) => {
    const response = await request.get('/favicon.ico');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const body = await response.body();
    // An ICO file: reserved 0, type 1 (icon), at least one image.
    expect([body.readUInt16LE(0), body.readUInt16LE(2)]).toEqual([0, 1]);
    expect(body.readUInt16LE(4)).toBeGreaterThan(0);
    await page.goto('/');
    await expect(page.locator('link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
  });
});

test.describe('Content-Security-Policy', () => {
  test('no built page carries a style attribute', () => {
    const pages = builtPages();
    expect(pages.length).toBeGreaterThan(100);
    const offending = pages.filter((file) => STYLE_ATTRIBUTE.test(readFileSync(file, 'utf8'))).map((file) => relative(process.cwd(), file));
    expect(offending).toEqual([]);
  });

  test('pages rendered on demand carry none either, and the gift activation breaks no rule of the policy', async ({ page, request }) => {
    const anonymous = [
      '/activer-cadeau',
      '/activer-cadeau/CHMP-7K26-AB3D-EMQ8',
      '/login',
      '/welcome',
      '/mailinglist',
      '/page-inconnue',
      '/soutenir/dons/merci?commande=00000000-0000-4000-8000-000000000000',
    ];
    for (const path of anonymous) expect(STYLE_ATTRIBUTE.test(await (await request.get(path)).text()), path).toBe(false);
    const reader = await createReaderAccount();
    await signIn(page, reader);
    for (const path of [
      '/activer-cadeau',
      '/activer-cadeau/CHMP7K26AB3DEMQ8',
      '/mon-compte',
      '/mon-compte/mes-informations',
      '/mon-compte/mes-abonnements',
      '/soutenir/paiement?don=2000&frequence=unique',
    ]) {
      const response = await page.goto(path);
      expect(STYLE_ATTRIBUTE.test((await response?.text()) ?? ''), path).toBe(false);
      expect(await cspViolations(page), path).toEqual([]);
    }
    // A code typed in, through the client router.
    await page.goto('/activer-cadeau');
    await page.getByLabel('Code cadeau').fill('CHMP-7K26-AB3D-EMQ8');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await arrived(page, /\/activer-cadeau\/CHMP7K26AB3DEMQ8$/);
    expect(await cspViolations(page)).toEqual([]);
  });
});

test.describe('the 404 page', () => {
  test('keeps the spec’s message, shows its code once, and offers search and the latest stories', async ({ page, request }) => {
    const response = await page.goto('/une-adresse-qui-n-existe-pas');
    expect(response?.status()).toBe(404);
    await expect(heading(page)).toHaveText('Une erreur est survenue');
    await expect(main(page)).toContainText('Nous sommes désolé, mais la page n’est pas disponible pour le moment.');
    await expect(main(page).getByRole('link', { name: "Retour à la page d'accueil" })).toHaveAttribute('href', '/');
    expect(((await main(page).innerText()).match(/404/g) ?? []).length).toBe(1);

    // The latest stories, each a live page.
    const latest = page.getByRole('region', { name: 'À lire en ce moment' });
    const links = latest.getByRole('listitem').getByRole('link');
    await expect(links).toHaveCount(5);
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
      expect(href).toMatch(/^\/(articles|emissions)\/\d{4}\/[a-z0-9-]+$/);
      expect((await request.get(href)).status(), href).toBe(200);
    }

    // Search: the field leads to the search page with the words typed.
    await page.getByRole('searchbox', { name: 'Chercher sur Contrechamp' }).fill('logement');
    await main(page).getByRole('button', { name: 'Rechercher' }).click();
    await expect(page).toHaveURL(/\/rechercher\?q=logement$/);
  });

  test('works without JavaScript: the search is a plain form to the search page', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/autre-adresse-inconnue');
    await expect(page.locator('form[role="search"][method="get"][action="/rechercher"] input[name="q"]')).toHaveCount(1);
    await context.close();
  });
});

test.describe('a sign-in link that no longer works', () => {
  test('used: says so once, with one way on, a fresh link to its account that signs in', async ({ page, context }) => {
    const reader = await createReaderAccount();
    let sent = new Date();
    await page.goto('/login');
    await page.locator('#magic-email').fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    const link = await linkFromMail(reader.email, '/welcome/', sent);
    await page.goto(link);
    await page.getByRole('button', { name: 'Me connecter' }).click();
    await arrived(page, /\/mon-compte$/);

    await context.clearCookies();
    await page.goto(link);
    await arrived(page, /\/welcome$/);
    await expect(heading(page)).toHaveText('Ce lien de connexion ne fonctionne plus');
    await expect(main(page)).not.toContainText('Bienvenue');
    await expect(page.getByRole('button', { name: 'Me connecter' })).toHaveCount(0);
    await expect(main(page).locator('form')).toHaveCount(1);
    const masked = `${reader.email.slice(0, 1)}•••@${reader.email.split('@')[1]}`;
    await expect(main(page)).toContainText(masked);
    // The address is never shown in full.
    await expect(main(page)).not.toContainText(reader.email);

    sent = new Date();
    await page.getByRole('button', { name: 'Recevoir un nouveau lien' }).click();
    await expect(main(page).getByRole('status')).toHaveText(`Un nouveau lien de connexion vient d’être envoyé à ${masked}. Il est valable 15 minutes.`);
    await page.goto(await linkFromMail(reader.email, '/welcome/', sent));
    await expect(heading(page)).toHaveText('Bienvenue !');
    await page.getByRole('button', { name: 'Me connecter' }).click();
    await arrived(page, /\/mon-compte$/);
  });

  test('expired: the same message and way on', async ({ page, context }) => {
    const reader = await createReaderAccount();
    const sent = new Date();
    await page.goto('/login');
    await page.locator('#magic-email').fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click();
    const link = await linkFromMail(reader.email, '/welcome/', sent);
    // Sixteen minutes pass.
    await withE2eDatabase((db) =>
      db
        .updateTable('tokens')
        .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
        .where('email', '=', reader.email)
        .where('purpose', '=', 'magic_link')
        .execute(),
    );
    await context.clearCookies();
    await page.goto(link);
    await expect(heading(page)).toHaveText('Ce lien de connexion ne fonctionne plus');
    await expect(page.getByRole('button', { name: 'Me connecter' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Recevoir un nouveau lien' })).toBeVisible();
  });

  test('without its token (another browser): a typed address gets a link, a bad one a French 400', async ({ page }) => {
    const reader = await createReaderAccount();
    await page.goto('/welcome');
    await expect(heading(page)).toHaveText('Ce lien de connexion ne fonctionne plus');
    const field = main(page).getByLabel('Adresse e-mail', { exact: true });
    await field.fill('pas-une-adresse');
    await field.evaluate((input: HTMLInputElement) => input.form!.setAttribute('novalidate', ''));
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/welcome')),
      page.getByRole('button', { name: 'Recevoir un nouveau lien' }).click(),
    ]);
    expect(refused.status()).toBe(400);
    await expect(main(page).getByRole('alert')).toHaveText('Adresse e-mail invalide.');
    await expect(main(page).getByLabel('Adresse e-mail', { exact: true })).toHaveValue('pas-une-adresse');

    const sent = new Date();
    await main(page).getByLabel('Adresse e-mail', { exact: true }).fill(reader.email);
    await page.getByRole('button', { name: 'Recevoir un nouveau lien' }).click();
    await expect(main(page).getByRole('status')).toHaveText(
      'Si un compte existe à cette adresse, un nouveau lien de connexion vient d’y être envoyé. Il est valable 15 minutes.',
    );
    expect(await linkFromMail(reader.email, '/welcome/', sent)).toMatch(/\/welcome\/[\w-]{43}$/);
  });
});

test.describe('the account', () => {
  const profile = (page: Page) => page.locator('#profil');
  const stored = (email: string) =>
    withE2eDatabase((db) => db.selectFrom('users').select(['country', 'city']).where('email', '=', email).executeTakeFirstOrThrow());

  test('the country is a list, France first, and a code outside it is refused in French, changing nothing', async ({ page }) => {
    const reader = await createReaderAccount();
    await signIn(page, reader);
    await page.goto('/mon-compte/mes-informations');
    const country = page.getByLabel('Pays');
    expect(await country.evaluate((el) => el.tagName)).toBe('SELECT');
    const options = await country.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    // A required list starts with an empty choice (HTML), then France.
    expect(options[0]).toEqual(['', 'Choisissez un pays']);
    expect(options[1]).toEqual(['FR', 'France']);
    expect(options).toContainEqual(['DE', 'Allemagne']);
    expect(options).toContainEqual(['GB', 'Royaume-Uni']);
    expect(options.length).toBeGreaterThan(200);

    // A forged value: 422-like refusal (4xx), French message, nothing stored.
    const before = await stored(reader.email);
    await page.getByLabel('Ville').fill('Bruxelles');
    await country.evaluate((select: HTMLSelectElement) => {
      select.add(new Option('Nulle part', 'ZZ'));
      select.value = 'ZZ';
    });
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/mon-compte/mes-informations')),
      profile(page).getByRole('button', { name: 'Enregistrer' }).click(),
    ]);
    expect(refused.status()).toBeGreaterThanOrEqual(400);
    expect(refused.status()).toBeLessThan(500);
    await expect(profile(page).getByRole('alert')).toHaveText('Choisissez un pays dans la liste.');
    expect(await stored(reader.email)).toEqual(before);

    await page.getByLabel('Pays').selectOption({ label: 'Belgique' });
    await profile(page).getByRole('button', { name: 'Enregistrer' }).click();
    await expect(profile(page).getByRole('status')).toHaveText('Vos informations sont enregistrées.');
    expect(await stored(reader.email)).toEqual({ country: 'BE', city: 'Bruxelles' });
    await expect(page.getByLabel('Pays')).toHaveValue('BE');
  });

  test('the payment step and the shares bulletin ask for the country from the same list', async ({ page }) => {
    const reader = await createReaderAccount();
    await signIn(page, reader);
    for (const path of ['/soutenir/paiement?don=2000&frequence=unique', '/devenir-societaire/souscrire']) {
      await page.goto(path);
      const country = page.getByLabel('Pays', { exact: true });
      expect(await country.evaluate((el) => el.tagName), path).toBe('SELECT');
      await expect(country, path).toHaveValue('FR');
    }
  });

  test('the newsletter is its own form, not a box of the postal address', async ({ page }) => {
    const reader = await createReaderAccount();
    await signIn(page, reader);
    await page.goto('/mon-compte/mes-informations');
    await expect(profile(page).locator('[name="newsletter"]')).toHaveCount(0);
    const letter = page.locator('#lettre');
    await expect(letter.getByRole('heading', { name: 'Lettres d’information' })).toBeVisible();
    const subscribed = () =>
      withE2eDatabase(
        async (db) => (await db.selectFrom('newsletter_subscribers').select('status').where('email', '=', reader.email).executeTakeFirst())?.status,
      );
    expect(await subscribed()).toBeUndefined();

    await letter.getByRole('switch', { name: 'L’Hebdo' }).check();
    await letter.getByRole('button', { name: 'Enregistrer mes choix' }).click();
    await expect(page.locator('#lettre').getByRole('status')).toHaveText('C’est enregistré : vous recevrez L’Hebdo.');
    expect(await subscribed()).toBe('confirmed');
    // Saving the address leaves the newsletters as they are.
    await page.getByLabel('Ville').fill('Lille');
    await profile(page).getByRole('button', { name: 'Enregistrer' }).click();
    await expect(profile(page).getByRole('status')).toHaveText('Vos informations sont enregistrées.');
    expect(await subscribed()).toBe('confirmed');

    await page.locator('#lettre').getByRole('switch', { name: 'L’Hebdo' }).uncheck();
    await page.locator('#lettre').getByRole('button', { name: 'Enregistrer mes choix' }).click();
    await expect(page.locator('#lettre').getByRole('status')).toHaveText('C’est enregistré : vous ne recevrez plus aucune de nos lettres d’information.');
    expect(await subscribed()).toBe('unsubscribed');
  });

  test('on a phone, the account menu takes a few rows, and each page starts within the first screen', async ({ page }) => {
    const reader = await createReaderAccount();
    await signIn(page, reader);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/mon-compte', '/mon-compte/mes-informations', '/mon-compte/mes-factures']) {
      await page.goto(path);
      const nav = page.getByRole('complementary', { name: 'Mon compte' });
      const box = (await nav.boundingBox())!;
      expect(box.height, path).toBeLessThan(200);
      // Every section is one tap away.
      for (const name of ['Tableau de bord', 'Mes informations', 'Mes abonnements', 'Mes factures', 'Mes cadeaux', 'Sociétariat'])
        await expect(nav.getByRole('link', { name })).toBeInViewport();
      const title = (await page.locator('main h1').boundingBox())!;
      expect(title.y + title.height, path).toBeLessThan(844 / 2);
    }
  });
});

test.describe('the donation thank-you', () => {
  async function donate(page: Page, number: string, { sepa = false } = {}) {
    await page.goto('/soutenir/paiement?don=2500&frequence=unique');
    await fillPaymentAndPay(page, { sepa });
    await payOnProvider(page, number);
    // A paid donation's confirmation hands over to its thank-you page (?commande=…) as soon as the payment is known.
    await arrived(page, /\/soutenir\/(confirmation\/[\w-]+|dons\/merci\?commande=[\w-]+)$/);
    const url = new URL(page.url());
    return url.searchParams.get('commande') ?? url.pathname.split('/').pop()!;
  }
  const thanks = (id: string) => `/soutenir/dons/merci?commande=${id}`;

  test('thanks for a paid donation, and for a SEPA debit with the bank, saying it is on its way', async ({ page }) => {
    const reader = await createReaderAccount();
    await signIn(page, reader);
    const paid = await donate(page, CARD.accepted);
    await expect.poll(async () => (await page.goto(thanks(paid)), await heading(page).textContent()), { timeout: 15_000 }).toBe('Merci pour votre don\u202f!');
    await expect(main(page)).toContainText('Votre don de 25 € est bien reçu.');

    const sepa = await donate(page, 'FR14 2004 1010 0505 0001 3M02 606', { sepa: true });
    // The bank's answer waits: the debit stays with it while the page is read.
    await withE2eDatabase((db) =>
      db
        .updateTable('jobs')
        .set({ run_at: '2999-01-01T00:00:00.000Z' })
        .where('kind', '=', 'payments.simulated-webhook')
        .where('payload', 'like', `%${sepa}%`)
        .where('payload', 'like', '%payment.succeeded%')
        .execute(),
    );
    await expect.poll(async () => (await page.goto(thanks(sepa)), await heading(page).textContent()), { timeout: 15_000 }).toBe('Merci pour votre don\u202f!');
    await expect(main(page)).toContainText('Votre don de 25 € sera reçu dès que votre banque aura confirmé le prélèvement.');
    await expect(main(page)).not.toContainText('est bien reçu');
  });

  test('thanks for nothing that did not happen: refused, left unpaid, someone else’s, unknown, signed out', async ({ page, browser }) => {
    const reader = await createReaderAccount();
    await signIn(page, reader);
    // Refused: the confirmation says so, no thanks.
    const declined = await donate(page, CARD.declined);
    await page.goto(thanks(declined));
    await arrived(page, new RegExp(`/soutenir/confirmation/${declined}$`));
    await expect(heading(page)).toHaveText('Le paiement n’a pas abouti');
    await expect(main(page)).not.toContainText('Merci');

    // Left at the provider's page.
    await page.goto('/soutenir/paiement?don=1500&frequence=unique');
    await fillPaymentAndPay(page);
    await arrived(page, /\/paiement-simule\/[\w-]+$/);
    await page.getByRole('button', { name: 'Annuler et revenir au site' }).click();
    await arrived(page, /\/soutenir\/confirmation\/[\w-]+$/);
    const unpaid = new URL(page.url()).pathname.split('/').pop()!;
    await page.goto(thanks(unpaid));
    await arrived(page, new RegExp(`/soutenir/confirmation/${unpaid}$`));
    await expect(heading(page)).toHaveText('Votre paiement n’est pas terminé');
    await expect(main(page)).not.toContainText('Merci');

    // An unknown order: the error page.
    expect((await page.goto(thanks('00000000-0000-4000-8000-000000000000')))?.status()).toBe(404);

    // Someone else's paid donation: unknown to this reader.
    const other = await createReaderAccount();
    const otherContext = await browser.newContext();
    const otherPage = await otherContext.newPage();
    await signIn(otherPage, other);
    const response = await otherPage.goto(thanks(declined));
    expect(response?.status()).toBe(404);
    await otherContext.close();

    // Signed out: asked to sign in, thanked for nothing.
    await page.context().clearCookies();
    await page.goto(thanks(declined));
    await expect(heading(page)).toHaveText('Retrouver votre don');
    await expect(main(page)).not.toContainText('Merci');
    await expect(main(page).getByRole('link', { name: 'Me connecter' })).toHaveAttribute('href', `/login?redirect=${encodeURIComponent(thanks(declined))}`);
  });
});
