/**
 * The audit behind the accessibility statement (/accessibilite, src/config/accessibility.ts):
 * axe on every page of the statement's sample, at 1280 and 390 px, finds nothing at any impact;
 * a keyboard-only walk reaches every control in order, with a visible focus and no trap, and
 * operates the menu, the search, the player and a form; the statement itself says what the
 * RGAA model asks for, and every page links to it from the footer. WCAG 2.2 AA beyond what axe
 * can tell: target size by the criterion's own rule, the focus never under the sticky header,
 * the player's progress bar without dragging, and no sideways scrolling at 320 px.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../helpers/e2e';
import { accessibility } from '../../src/config/accessibility';
import { AXE_TAGS } from '../helpers/axe';
import { settled } from '../helpers/browse';
import { createReaderAccount } from '../helpers/accounts';
import { undersizedTargets } from '../helpers/target-size';

// RGAA 4.1 follows WCAG 2.1; the audit also holds the site to WCAG 2.2 AA (target size).
const violations = async (page: Page) =>
  (await settled(page), await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations.map(
    (v) =>
      `${v.id} [${v.impact}]: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')})`,
  );

async function signInAs(page: Page) {
  const reader = await createReaderAccount();
  await page.goto('/login');
  await page.locator('#login-email').fill(reader.email);
  await page.locator('#login-password').fill(reader.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
}

// One test per public page and width (each with its own time limit, spread over the workers),
// and one per width for the reader's pages behind a single sign-in.
for (const width of [1280, 390]) {
  const viewport = { width, height: width === 390 ? 844 : 900 };
  for (const p of accessibility.sample.filter((s) => !s.signedIn)) {
    test(`the statement's sample, at ${width} px: axe finds no violation at any impact on ${p.path}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(p.path);
      expect(await violations(page)).toEqual([]);
    });
  }
  test(`the statement's sample, at ${width} px: axe finds no violation at any impact on the reader's pages`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signInAs(page);
    const found: Record<string, string[]> = {};
    for (const p of accessibility.sample.filter((s) => s.signedIn)) {
      await page.goto(p.path);
      const v = await violations(page);
      if (v.length) found[p.path] = v;
    }
    expect(found).toEqual({});
  });
}

/** What has the focus: a short description, and whether it shows a focus indicator. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      key: `${el.tagName.toLowerCase()}|${el.getAttribute('href') ?? ''}|${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}|${Math.round(box.top + window.scrollY)}|${Math.round(box.left)}`,
      visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden',
      indicator: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none',
      inFooter: !!el.closest('footer'),
      text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60),
    };
  });

test('keyboard only: the skip link first, then every control in order with a visible focus, to the footer, without a trap', async ({ page }) => {
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans');
  await page.keyboard.press('Tab');
  const first = await focused(page);
  expect(first).toMatchObject({ text: 'Aller au contenu', visible: true, indicator: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#contenu$/);
  // From the top again: Tab through the whole page.
  await page.goto('/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans');
  const seen = new Set<string>();
  let reachedFooterEnd = false;
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (!f) continue;
    if (seen.has(f.key)) break; // Back at the start: the cycle went round, nothing held the focus.
    seen.add(f.key);
    expect.soft(f.visible, `${f.text} is visible when focused`).toBe(true);
    expect.soft(f.indicator, `${f.text} shows a focus indicator`).toBe(true);
    if (f.inFooter && f.text.startsWith('Accessibilité')) reachedFooterEnd = true;
  }
  expect(seen.size).toBeGreaterThan(20);
  expect(reachedFooterEnd).toBe(true);
});

test('keyboard only: the menu, the search (Ctrl+K), the player and the sign-in form', async ({ page }) => {
  const reader = await createReaderAccount();
  await page.goto('/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton');
  // The menu opens with Enter, closes with Escape, and gives the focus back.
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#sidenav')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('#sidenav')).toBeHidden();
  await expect(menu).toBeFocused();
  // The search: Ctrl+K, type, arrow to a result, Enter opens it.
  await expect(page.locator('[data-search-trigger][data-search-ready]')).toHaveCount(1);
  await page.keyboard.press('Control+k');
  const box = page.getByRole('dialog', { name: 'Recherche' }).getByRole('combobox', { name: 'Rechercher' });
  await expect(box).toBeFocused();
  await page.keyboard.type('logement');
  await expect(page.getByRole('dialog', { name: 'Recherche' }).getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Recherche' })).toBeHidden();
  // The player: « Écouter » with Enter, then play and pause with the keyboard.
  const listen = page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first();
  await listen.focus();
  await page.keyboard.press('Enter');
  const bar = page.locator('[data-player-bar]');
  await expect(bar).toBeVisible();
  const toggle = bar.getByRole('button', { name: /^(Lire|Mettre en pause)$/ }).first();
  await toggle.focus();
  const before = (await toggle.getAttribute('aria-label')) ?? (await toggle.textContent());
  await page.keyboard.press('Space');
  await expect.poll(async () => (await toggle.getAttribute('aria-label')) ?? (await toggle.textContent())).not.toBe(before);
  // Signing in without a mouse.
  await page.goto('/login');
  await page.locator('#login-email').focus();
  await page.keyboard.type(reader.email);
  await page.keyboard.press('Tab');
  await expect(page.locator('#login-password')).toBeFocused();
  await page.keyboard.type(reader.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/mon-compte$/);
});

test('the statement follows the RGAA model, and every page links to it from the footer', async ({ page }) => {
  await page.goto('/');
  const link = page.getByRole('contentinfo').getByRole('link', { name: `Accessibilité : ${accessibility.status}` });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/accessibilite$/);
  const main = page.getByRole('main');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Déclaration d’accessibilité');
  for (const heading of [
    'État de conformité',
    'Résultats des tests',
    'Contenus non accessibles',
    'Établissement de cette déclaration',
    'Améliorer l’accessibilité',
    'Voies de recours',
  ]) {
    await expect(main.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(main).toContainText(`est ${accessibility.status} avec le référentiel général d’amélioration de l’accessibilité (RGAA), version 4.1`);
  for (const p of accessibility.sample.filter((s) => !s.signedIn)) {
    if (p.unlinked) await expect(main.getByRole('listitem').filter({ hasText: p.name })).toHaveCount(1);
    else await expect(main.getByRole('link', { name: p.name, exact: true })).toHaveAttribute('href', p.path);
  }
  await expect(main.getByRole('link', { name: 'Défenseur des droits', exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: accessibility.contact.email })).toHaveAttribute('href', `mailto:${accessibility.contact.email}`);
  for (const n of accessibility.nonConformities) await expect(main).toContainText(n.text.replace(/\.$/, ''));
});

// WCAG 2.2, 2.5.8 (target size), on a sample of templates at 1280 and 390 px: axe's `target-size` looks at
// widgets; this looks at every link and button, with the criterion's 24 px circle.
const ARTICLE = '/articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans';
const TARGET_SAMPLE: Record<string, string> = {
  home: '/',
  article: ARTICLE,
  émission: '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie',
  brèves: '/breves',
  tag: '/tags/logement',
  podcast: '/podcasts/les-voix-du-terrain',
  episode: '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton',
  support: '/soutenir',
  login: '/login',
  contact: '/contact',
};
for (const width of [1280, 390]) {
  for (const [name, path] of Object.entries(TARGET_SAMPLE)) {
    test(`target size (WCAG 2.2, 2.5.8), at ${width} px: every link and button of the ${name} page is 24 × 24 px, or a 24 px circle on it meets no other target`, async ({
      page,
    }) => {
      await page.setViewportSize(width === 390 ? { width: 390, height: 844 } : { width: 1280, height: 900 });
      await page.goto(path);
      expect(await undersizedTargets(page)).toEqual([]);
    });
  }
}

test('target size: the measure catches a kicker 20 px high against its title, passes it 24 px high, and leaves a link in a sentence alone', async ({
  page,
}) => {
  const layout = (kickerHeight: number) => `
    <body style="margin: 0; font: 16px/1.5 sans-serif">
      <a id="kicker" href="#a" style="display: inline-block; height: ${kickerHeight}px">Enquêtes</a>
      <h3 style="margin: 1px 0 0; font-size: 16px"><a href="#b" style="display: inline-block; height: 30px">Un titre</a></h3>
      <p style="margin: 0">Une phrase avec <a href="#c">un lien</a> et <a href="#d">un autre</a>, serrés.</p>
    </body>`;
  await page.setContent(layout(20));
  expect(await undersizedTargets(page)).toEqual([expect.stringContaining('Enquêtes')]);
  await page.setContent(layout(24));
  expect(await undersizedTargets(page)).toEqual([]);
});

/**
 * The focused element, when it lies (even in part) under the sticky header or its yellow strip:
 * what a pointer would meet at its top edge belongs to the header. (The skip link is drawn over
 * the header: it passes.)
 */
