/**
 * The audit behind the accessibility statement (/accessibilite, src/config/accessibility.ts):
 * axe on every page of the statement's sample, at 1280 and 390 px, finds nothing at any impact;
 * a keyboard-only walk reaches every control in order, with a visible focus and no trap, and
 * operates the menu, the search, the player and a form; the statement itself says what the
 * RGAA model asks for, and every page links to it from the footer.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { accessibility } from '../../src/config/accessibility';
import { createMember } from '../helpers/members';

// RGAA 4.1 follows WCAG 2.1: its A and AA rules, and axe's best practices.
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const violations = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(TAGS).analyze()).violations.map((v) => `${v.id} [${v.impact}]: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);

async function signInAs(page: Page) {
  const member = await createMember();
  await page.goto('/login');
  await page.locator('#login-email').fill(member.email);
  await page.locator('#login-password').fill(member.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
}

// One test per public page and width (each with its own time limit, spread over the workers),
// and one per width for the member's pages behind a single sign-in.
for (const width of [1280, 390]) {
  const viewport = { width, height: width === 390 ? 844 : 900 };
  for (const p of accessibility.sample.filter((s) => !s.member)) {
    test(`the statement's sample, at ${width} px: axe finds no violation at any impact on ${p.path}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(p.path);
      expect(await violations(page)).toEqual([]);
    });
  }
  test(`the statement's sample, at ${width} px: axe finds no violation at any impact on the member's pages`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await signInAs(page);
    const found: Record<string, string[]> = {};
    for (const p of accessibility.sample.filter((s) => s.member)) {
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
  const member = await createMember();
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
  const listen = page.getByRole('main').getByRole('link', { name: /^Écouter/ }).first();
  await listen.focus();
  await page.keyboard.press('Enter');
  const bar = page.locator('[data-player-bar]');
  await expect(bar).toBeVisible();
  const toggle = bar.getByRole('button', { name: /^(Lire|Mettre en pause)$/ }).first();
  await toggle.focus();
  const before = await toggle.getAttribute('aria-label') ?? await toggle.textContent();
  await page.keyboard.press('Space');
  await expect.poll(async () => (await toggle.getAttribute('aria-label')) ?? (await toggle.textContent())).not.toBe(before);
  // Signing in without a mouse.
  await page.goto('/login');
  await page.locator('#login-email').focus();
  await page.keyboard.type(member.email);
  await page.keyboard.press('Tab');
  await expect(page.locator('#login-password')).toBeFocused();
  await page.keyboard.type(member.password);
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
  for (const heading of ['État de conformité', 'Résultats des tests', 'Contenus non accessibles', 'Établissement de cette déclaration', 'Améliorer l’accessibilité', 'Voies de recours']) {
    await expect(main.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(main).toContainText(`est ${accessibility.status} avec le référentiel général d’amélioration de l’accessibilité (RGAA), version 4.1`);
  for (const p of accessibility.sample.filter((s) => !s.member)) {
    if (p.unlinked) await expect(main.getByRole('listitem').filter({ hasText: p.name })).toHaveCount(1);
    else await expect(main.getByRole('link', { name: p.name, exact: true })).toHaveAttribute('href', p.path);
  }
  await expect(main.getByRole('link', { name: 'Défenseur des droits', exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: accessibility.contact.email })).toHaveAttribute('href', `mailto:${accessibility.contact.email}`);
  for (const n of accessibility.nonConformities) await expect(main).toContainText(n.text.replace(/\.$/, ''));
});
