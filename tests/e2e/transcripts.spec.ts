import { expect, test, type Page } from '../helpers/e2e';
import { XMLParser } from 'fast-xml-parser';

/**
 * Transcripts (issue 27 §1, RGAA 4.1 criteria 4.1–4.3): on the episode page, folded, readable
 * without JavaScript; with it, a cue's time drives the player and the cue heard is marked; the
 * WebVTT file and the transcript's own page that the feed points to exist; search finds an
 * episode by a sentence said in it; an émission shows its transcript below the video.
 */
const EPISODE = '/podcasts/les-voix-du-terrain/la-derniere-poste-du-canton';
const EMISSION = '/emissions/2026/livreurs-de-nuit-quand-l-algorithme-fixe-la-paie';

function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-player-bar] audio');
    return { playing: !!audio && !audio.paused, time: audio?.currentTime ?? -1 };
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the transcript unfolds and reads, with its WebVTT file and its own page', async ({ page, request }) => {
    await page.goto(EPISODE);
    const transcript = page.locator('details.transcript');
    await expect(transcript.getByText('Maryvonne, quatre-vingt-un ans, vient retirer sa pension en liquide')).toBeHidden();
    await transcript.getByText('Transcription', { exact: true }).click();
    await expect(transcript.getByText('Maryvonne, quatre-vingt-un ans, vient retirer sa pension en liquide, comme chaque mois.')).toBeVisible();
    await expect(transcript.getByText('Karim Benali :')).toBeVisible();

    const vtt = await request.get((await transcript.getByRole('link', { name: 'Télécharger la transcription (WebVTT)' }).getAttribute('href')) ?? '');
    expect(vtt.status()).toBe(200);
    expect(vtt.headers()['content-type']).toContain('text/vtt');
    expect(await vtt.text()).toMatch(/^WEBVTT\n[\s\S]*<v Karim Benali>Maryvonne/);

    await transcript.getByRole('link', { name: 'La transcription sur une page' }).click();
    await expect(page).toHaveURL(`${EPISODE}/transcription`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Transcription de « La dernière poste du canton »');
    await expect(page.getByText('Le maire, lui, a fait voter une motion.')).toBeVisible();
  });
});

test('a cue’s time starts the player there, seeks it, and the cue heard is marked', async ({ page }) => {
  await page.goto(EPISODE);
  const transcript = page.locator('details.transcript');
  await transcript.getByText('Transcription', { exact: true }).click();
  const cue7 = transcript.locator('li#t-7');
  const cue10 = transcript.locator('li#t-10');
  const start7 = Number(await cue7.getAttribute('data-start'));
  const start10 = Number(await cue10.getAttribute('data-start'));

  // Not yet in the bar: the episode is loaded and starts at that cue.
  await cue7.getByRole('link').click();
  await expect(page.getByRole('region', { name: 'Lecteur de podcast' })).toBeVisible();
  // At the cue itself, not at the whole second before it.
  await expect.poll(() => audioState(page).then((s) => s.playing && s.time >= start7 && s.time < start7 + 5)).toBe(true);
  await expect(cue7).toHaveAttribute('aria-current', 'true');

  // In the bar: the click seeks it.
  await cue10.getByRole('link').click();
  await expect.poll(() => audioState(page).then((s) => s.time >= start10 && s.time < start10 + 5)).toBe(true);
  await expect(cue10).toHaveAttribute('aria-current', 'true');
  await expect(cue7).not.toHaveAttribute('aria-current', 'true');
  // The click follows no link and leaves the address alone.
  await expect(page).toHaveURL(EPISODE);
});

test('the podcast feed points to transcripts and pages that exist, and to the support page', async ({ request }) => {
  const xml = await (await request.get('/podcasts/les-voix-du-terrain/rss.xml')).text();
  const rss = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (n) => n === 'item' || n === 'podcast:transcript' }).parse(xml).rss;
  expect(rss['@xmlns:podcast']).toBe('https://podcastindex.org/namespace/1.0');
  const funding = new URL(rss.channel['podcast:funding']['@url']);
  expect((await request.get(funding.pathname)).status()).toBe(200);
  expect(rss.channel.item.length).toBeGreaterThan(0);
  for (const item of rss.channel.item) {
    const types = item['podcast:transcript'].map((t: Record<string, string>) => t['@type']);
    expect(types).toEqual(['text/vtt', 'text/html']);
    for (const t of item['podcast:transcript']) {
      const response = await request.get(new URL(t['@url']).pathname);
      expect(response.status(), t['@url']).toBe(200);
      expect(response.headers()['content-type']).toContain(t['@type']);
    }
  }
});

test('search finds an episode by a sentence said in it', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('[data-search-trigger][data-search-ready]')).toHaveCount(1);
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Recherche' });
  // Said in the episode only: not in its title, summary or notes.
  await dialog.getByRole('combobox', { name: 'Rechercher' }).fill('Maryvonne vient retirer sa pension en liquide');
  const result = dialog.getByRole('option', { name: /La dernière poste du canton/ });
  await expect(result).toBeVisible();
  await expect(result).toContainText('Podcast');
});

test('an émission shows its transcript below the video, with its WebVTT file', async ({ page, request }) => {
  await page.goto(EMISSION);
  const transcript = page.locator('details.transcript');
  await transcript.getByText('Transcription', { exact: true }).click();
  await expect(transcript.getByText('Moussa Traoré :').first()).toBeVisible();
  await expect(transcript.getByText('je note tout dans un tableur', { exact: false })).toBeVisible();
  const href = await transcript.getByRole('link', { name: 'Télécharger la transcription (WebVTT)' }).getAttribute('href');
  expect(href).toBe(`${EMISSION}/transcription.vtt`);
  expect((await request.get(href!)).status()).toBe(200);
});