const focusUnderHeader = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    const header = document.querySelector('header.site-header');
    if (!el || el === document.body || !header || header.contains(el)) return null;
    let cover = header.getBoundingClientRect().bottom;
    const strip = header.querySelector('[data-baseline]');
    if (strip && getComputedStyle(strip).visibility === 'visible') cover = Math.max(cover, strip.getBoundingClientRect().bottom);
    const box = el.getBoundingClientRect();
    if (box.top >= cover - 0.5) return null;
    const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 20), Math.max(box.top + 1, 0));
    if (hit && !header.contains(hit)) return null;
    return `${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)}: top at ${Math.round(box.top)} px, the header covers down to ${Math.round(cover)} px`;
  });

for (const width of [390, 1280]) {
  test(`focus not obscured (WCAG 2.2, 2.4.11), at ${width} px: tabbing through the home page, forwards then backwards, never leaves the focused element under the sticky header`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/');
    const hidden: string[] = [];
    const seen = new Set<string>();
    let steps = 0;
    // Forwards until the focus comes round again, then as many steps backwards (where the
    // browser scrolls up, and the header would be in the way).
    for (; steps < 400; steps++) {
      await page.keyboard.press('Tab');
      const key = await page.evaluate(() => {
        const el = document.activeElement;
        return el && el !== document.body
          ? `${el.tagName}|${el.getAttribute('href') ?? ''}|${Math.round(el.getBoundingClientRect().top + scrollY)}|${Math.round(el.getBoundingClientRect().left)}`
          : '';
      });
      if (key && seen.has(key)) break;
      if (key) seen.add(key);
      const under = await focusUnderHeader(page);
      if (under) hidden.push(`Tab: ${under}`);
    }
    expect(seen.size).toBeGreaterThan(40);
    for (let i = 0; i < steps; i++) {
      await page.keyboard.press('Shift+Tab');
      const under = await focusUnderHeader(page);
      if (under) hidden.push(`Shift+Tab: ${under}`);
    }
    expect(hidden).toEqual([]);
  });
}

