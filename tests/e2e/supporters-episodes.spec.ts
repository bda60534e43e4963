/**
 * Supporters-only episodes (issue 27 §2) against the production build under `npm start`: their
 * audio is in no public file, list or feed; a signed-out reader sees the teaser and the way to
 * support; a new supporter plays one in the persistent player through a signed address that the
 * front passes to the app (ranges honoured), and a forged one is refused.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../helpers/guard';
import { arrived, expectAccessible, reloadUntil, shoot, signIn, trackRouter } from '../helpers/browse';
import { createReaderAccount } from '../helpers/accounts';
import { fillPaymentAndPay, payOnProvider } from '../helpers/payment';

test.describe.configure({ timeout: 90_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/s34/supporters-episodes';
const SHOW = 'la-fabrique-de-l-info';
const BONUS = `/podcasts/${SHOW}/dans-la-conference-de-redaction`;
const BONUS_FILES = ['dans-la-conference-de-redaction.mp3', 'annick-vingt-deux-ans-de-guichet.mp3', 'vos-questions-a-aminata-diallo.mp3'];
const SHOWS = ['les-voix-du-terrain', 'a-contre-courant', SHOW];
/** A sentence said only in a bonus episode (its transcript is never in the public build). */
const BONUS_SENTENCE = 'Annick range le tiroir-caisse et s’assoit enfin.';
const block = (page: Page) => page.getByRole('region', { name: /Un épisode bonus/ });

test.beforeEach(async ({ page }) => {
  await trackRouter(page);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('no supporters-only audio in the build, the public feeds, the next-episode lists or a public address', async ({ request }) => {
  const built = filesUnder(join(process.cwd(), 'dist')).map((path) => basename(path));
  expect(built.filter((name) => name.endsWith('.mp3')).length).toBeGreaterThan(0);
  for (const file of BONUS_FILES) expect(built).not.toContain(file);
  const publicText = filesUnder(join(process.cwd(), 'dist', 'client')).filter((path) => /\.(html|vtt|json|xml|txt)$/.test(path));
  expect(publicText.length).toBeGreaterThan(0);
  for (const path of publicText) expect(readFileSync(path, 'utf8'), path).not.toContain(BONUS_SENTENCE);
  expect((await request.get('/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet/transcription.vtt')).status()).toBe(404);
  expect((await request.get('/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet/transcription-soutiens.vtt')).status()).toBe(401);
  for (const show of SHOWS) {
    const feed = await (await request.get(`/podcasts/${show}/rss.xml`)).text();
    const list = await (await request.get(`/podcasts/${show}/episodes.json`)).text();
    expect(feed).toContain('<enclosure');
    for (const file of BONUS_FILES) {
      expect(feed).not.toContain(file.replace('.mp3', ''));
      expect(list).not.toContain(file);
    }
  }
  // The bonus page itself is public, and in the sitemap: it says what the episode is and how to support.
  expect(await (await request.get('/sitemap-0.xml')).text()).toContain(BONUS);
  // The public folder does not have it; the private route wants a signature.
  expect((await request.get(`/media/podcasts/${SHOW}/${BONUS_FILES[0]}`)).status()).toBe(404);
  const unsigned = await request.get(`/audio/soutiens/${SHOW}/${BONUS_FILES[0]}`);
  expect(unsigned.status()).toBe(403);
  expect(await unsigned.text()).toMatch(/adresse d’écoute n’est pas valable/);
  expect((await request.get(`/api/podcasts/ecoute?podcast=${SHOW}&episode=dans-la-conference-de-redaction`)).status()).toBe(401);
});

test('lists mark the bonus episodes « Réservé aux soutiens » and offer no public « Écouter » for them', async ({ page }) => {
  await page.goto(`/podcasts/${SHOW}`);
  const card = page.locator('article.teaser', { has: page.getByRole('link', { name: 'Bonus : dans la conférence de rédaction' }) });
  await expect(card.getByText('Réservé aux soutiens')).toBeVisible();
  await expect(card.getByRole('link', { name: /^Écouter/ })).toHaveCount(0);
  await shoot(page, SHOTS, 'show-page');
  await page.goto('/podcasts');
  const show = page.locator('.show', { hasText: 'La Fabrique de l’info' });
  await expect(show.locator('.bonus').getByText('Réservé aux soutiens')).toBeVisible();
  await expect(show.locator('.bonus').getByRole('link', { name: 'Bonus : dans la conférence de rédaction' })).toBeVisible();
  // The latest episode offered to play is a public one.
  await expect(show.locator('.latest').getByRole('link', { name: /^Écouter/ })).toBeVisible();
  await shoot(page, SHOTS, 'podcasts-index');
});

test('a signed-out reader sees the teaser and the way to support, and cannot play the episode', async ({ page }) => {
  await page.goto(BONUS);
  await expect(page.getByRole('heading', { level: 1, name: 'Bonus : dans la conférence de rédaction' })).toBeVisible();
  await expect(page.locator('main').getByText('Réservé aux soutiens').first()).toBeVisible();
  await expect(page.locator('main')).toContainText('Lundi, neuf heures : la rédaction de Contrechamp choisit les sujets de la semaine.');
  // The teaser only: the programme of the notes is for supporters.
  await expect(page.locator('main')).not.toContainText('Au programme');
  await expect(block(page).getByRole('link', { name: 'Je soutiens Contrechamp' })).toHaveAttribute('href', '/soutenir');
  await expect(block(page).getByRole('link', { name: 'Je me connecte' })).toHaveAttribute('href', `/login?redirect=${encodeURIComponent(BONUS)}`);
  await expect(block(page).getByRole('button', { name: /Écouter/ })).toBeHidden();
  await expect(page.locator('main a[download]')).toHaveCount(0);
  await expect(page.locator('audio')).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, SHOTS, 'bonus-signed-out');
});

test('the page says what it is without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(BONUS);
  await expect(page.getByRole('region', { name: /Un épisode bonus/ })).toContainText('Abonnements (offerts compris), dons mensuels et parts de sociétaire');
  await expect(page.getByRole('link', { name: 'Je soutiens Contrechamp' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Écouter/ })).toBeHidden();
  await context.close();
});

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-player-bar] audio');
    return { src: audio?.getAttribute('src') ?? '', playing: !!audio && !audio.paused, time: audio?.currentTime ?? -1 };
  });
}

