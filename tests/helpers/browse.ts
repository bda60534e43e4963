/**
 * What the end-to-end specs of the paid paths share: waiting for the client router, signing in,
 * looking at a page (axe, then screenshots at 1280 and 390 px), reloading until the provider's
 * notification has landed, and reading the outbox with mailparser. (The gifts and support specs
 * keep their own copies; new specs use these.)
 */
import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { openDatabase } from '../../src/server/db/client';
import { expect } from './guard';
import { outboxDir } from './accounts';
import { AXE_TAGS } from './axe';

export { AXE_TAGS };

/** Marks the router busy between a navigation's start and its page-load (see `arrived`). */
export async function trackRouter(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __routerBusy?: boolean };
    document.addEventListener('astro:before-preparation', () => {
      w.__routerBusy = true;
    });
    document.addEventListener('astro:page-load', () => {
      w.__routerBusy = false;
    });
  });
}

/** The page at `url` is in place, and the router's swap (if any) has ended. */
export async function arrived(page: Page, url: RegExp): Promise<void> {
  await expect(page).toHaveURL(url);
  await page.waitForTimeout(200);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __routerBusy?: boolean }).__routerBusy === true)).toBe(false);
  await expect(page.locator('html')).not.toHaveAttribute('data-astro-transition', /./);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await arrived(page, /\/mon-compte$/);
}

/**
 * Resolves once no animation or transition runs (axe and screenshots read the page as it will
 * stay); an endless one (a spinner) is not waited for. Two frames first, for a change a script
 * made for the next frame (the header strip follows the scroll that way). The predicate is
 * synchronous: waitForFunction takes a promise it is given as its answer and never asks again,
 * so a predicate that resolved to false stopped the wait as well as one that resolved to true.
 */
export const settled = async (page: Page): Promise<void> => {
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { polling: 'raf' },
  );
};

/**
 * Whether screenshots are saved: always on a developer's machine (they are looked at), in CI only
 * with SCREENSHOTS=1 (nobody looks at them there, and the whole-page captures at two widths
 * took a tenth of the end-to-end run).
 */
export const screenshotsWanted = !process.env.CI || process.env.SCREENSHOTS === '1';

/** The page, whole, at 1280 and 390 px wide, into `dir` (from the top, once animations end). */
export async function shoot(page: Page, dir: string, name: string): Promise<void> {
  if (!screenshotsWanted) return;
  mkdirSync(dir, { recursive: true });
  await page.mouse.move(0, 0);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // From the top: the sticky header would otherwise sit in the middle of a whole-page capture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * axe finds no serious or critical violation, once animations have ended: in the middle of a view
 * transition's fade every text is paler than it will be. axe runs with reduced motion, under which
 * the site's transitions neither last nor wait (global.css), so that a scroll during its run (the
 * header's baseline strip fades in and out with the scroll) changes the page at once instead of
 * leaving a text faded while its contrast is measured: CI runs found the strip's text failing.
 * A contrast failure says the colours and ratio axe measured.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await settled(page);
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .analyze()
    .finally(() => page.emulateMedia({ reducedMotion: null }));
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' ') + (v.id === 'color-contrast' ? ` ${JSON.stringify(n.any[0]?.data ?? {})}` : ''))
          .slice(0, 3)
          .join(' | ')})`,
    );
  expect(blocking).toEqual([]);
}

/** axe finds nothing serious, then the page is captured at 1280 and 390 px in `dir`. */
export async function look(page: Page, dir: string, name: string): Promise<void> {
  await expectAccessible(page);
  await shoot(page, dir, name);
}

/** Reloads until `locator` shows: the provider's notifications reach the site a moment later. */
export async function reloadUntil(page: Page, locator: Locator, timeout = 20_000): Promise<void> {
  await expect(async () => {
    if (!(await locator.isVisible())) {
      await page.reload();
      await expect(locator).toBeVisible({ timeout: 1_500 });
    }
  }).toPass({ timeout, intervals: [500, 1_000] });
}

/** The newest mail to `to` whose subject matches, parsed (MIME, attachments included). */
export async function waitForMail(to: string, subject: RegExp, timeout = 20_000): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        const files = (await readdir(outboxDir()))
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
        for (const file of files.slice(0, 120)) {
          const mail = await simpleParser(await readFile(resolve(outboxDir(), file)));
          const address = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          if (address?.includes(to) && subject.test(mail.subject ?? '')) {
            found = mail;
            return true;
          }
        }
        return false;
      },
      { timeout },
    )
    .toBe(true);
  return found!;
}

/** The e2e server's database, for what a test cannot do through the site (time passing). */
export async function withE2eDatabase<T>(work: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const handle = openDatabase({ kind: 'sqlite', path: resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'contrechamp.db') });
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}
