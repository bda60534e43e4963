import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../helpers/e2e';
import { AXE_TAGS } from '../helpers/axe';

/**
 * Listening on, as a phone or desktop listener would (issue 14): an episode resumes where the
 * listener stopped, after a reload or a navigation, with « Reprendre au début » at hand; at its
 * end the show's next episode is offered (the next unheard one), played on by « Enchaîner les
 * épisodes » and by the lock screen's 'next track'.
 */
const SHOW_PAGE = '/podcasts/a-contre-courant';
const EPISODE_PAGE = `${SHOW_PAGE}/juger-en-vingt-minutes`;

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-player-bar] audio');
    return { exists: !!audio, playing: !!audio && !audio.paused, time: audio?.currentTime ?? -1, src: audio?.getAttribute('src') ?? '' };
  });
}

const bar = (page: Page) => page.getByRole('region', { name: 'Lecteur de podcast' });
const pageListen = (page: Page) => page.getByRole('main').locator('a[data-listen]').first();

/** Text as read, whatever spaces typography puts in. */
const norm = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
const textOf = (page: Page, selector: string) => page.locator(selector).innerText().then(norm);
const titleInBar = (page: Page) => textOf(page, '[data-player-bar] .player-title');
const offered = (page: Page) => textOf(page, '[data-player-next] .player-next-title');

/** The titles of a show's episodes, in the order its page lists them. */
/** The show's episodes as its page lists them, less the supporters-only ones: the order the player follows. */
async function showOrder(page: Page): Promise<string[]> {
  await page.goto(SHOW_PAGE);
  const teasers = page.locator('section[aria-labelledby="episodes-title"] article.teaser').filter({ hasNot: page.locator('.supporters-badge') });
  return (await teasers.locator('.teaser-title').allInnerTexts()).map(norm);
}

/** Plays the page's episode, then moves to its end (the keyboard may seek, within the episode). */
async function playToTheEnd(page: Page) {
  await pageListen(page).click();
  await expect.poll(() => audioState(page).then((s) => s.playing && s.time > 0), { timeout: 10_000 }).toBe(true);
  await bar(page).getByRole('slider', { name: 'Position de lecture' }).focus();
  await page.keyboard.press('End');
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('an episode resumes where the listener stopped, after a navigation and a reload; « Reprendre au début » starts it over', async ({ page }) => {
      await page.goto(EPISODE_PAGE);
      await pageListen(page).click();
      await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);
      // Stop at 0:20 and close the bar.
      await bar(page).getByRole('button', { name: 'Mettre en pause' }).click();
      const slider = bar(page).getByRole('slider', { name: 'Position de lecture' });
      await slider.focus();
      await page.keyboard.press('Home');
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      await expect(slider).toHaveAttribute('aria-valuenow', '20');
      await bar(page).getByRole('button', { name: 'Fermer le lecteur' }).click();
      await expect(bar(page)).toBeHidden();
      await expect(pageListen(page)).toHaveText('Reprendre à 0:20');

      // Through the router to the show page, whose first button is this episode.
      await page.evaluate(() => ((window as Window & { visitMarker?: boolean }).visitMarker = true));
      await page.getByRole('main').locator(`header a.kicker[href="${SHOW_PAGE}"]`).first().click();
      await expect(page).toHaveURL(SHOW_PAGE);
      expect(await page.evaluate(() => (window as Window & { visitMarker?: boolean }).visitMarker)).toBe(true);
      await expect(pageListen(page)).toHaveText('Reprendre à 0:20');
      await expect(pageListen(page)).toHaveAccessibleName(/^Reprendre à 0:20 : « Nadia Benhamou/);
      await expect(page.getByRole('main').getByRole('button', { name: /^Reprendre au début « Nadia Benhamou/ })).toBeVisible();

      // After a reload too; pressing it resumes there, never from 0:00.
      await page.reload();
      await expect(pageListen(page)).toHaveText('Reprendre à 0:20');
      await pageListen(page).click();
      await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);
      const resumed = (await audioState(page)).time;
      expect(resumed).toBeGreaterThanOrEqual(20);
      expect(resumed).toBeLessThan(24);
      await expect(pageListen(page)).toHaveText('En écoute');

      // The bar's « Reprendre au début », at every width.
      const restart = bar(page).getByRole('button', { name: 'Reprendre au début' });
      await expect(restart).toBeVisible();
      await restart.click();
      await expect.poll(() => audioState(page).then((s) => s.time)).toBeLessThan(3);
      await expect(restart).toBeHidden();
      expect((await audioState(page)).playing).toBe(true);
    });

    test('« Reprendre au début » beside the page’s button plays the episode from the start', async ({ page }) => {
      await page.goto(EPISODE_PAGE);
      await page.evaluate(() => localStorage.setItem('contrechamp:player:positions', JSON.stringify({ 'juger-en-vingt-minutes': 25 })));
      await page.reload();
      await expect(pageListen(page)).toHaveText('Reprendre à 0:25');
      const fromStart = page.getByRole('main').getByRole('button', { name: /^Reprendre au début/ });
      await fromStart.click();
      await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);
      expect((await audioState(page)).time).toBeLessThan(3);
      await expect(fromStart).toBeHidden();
      // Nothing to start over in the bar: it did start at the beginning.
      await expect(bar(page).getByRole('button', { name: 'Reprendre au début' })).toHaveCount(0);
    });

    test('at the end of an episode the show’s next one is offered, and played on request', async ({ page }) => {
      const order = await showOrder(page);
      expect(order.length).toBeGreaterThan(2);
      await page.goto(EPISODE_PAGE);
      const current = await textOf(page, 'main h1');
      const next = order[order.indexOf(current) + 1]!;
      await playToTheEnd(page);
      const offer = bar(page).getByRole('group', { name: /À suivre/ });
      await expect(offer).toBeVisible();
      await expect.poll(() => offered(page)).toBe(next);
      await expect(offer.getByRole('checkbox', { name: 'Enchaîner les épisodes' })).not.toBeChecked();
      await offer.getByRole('button', { name: /^Écouter l’épisode suivant/ }).click();
      await expect.poll(() => titleInBar(page)).toBe(next);
      await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);
      await expect(offer).toBeHidden();
      // The episode heard to the end starts again from the beginning, and says « Écouter ».
      await expect(pageListen(page)).toHaveText('Écouter');
    });
  });
}