test('a new supporter: told the episode is for supporters, gives monthly, then plays it in the persistent player', async ({ page }) => {
  const reader = await createReaderAccount();
  await page.goto(BONUS);
  await block(page).getByRole('link', { name: 'Je me connecte' }).click();
  await page.locator('#login-email').fill(reader.email);
  await page.locator('#login-password').fill(reader.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await arrived(page, new RegExp(`${BONUS}$`));
  // Signed in, supporting nothing yet: said, with the way to support.
  await expect(block(page).getByRole('status')).toContainText('votre compte n’a pas de soutien en cours');
  await expect(block(page).getByRole('link', { name: 'Je soutiens Contrechamp' })).toBeVisible();
  await expect(block(page).getByRole('button', { name: /Écouter/ })).toBeHidden();
  await shoot(page, SHOTS, 'bonus-not-supporting');

  // A monthly donation through the simulated provider.
  await page.goto('/soutenir/dons');
  await page.getByRole('radio', { name: 'Tous les mois' }).check();
  await page.getByLabel('Autre montant, en euros').fill('5');
  await page.getByRole('button', { name: 'Je donne' }).click();
  await fillPaymentAndPay(page);
  await payOnProvider(page);
  await arrived(page, /\/soutenir\/(confirmation\/[\w-]+|dons\/merci\?commande=[\w-]+)$/);
  await reloadUntil(page, page.getByRole('heading', { level: 1, name: 'Merci pour votre don !' }));

  // Now a supporter: « Écouter » plays the bonus in the bar, from a signed address.
  await page.goto(BONUS);
  const play = block(page).locator('[data-supporters-play]');
  await expect(play).toBeVisible();
  await expect(play).toHaveAccessibleName('Écouter « Bonus : dans la conférence de rédaction »');
  await expect(block(page).getByRole('status')).toContainText('Merci de soutenir Contrechamp');
  await expect(block(page).getByRole('link', { name: 'Je me connecte' })).toBeHidden();
  await expectAccessible(page);
  await play.click();
  const bar = page.getByRole('region', { name: 'Lecteur de podcast' });
  await expect(bar).toBeVisible();
  await expect(bar.getByText('Bonus : dans la conférence de rédaction')).toBeVisible();
  await expect
    .poll(() => audioState(page).then((s) => s.src))
    .toMatch(new RegExp(`^/audio/soutiens/${SHOW}/dans-la-conference-de-redaction\\.mp3\\?e=\\d+&s=[\\w-]+$`));
  await expect.poll(() => audioState(page).then((s) => s.playing && s.time > 0), { timeout: 15_000 }).toBe(true);
  await expect(play).toHaveAttribute('data-state', 'playing');
  await shoot(page, SHOTS, 'bonus-playing');
  await bar.getByRole('button', { name: 'Mettre en pause' }).click();
  await expect.poll(() => audioState(page).then((s) => s.playing)).toBe(false);
  await expect(play).toHaveAttribute('data-state', 'paused');

  // The signed address through the front: a seek is a 206 of the bytes asked; another file is refused.
  const { src } = await audioState(page);
  const seek = await page.request.get(src, { headers: { Range: 'bytes=1000-1999' } });
  expect(seek.status()).toBe(206);
  expect(seek.headers()['content-range']).toMatch(/^bytes 1000-1999\/\d+$/);
  expect(seek.headers()['cache-control']).toMatch(/^private/);
  expect((await seek.body()).length).toBe(1000);
  expect((await page.request.get(src.replace('dans-la-conference-de-redaction', 'vos-questions-a-aminata-diallo'))).status()).toBe(403);
});

test('a demo supporter resuming after the signed address expired gets a fresh one and goes on where it was', async ({ page }) => {
  await page.clock.install();
  await signIn(page, 'abonne@exemple.fr', 'motdepasse-demo');
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/podcasts/ecoute')) asked.push(request.url());
  });
  await page.goto('/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet');
  const play = block(page).locator('[data-supporters-play]');
  await expect(play).toBeVisible();
  await play.click();
  const bar = page.getByRole('region', { name: 'Lecteur de podcast' });
  await expect.poll(() => audioState(page).then((s) => s.playing && s.time > 1), { timeout: 15_000 }).toBe(true);
  const first = await audioState(page);
  // The page's check, then the bar's own address: never one kept from before.
  expect(asked.length).toBe(2);
  await bar.getByRole('button', { name: 'Mettre en pause' }).click();
  await expect.poll(() => audioState(page).then((s) => s.playing)).toBe(false);
  const pausedAt = (await audioState(page)).time;

  // Seven hours later (the address lasts six), « Lire » asks a fresh address first.
  await page.clock.fastForward('07:00:00');
  await bar.getByRole('button', { name: 'Lire' }).click();
  await expect.poll(() => asked.length).toBe(3);
  await expect.poll(() => audioState(page).then((s) => s.src)).not.toBe(first.src);
  await expect.poll(() => audioState(page).then((s) => s.playing && s.time >= pausedAt)).toBe(true);
  expect((await audioState(page)).src).toMatch(/^\/audio\/soutiens\/les-voix-du-terrain\/annick-vingt-deux-ans-de-guichet\.mp3\?e=\d+&s=/);
});