test('focus not obscured (WCAG 2.2, 2.4.11), at 390 px: an in-page link of the table of contents brings its heading below the sticky header and its yellow strip', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/cgv');
  const links = page.getByRole('navigation', { name: 'Sommaire' }).getByRole('link');
  const count = await links.count();
  expect(count).toBeGreaterThanOrEqual(5);
  for (const i of [0, Math.floor(count / 2), count - 1]) {
    const href = (await links.nth(i).getAttribute('href'))!;
    await links.nth(i).click();
    await expect.poll(() => decodeURIComponent(new URL(page.url()).hash)).toBe(href);
    const heading = page.locator(`[id="${decodeURIComponent(href.slice(1))}"]`);
    // The header and its yellow strip, while it shows, cover the top of the page.
    const headerBottom = await page.locator('header.site-header').evaluate((h) => {
      const strip = h.querySelector('[data-baseline]');
      const shown = strip && getComputedStyle(strip).visibility === 'visible';
      return Math.max(h.getBoundingClientRect().bottom, shown ? strip.getBoundingClientRect().bottom : 0);
    });
    await expect.poll(async () => (await heading.boundingBox())!.y, { message: href }).toBeGreaterThanOrEqual(headerBottom);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
});

test('dragging movements (WCAG 2.2, 2.5.7), at 390 px: the player’s progress bar seeks with a single click, with « Reculer de 15 secondes » and « Avancer de 30 secondes », and with the arrow keys', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/podcasts/a-contre-courant/juger-en-vingt-minutes');
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
  const bar = page.getByRole('region', { name: 'Lecteur de podcast' });
  await expect(bar).toBeVisible();
  const audio = () =>
    page.evaluate(() => {
      const a = document.querySelector<HTMLAudioElement>('[data-player-bar] audio')!;
      return { playing: !a.paused, time: a.currentTime, duration: a.duration };
    });
  await expect.poll(() => audio().then((s) => s.playing && s.time > 0 && s.duration > 0), { timeout: 15_000 }).toBe(true);
  // Every control of the bar, the progress bar included, is a target of 24 px at least.
  const track = bar.getByRole('slider', { name: 'Position de lecture' });
  expect((await track.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  expect(await undersizedTargets(page)).toEqual([]);
  // One click, no drag: the pointer goes down and up at 40 % of the bar (the episode lasts
  // 48 s: room for the moves below on either side). The bar slides in: its box is read once it
  // has stopped moving, and the seek is read once the audio has taken it.
  await settled(page);
  const box = (await track.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.4, box.y + box.height / 2);
  const { duration } = await audio();
  expect(duration).toBeGreaterThan(45);
  await expect.poll(async () => Math.abs((await audio()).time - duration * 0.4)).toBeLessThan(3);
  const { time } = await audio();
  await expect.poll(async () => Math.abs(Number(await track.getAttribute('aria-valuenow')) - time)).toBeLessThan(2);
  // Paused, the buttons and the keys move by their exact amounts.
  await bar.getByRole('button', { name: 'Mettre en pause' }).click();
  await expect.poll(() => audio().then((s) => s.playing)).toBe(false);
  const at = async () => (await audio()).time;
  const start = await at();
  await bar.getByRole('button', { name: 'Reculer de 15 secondes' }).click();
  expect(await at()).toBeCloseTo(start - 15, 1);
  await bar.getByRole('button', { name: 'Avancer de 30 secondes' }).click();
  expect(await at()).toBeCloseTo(start + 15, 1);
  await track.focus();
  await page.keyboard.press('ArrowLeft');
  expect(await at()).toBeCloseTo(start + 10, 1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await at()).toBeCloseTo(start + 20, 1);
});

// WCAG 2.1, 1.4.10 (reflow): at 320 px wide nothing makes the page scroll sideways; a wide table
// scrolls inside its own region.
for (const [name, path] of [
  ['home page', '/'],
  ['article', ARTICLE],
] as const) {
  test(`reflow (WCAG 1.4.10): at 320 px nothing on the ${name} overflows sideways`, async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(path);
    const overflow = await page.evaluate(() => {
      const inScroller = (el: Element) => {
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          const o = getComputedStyle(a).overflowX;
          if (o !== 'visible') return true;
        }
        return false;
      };
      const sticking = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5 && el.checkVisibility() && !inScroller(el))
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}${el.classList.length ? `.${[...el.classList].join('.')}` : ''} (right edge at ${Math.round(el.getBoundingClientRect().right)} px)`,
        );
      return { width: document.documentElement.scrollWidth, sticking: sticking.slice(0, 10) };
    });
    expect(overflow.sticking).toEqual([]);
    expect(overflow.width).toBeLessThanOrEqual(320);
  });
}

test('focus not obscured (WCAG 2.2, 2.4.11), at 390 px: with the player bar open, tabbing down the episode page never leaves the focused element under the bar', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton');
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
  const bar = page.getByRole('region', { name: 'Lecteur de podcast' });
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'Mettre en pause' }).click();
  // The walk starts at the top of the page: a click on the title moves the starting point of Tab there.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('heading', { level: 1 }).click();
  const hidden: string[] = [];
  let reachedFooter = false;
  let steps = 0;
  for (; steps < 250 && !reachedFooter; steps++) {
    await page.keyboard.press('Tab');
    const state = await page.evaluate(async () => {
      // What the reader sees once the page has settled: two frames after the focus moved.
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const el = document.activeElement;
      const barEl = document.querySelector('[data-player-bar]');
      if (!el || el === document.body || !barEl) return { under: null, footer: false };
      const top = barEl.getBoundingClientRect().top;
      const box = el.getBoundingClientRect();
      const footer = !!el.closest('footer');
      if (box.bottom <= top + 0.5) return { under: null, footer };
      const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 20), Math.min(box.bottom - 1, innerHeight - 1));
      if (hit && !barEl.contains(hit)) return { under: null, footer };
      return {
        under: `${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)}: bottom at ${Math.round(box.bottom)} px, the bar starts at ${Math.round(top)} px`,
        footer,
      };
    });
    if (state.under) hidden.push(state.under);
    reachedFooter = state.footer;
  }
  expect(reachedFooter).toBe(true);
  expect(steps).toBeGreaterThan(10);
  expect(hidden).toEqual([]);
});

// WCAG 2.2, 3.2.6 (consistent help): the way to reach us sits in the same place, in the same
// order among the footer's links, on every kind of page, static, rendered on demand or signed in.
test('consistent help (WCAG 2.2, 3.2.6): « Questions fréquentes » and « Contact » are in the same place of the footer on every kind of page', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const footerLinks = async () => {
    const links = page.getByRole('contentinfo').getByRole('navigation').getByRole('link');
    return links.evaluateAll((els) => els.map((a) => `${(a.textContent ?? '').trim().replace(/\s+/g, ' ')} → ${a.getAttribute('href')}`));
  };
  await page.goto('/');
  const reference = await footerLinks();
  expect(reference).toContain('Contact → /contact');
  expect(reference).toContain('Questions fréquentes → /faq');
  const differing: Record<string, string[]> = {};
  for (const path of [ARTICLE, '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton', '/contact', '/login', '/soutenir/abonnement', '/page-inconnue']) {
    await page.goto(path);
    const links = await footerLinks();
    if (JSON.stringify(links) !== JSON.stringify(reference)) differing[path] = links;
  }
  await signInAs(page);
  for (const path of ['/mon-compte', '/mon-compte/abonnements']) {
    await page.goto(path);
    const links = await footerLinks();
    if (JSON.stringify(links) !== JSON.stringify(reference)) differing[path] = links;
  }
  expect(differing).toEqual({});
});

// WCAG 2.2, 3.3.8 (accessible authentication) and 3.3.7 (redundant entry): signing in asks for
// no puzzle, lets a password manager fill the form and a reader paste the password, and a failed
// attempt keeps the address typed.
test('accessible authentication (WCAG 2.2, 3.3.8): sign-in needs only the address and the password, filled by a manager or pasted; a failure keeps the address (3.3.7)', async ({
  page,
}) => {
  const reader = await createReaderAccount();
  await page.goto('/login');
  const form = page.locator('form').filter({ has: page.locator('#login-password') });
  // Nothing to solve: the only fields a reader fills are the address and the password.
  const fields = await form
    .locator('input:not([type="hidden"]):not([type="checkbox"]), select, textarea')
    .evaluateAll((els) => els.map((e) => `${e.id} ${e.getAttribute('autocomplete')}`));
  expect(fields).toEqual(['login-email username', 'login-password current-password']);
  await expect(form.locator('iframe, canvas, img')).toHaveCount(0);
  // A wrong password: the address stays, only the password is typed again.
  await page.locator('#login-email').fill(reader.email);
  await page.locator('#login-password').fill('pas-le-bon-mot-de-passe');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(form.getByRole('alert')).toBeVisible();
  await expect(page.locator('#login-email')).toHaveValue(reader.email);
  // The password pasted: no script refuses the paste.
  const accepted = await page.locator('#login-password').evaluate((input, password) => {
    const data = new DataTransfer();
    data.setData('text/plain', password);
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    const allowed = input.dispatchEvent(event);
    if (allowed) (input as HTMLInputElement).value = password;
    return allowed;
  }, reader.password);
  expect(accepted).toBe(true);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
});