test('the next episode offered is the next one not yet heard', async ({ page }) => {
  const order = await showOrder(page);
  const [first, second, third] = order;
  // The second episode of the list heard to the end…
  await page.locator('section[aria-labelledby="episodes-title"] .teaser-title a').filter({ hasText: second! }).click();
  await expect.poll(() => textOf(page, 'main h1')).toBe(second);
  await playToTheEnd(page);
  await expect.poll(() => offered(page)).toBe(third);
  // …after the first, the third is offered.
  await page.goto(EPISODE_PAGE);
  expect(await textOf(page, 'main h1')).toBe(first);
  await playToTheEnd(page);
  await expect.poll(() => offered(page)).toBe(third);
});

test('« Enchaîner les épisodes » is kept in the browser and plays the next episode after a countdown, which can be cancelled', async ({ page }) => {
  const order = await showOrder(page);
  await page.goto(EPISODE_PAGE);
  await pageListen(page).click();
  const toggle = bar(page).getByRole('button', { name: 'Enchaîner les épisodes' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');

  await page.reload();
  await playToTheEnd(page);
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const offer = bar(page).getByRole('group', { name: /Épisode suivant dans/ });
  await expect(offer).toBeVisible();
  await expect(offer.getByRole('checkbox', { name: 'Enchaîner les épisodes' })).toBeChecked();
  await expect.poll(() => titleInBar(page), { timeout: 10_000 }).toBe(order[1]);
  await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);

  // Cancelled, the countdown stops and the offer waits.
  await bar(page).getByRole('slider', { name: 'Position de lecture' }).focus();
  await page.keyboard.press('End');
  await bar(page).getByRole('button', { name: 'Annuler' }).click();
  const waiting = bar(page).getByRole('group', { name: /À suivre/ });
  await expect(waiting).toBeVisible();
  expect(await offered(page)).toBe(order[2]);
  await page.waitForTimeout(6500);
  expect(await titleInBar(page)).toBe(order[1]);
  // Turned off from the offer, it stays off.
  await waiting.getByRole('checkbox', { name: 'Enchaîner les épisodes' }).uncheck();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  expect(await page.evaluate(() => localStorage.getItem('contrechamp:player:autoplay'))).toBe('off');
});

test('the lock screen gets the episode and a « next track » that plays the show’s next episode', async ({ page }) => {
  // Media Session handlers cannot be read back: record them as the page sets them.
  await page.addInitScript(() => {
    const handlers: Record<string, MediaSessionActionHandler | null> = {};
    (window as Window & { mediaHandlers?: typeof handlers }).mediaHandlers = handlers;
    const original = MediaSession.prototype.setActionHandler;
    MediaSession.prototype.setActionHandler = function (action, handler) {
      handlers[action] = handler;
      return original.call(this, action, handler);
    };
  });
  const order = await showOrder(page);
  await page.goto(EPISODE_PAGE);
  await pageListen(page).click();
  await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);
  expect(norm(await page.evaluate(() => navigator.mediaSession.metadata?.title ?? ''))).toBe(order[0]);
  await expect
    .poll(() => page.evaluate(() => typeof (window as Window & { mediaHandlers?: Record<string, unknown> }).mediaHandlers?.nexttrack))
    .toBe('function');
  await page.evaluate(() =>
    (window as Window & { mediaHandlers?: Record<string, MediaSessionActionHandler> }).mediaHandlers!.nexttrack!({ action: 'nexttrack' }),
  );
  await expect.poll(() => titleInBar(page)).toBe(order[1]);
  await expect.poll(() => page.evaluate(() => navigator.mediaSession.metadata?.title ?? '').then(norm)).toBe(order[1]);
  await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 10_000 }).toBe(true);
});

test('axe finds no serious violation in the bar offering the next episode, nor in the show’s subscribe block', async ({ page }) => {
  await page.goto(EPISODE_PAGE);
  await playToTheEnd(page);
  await expect(page.locator('[data-player-next]')).toBeVisible();
  const serious = async (selector: string) =>
    (await new AxeBuilder({ page }).include(selector).withTags(AXE_TAGS).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  expect(await serious('[data-player-bar]')).toEqual([]);
  await page.goto(SHOW_PAGE);
  expect(await serious('.subscribe')).toEqual([]);
});