test('a demo supporter reads a bonus episode’s transcript while it plays; a reader without support is told how to get it', async ({ page }) => {
  await signIn(page, 'abonne@exemple.fr', 'motdepasse-demo');
  await page.goto('/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet');
  await block(page).locator('[data-supporters-play]').click();
  await expect.poll(() => audioState(page).then((s) => s.playing), { timeout: 15_000 }).toBe(true);
  await block(page).getByRole('link', { name: 'Lire la transcription' }).click();
  await arrived(page, /\/transcription-soutiens$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transcription de « Bonus : Annick, vingt-deux ans de guichet »');
  const transcript = page.locator('details.transcript');
  await expect(transcript).toHaveAttribute('open', '');
  await expect(transcript).toContainText(BONUS_SENTENCE);
  // The player went on across the navigation; a cue's time seeks it, and the cue heard is marked.
  expect((await audioState(page)).playing).toBe(true);
  const cue = transcript.locator('li', { hasText: BONUS_SENTENCE });
  await cue.locator('[data-seek]').click();
  await expect.poll(() => audioState(page).then((s) => s.time >= 12 && s.time < 15)).toBe(true);
  await expect(cue).toHaveAttribute('aria-current', 'true');
  await expectAccessible(page);
  await shoot(page, SHOTS, 'bonus-transcript');
  const vtt = await page.request.get('/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet/transcription-soutiens.vtt');
  expect([vtt.status(), vtt.headers()['content-type']]).toEqual([200, 'text/vtt; charset=utf-8']);
  expect(await vtt.text()).toContain(BONUS_SENTENCE);

  // A reader without support (a new account: other specs make the demo readers supporters).
  await page.context().clearCookies();
  const reader = await createReaderAccount();
  await signIn(page, reader.email, reader.password);
  const refused = await page.goto('/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet/transcription-soutiens');
  expect(refused?.status()).toBe(403);
  await expect(page.locator('main')).toContainText('votre compte n’a pas de soutien en cours');
  await expect(page.locator('main')).not.toContainText(BONUS_SENTENCE);
  await expect(page.locator('main').getByRole('link', { name: 'Je soutiens Contrechamp' })).toHaveAttribute('href', '/soutenir');
  expect((await page.goto('/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton/transcription-soutiens'))?.status()).toBe(404);
});
