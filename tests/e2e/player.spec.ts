import { expect, test, type Page } from '../helpers/e2e';

/**
 * The podcast player bar (SPEC §2–§4, §9) against the production build: it keeps playing the
 * same <audio> element across view-transition navigations, static and on demand; its controls
 * skip, seek and close; it keeps room at the bottom of the page.
 */
const EPISODE_PAGE = '/podcasts/a-contre-courant/juger-en-vingt-minutes';

async function startEpisode(page: Page) {
  await page.goto(EPISODE_PAGE);
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first()
    .click();
  const bar = page.getByRole('region', { name: 'Lecteur de podcast' });
  await expect(bar).toBeVisible();
  await expect.poll(() => audioState(page).then((s) => s.playing && s.time > 0), { timeout: 10_000 }).toBe(true);
  return bar;
}

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement & { marker?: string }>('[data-player-bar] audio');
    return { exists: !!audio, marker: audio?.marker, playing: !!audio && !audio.paused, time: audio?.currentTime ?? -1, duration: audio?.duration ?? 0 };
  });
}

test('an episode keeps playing on the same audio element through five navigations, one of them on demand', async ({ page }) => {
  const bar = await startEpisode(page);
  await expect(bar.getByText('À contre-courant', { exact: false })).toBeVisible();
  await expect(bar.getByText('On ne juge pas bien en vingt minutes', { exact: false })).toBeVisible();
  await page.evaluate(() => {
    (document.querySelector('[data-player-bar] audio') as HTMLAudioElement & { marker?: string }).marker = 'same';
    (window as Window & { visitMarker?: boolean }).visitMarker = true;
  });

  let last = (await audioState(page)).time;
  const steps: { name: string; click: (p: Page) => Promise<void>; url: RegExp }[] = [
    { name: 'home', click: (p) => p.locator('header a[href="/"]').first().click(), url: /\/$/ },
    { name: 'an article', click: (p) => p.locator('main a[href^="/articles/20"]').first().click(), url: /\/articles\/\d{4}\// },
    {
      name: 'podcasts',
      click: (p) => p.locator('footer a[href="/podcasts"], header a[href="/podcasts"], main a[href="/podcasts"]').first().click(),
      url: /\/podcasts$/,
    },
    { name: 'login (on demand)', click: (p) => p.locator('header a[href="/login"]').click(), url: /\/login$/ },
    { name: 'contact', click: (p) => p.locator('header a[href="/contact"], footer a[href="/contact"]').first().click(), url: /\/contact$/ },
  ];
  for (const step of steps) {
    await step.click(page);
    await expect(page, step.name).toHaveURL(step.url);
    await expect.poll(() => audioState(page).then((s) => s.time), { message: `time rises after ${step.name}` }).toBeGreaterThan(last);
    const state = await audioState(page);
    expect(state.marker, `same element after ${step.name}`).toBe('same');
    expect(state.playing, `still playing after ${step.name}`).toBe(true);
    expect(await page.evaluate(() => (window as Window & { visitMarker?: boolean }).visitMarker), `no full reload for ${step.name}`).toBe(true);
    last = state.time;
  }
});

test('skip back and forward, seek only while playing, speed, close', async ({ page }) => {
  const bar = await startEpisode(page);
  const forward = bar.getByRole('button', { name: 'Avancer de 30 secondes' });
  const back = bar.getByRole('button', { name: 'Reculer de 15 secondes' });

  const before = (await audioState(page)).time;
  await forward.click();
  expect((await audioState(page)).time).toBeGreaterThanOrEqual(before + 29);
  const ahead = (await audioState(page)).time;
  await back.click();
  const after = (await audioState(page)).time;
  // Back by 15 s, not more (the audio keeps playing between the two readings).
  expect(after).toBeLessThan(ahead - 13);
  expect(after).toBeGreaterThanOrEqual(ahead - 15.5);

  // Backwards from the start stops at 0.
  await back.click();
  await back.click();
  expect((await audioState(page)).time).toBeLessThan(2);

  // A click on the progress bar seeks while playing…
  const track = bar.getByRole('slider', { name: 'Position de lecture' });
  const box = (await track.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
  const { time, duration } = await audioState(page);
  expect(Math.abs(time - duration / 2)).toBeLessThan(3);

  // …and not while paused.
  // The page's own button follows the bar.
  await expect(page.getByRole('main').getByRole('link', { name: /^En écoute : « Nadia Benhamou/ })).toBeVisible();
  await bar.getByRole('button', { name: 'Mettre en pause' }).click();
  await expect.poll(() => audioState(page).then((s) => s.playing)).toBe(false);
  await expect(page.getByRole('main').getByRole('link', { name: /^En pause : « Nadia Benhamou/ })).toBeVisible();
  const paused = (await audioState(page)).time;
  await page.mouse.click(box.x + box.width * 0.1, box.y + box.height / 2);
  expect((await audioState(page)).time).toBeCloseTo(paused, 1);
  // The keyboard may seek, within the episode.
  await track.focus();
  await page.keyboard.press('End');
  expect((await audioState(page)).time).toBeCloseTo(duration, 0);
  await page.keyboard.press('Home');
  expect((await audioState(page)).time).toBe(0);

  await bar.getByRole('button', { name: 'Lire' }).click();
  await expect.poll(() => audioState(page).then((s) => s.playing)).toBe(true);
  await bar.getByLabel('Vitesse de lecture').selectOption('1.5');
  expect(await page.evaluate(() => document.querySelector('audio')!.playbackRate)).toBe(1.5);

  await bar.getByRole('button', { name: 'Fermer le lecteur' }).click();
  await expect(bar).toBeHidden();
  expect((await audioState(page)).exists).toBe(false);
  expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe('0px');
});

test('while the bar is open the end of the page stays above it', async ({ page }) => {
  const bar = await startEpisode(page);
  expect(await page.evaluate(() => getComputedStyle(document.body).paddingBottom)).toBe('85px');
  expect((await bar.boundingBox())!.height).toBe(85);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const footerBottom = await page.locator('footer').evaluate((footer) => footer.getBoundingClientRect().bottom);
  const barTop = (await bar.boundingBox())!.y;
  expect(footerBottom).toBeLessThanOrEqual(barTop + 1);
});

test('the position is remembered and resumed when the episode comes back; lock-screen metadata is set', async ({ page }) => {
  const bar = await startEpisode(page);
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe('Nadia Benhamou\u00a0: «\u202fOn ne juge pas bien en vingt minutes\u202f»');
  await bar.getByRole('button', { name: 'Avancer de 30 secondes' }).click();
  await bar.getByRole('button', { name: 'Fermer le lecteur' }).click();
  await page.reload();
  const listen = page
    .getByRole('main')
    .getByRole('link', { name: /^Reprendre à 0:3\d/ })
    .first();
  await listen.click();
  await expect.poll(() => audioState(page).then((s) => s.playing)).toBe(true);
  expect((await audioState(page)).time).toBeGreaterThanOrEqual(30);
  await expect(bar.getByRole('button', { name: 'Reprendre au début' })).toBeVisible();
});

test('an episode chosen from a list replaces the one playing', async ({ page }) => {
  await startEpisode(page);
  await page.goto('/podcasts/a-contre-courant');
  const listens = page.getByRole('main').getByRole('link', { name: /^Écouter/ });
  const label = await listens.nth(1).getAttribute('aria-label');
  const title = /« (.+) »/.exec(label ?? '')![1]!;
  await listens.nth(1).click();
  await expect(page.getByRole('region', { name: 'Lecteur de podcast' }).getByText(title)).toBeVisible();
  await expect.poll(() => audioState(page).then((s) => s.playing)).toBe(true);
});

test('an episode that cannot be played says so in a toast, reachable with F8, gone after 5 s', async ({ page }) => {
  await page.goto(EPISODE_PAGE);
  // As if the file had been taken down since the page was built.
  const listen = page
    .getByRole('main')
    .getByRole('link', { name: /^Écouter/ })
    .first();
  await listen.evaluate((link: HTMLElement) => {
    const episode = JSON.parse(link.dataset.listen!);
    episode.attributes.podcast.filename = 'retire.mp3';
    link.dataset.listen = JSON.stringify(episode);
  });
  await listen.click();
  const message = page.getByText('Cet épisode ne peut pas être lu pour le moment.', { exact: true });
  await expect(message).toBeVisible();
  await page.keyboard.press('F8');
  // Radix moves focus to the list inside the labelled region.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="region"]')?.getAttribute('aria-label'))).toMatch(/^Notifications/);
  await page.mouse.move(5, 5);
  await page.locator('main h1').click();
  await expect(message).toBeHidden({ timeout: 8000 });
});

test('player controls show their tooltip after the 700 ms delay', async ({ page }) => {
  const bar = await startEpisode(page);
  const forward = bar.getByRole('button', { name: 'Avancer de 30 secondes' });
  await forward.hover();
  const tooltip = page.getByRole('tooltip', { name: 'Avancer de 30 secondes' });
  await page.waitForTimeout(400);
  await expect(tooltip).toHaveCount(0);
  await expect(tooltip).toBeVisible();
});
