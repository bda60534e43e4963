/**
 * Supporters' personal podcast feeds (issue 27 §2) under `npm start`, as a new supporter lives
 * them: subscribe, find the feed in « Mes podcasts », fetch it as an app does (then with its
 * ETag), play a supporters-only episode from it, reset the address (the old one dies), let the
 * subscription end (the feed turns into its notice), subscribe again (the same address works).
 * Then the back-office's sharing flags: a feed read from many networks, reset by staff, the
 * supporter mailed.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { XMLValidator } from 'fast-xml-parser';
import { expect, test } from '../helpers/guard';
import { arrived, expectAccessible, reloadUntil, shoot, signIn, trackRouter, waitForMail, withE2eDatabase } from '../helpers/browse';
import { createReaderAccount } from '../helpers/accounts';
import { subscribeMonthly } from '../helpers/payment';

test.describe.configure({ timeout: 120_000 });

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/s35/feeds';
test.beforeEach(async ({ page }) => {
  await trackRouter(page);
});

const BONUS_AUDIO = /\/flux-soutiens\/[\w-]{32}\/audio\/la-fabrique-de-l-info\/dans-la-conference-de-redaction\.mp3$/;

const feedAddress = (page: Page, id = 'flux-tous') =>
  page
    .locator(`#${id}`)
    .textContent()
    .then((text) => new URL(text!.trim()));

async function fetchFeed(request: APIRequestContext, url: URL, headers: Record<string, string> = {}) {
  const answer = await request.get(url.pathname, { headers });
  return { status: answer.status(), headers: answer.headers(), body: answer.status() === 304 ? '' : await answer.text() };
}

test('a new supporter: the personal feed, its ETag, a bonus episode from it, a reset, the end of support and its return', async ({ page, request }) => {
  const reader = await createReaderAccount();
  await signIn(page, reader.email, reader.password);
  // Before any support: what the feed would give, and the way to support.
  await page.goto('/mon-compte/podcasts');
  await expect(page.getByRole('heading', { level: 1, name: 'Mes podcasts' })).toBeVisible();
  await expect(page.locator('main')).toContainText('reçoivent ici un flux personnel');
  await expect(page.locator('main').getByRole('link', { name: 'Je soutiens Contrechamp' })).toHaveAttribute('href', '/soutenir');
  await expect(page.locator('#flux-tous')).toHaveCount(0);

  await subscribeMonthly(page);
  await page.goto('/mon-compte');
  await page.getByRole('complementary', { name: 'Mon compte' }).getByRole('link', { name: 'Mes podcasts' }).click();
  await arrived(page, /\/mon-compte\/podcasts$/);
  const all = page.getByRole('region', { name: 'Tous les podcasts' });
  await expect(all.getByRole('link', { name: 'Apple Podcasts' })).toHaveAttribute('href', /^podcast:\/\/[^/]+\/flux-soutiens\/[\w-]{32}\/tous\.xml$/);
  await expect(all.getByRole('link', { name: 'Overcast' })).toHaveAttribute('href', /^overcast:\/\/x-callback-url\/add\?url=https?%3A%2F%2F/);
  await expect(all.getByRole('link', { name: 'Pocket Casts' })).toHaveAttribute('href', /^pktc:\/\/subscribe\//);
  await expect(all.getByRole('link', { name: 'AntennaPod' })).toHaveAttribute('href', /^https:\/\/antennapod\.org\/deeplink\/subscribe\?url=/);
  await expect(all.getByRole('button', { name: 'Copier l’adresse du flux « Tous les podcasts »' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'La Fabrique de l’info' })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, SHOTS, 'mes-podcasts');
  const feed = await feedAddress(page);
  expect(feed.pathname).toMatch(/^\/flux-soutiens\/[\w-]{32}\/tous\.xml$/);

  // An app's first fetch, then its hourly poll with the validator.
  const first = await fetchFeed(request, feed);
  expect(first.status).toBe(200);
  expect(first.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
  expect(first.body).toMatch(/Bonus\s:\sdans la conférence de rédaction/);
  expect(first.body).toContain('La dernière poste du canton');
  expect(XMLValidator.validate(first.body)).toBe(true);
  // Every show's episodes under the network's own square cover and category, not the first show's.
  const cover = new URL(/<itunes:image href="([^"]+)"\/>/.exec(first.body)![1]!);
  expect(cover.pathname).toBe('/podcast-network-cover.png');
  expect(first.body).toContain('<itunes:category text="News"/>');
  const artwork = await request.get(cover.pathname);
  expect([artwork.status(), artwork.headers()['content-type']]).toEqual([200, 'image/png']);
  // What Apple Podcasts asks: square, 1400 to 3000 px, RGB (the PNG header: width, height, colour type 2).
  const png = await artwork.body();
  expect([png.readUInt32BE(16), png.readUInt32BE(20), png[25]]).toEqual([1400, 1400, 2]);
  const poll = await fetchFeed(request, feed, { 'If-None-Match': first.headers['etag']! });
  expect(poll.status).toBe(304);

  // The bonus episode's audio, from the feed: a redirect to a signed address that honours Range.
  const enclosure = /<enclosure url="([^"]+)"/g;
  const audio = [...first.body.matchAll(enclosure)].map((m) => new URL(m[1]!)).find((url) => BONUS_AUDIO.test(url.pathname));
  expect(audio).toBeDefined();
  const redirect = await request.get(audio!.pathname, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  const signed = new URL(redirect.headers()['location']!);
  expect(signed.pathname).toBe('/audio/soutiens/la-fabrique-de-l-info/dans-la-conference-de-redaction.mp3');
  const bytes = await request.get(`${signed.pathname}${signed.search}`, { headers: { Range: 'bytes=0-999' } });
  expect(bytes.status()).toBe(206);
  expect((await bytes.body()).length).toBe(1000);

  // Its transcript (podcast:transcript), through the same secret: the WebVTT file.
  const transcript = /<podcast:transcript url="([^"]+\/transcription\/la-fabrique-de-l-info\/dans-la-conference-de-redaction\.vtt)" type="text\/vtt"/.exec(
    first.body,
  );
  expect(transcript).not.toBeNull();
  const vtt = await request.get(new URL(transcript![1]!).pathname);
  expect([vtt.status(), vtt.headers()['content-type']]).toEqual([200, 'text/vtt; charset=utf-8']);
  expect(await vtt.text()).toMatch(/^WEBVTT[\s\S]*<v Sophie Lambert>/);

  // A reset: a new address at once, the old one a notice that never lists an episode.
  await page.getByText('Changer l’adresse de mon flux…').click();
  await page.getByRole('button', { name: 'Confirmer le changement d’adresse' }).click();
  await expect(page.locator('main').getByRole('status').first()).toContainText('Votre flux a une nouvelle adresse');
  const renewed = await feedAddress(page);
  expect(renewed.pathname).not.toBe(feed.pathname);
  const dead = await fetchFeed(request, feed);
  expect(dead.status).toBe(200);
  expect(dead.body).toContain('cette adresse de flux n’est plus valable');
  expect(dead.body).toContain(`<itunes:image href="${cover.href}"/>`);
  expect(dead.body).not.toContain('<enclosure');
  expect(XMLValidator.validate(dead.body)).toBe(true);
  expect((await request.get(audio!.pathname, { maxRedirects: 0 })).status()).toBe(403);
  expect((await request.get(new URL(transcript![1]!).pathname)).status()).toBe(403);
  expect((await fetchFeed(request, renewed)).body).toMatch(/Bonus\s:\sdans la conférence de rédaction/);

  // The subscription is cancelled and its period ends (time passing, written in the database).
  await withE2eDatabase(async (db) => {
    const user = await db.selectFrom('users').select('id').where('email', '=', reader.email).executeTakeFirstOrThrow();
    await db.updateTable('subscriptions').set({ status: 'canceled', ended_at: new Date().toISOString() }).where('user_id', '=', user.id).execute();
  });
  const ended = await fetchFeed(request, renewed);
  expect(ended.status).toBe(200);
  expect(ended.body).toContain('votre soutien a pris fin');
  expect(ended.body).toContain('/soutenir');
  expect(ended.body).not.toContain('<enclosure');
  expect(XMLValidator.validate(ended.body)).toBe(true);
  await page.reload();
  await expect(page.locator('main')).toContainText('Votre soutien a pris fin.');
  await shoot(page, SHOTS, 'mes-podcasts-ended');

  // Support resumes: the same address gives the episodes again.
  await subscribeMonthly(page);
  expect((await fetchFeed(request, renewed)).body).toMatch(/Bonus\s:\sdans la conférence de rédaction/);
});

test('a feed read from many networks is flagged; staff reset it and the supporter is told by mail', async ({ page, playwright, baseURL }) => {
  await signIn(page, 'societaire@exemple.fr', 'motdepasse-demo');
  await page.goto('/mon-compte/podcasts');
  const feed = await feedAddress(page, 'flux-la-fabrique-de-l-info');
  // Thirteen networks in a day (the front trusts the loopback's X-Forwarded-For in this suite).
  for (let i = 0; i < 13; i += 1) {
    const app = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': `203.0.${100 + i}.7` } });
    expect((await app.get(feed.pathname)).status()).toBe(200);
    await app.dispose();
  }
  await page.context().clearCookies();
  await signIn(page, 'administration@exemple.fr', 'motdepasse-demo');
  await page.goto('/administration/flux-podcasts');
  const flag = page.getByRole('article').filter({ hasText: 'societaire@exemple.fr' });
  // The fetches are written together, within two seconds.
  await reloadUntil(page, flag);
  await expect(flag).toContainText('13');
  await expectAccessible(page);
  await shoot(page, SHOTS, 'admin-flags');
  await flag.getByRole('button', { name: 'Changer l’adresse et prévenir' }).click();
  await expect(page.locator('main')).toContainText('Le flux de societaire@exemple.fr a une nouvelle adresse');
  const mail = await waitForMail('societaire@exemple.fr', /Votre flux personnel de podcasts a une nouvelle adresse/);
  expect(mail.text).toContain('13 réseaux différents');
  const dead = await page.request.get(feed.pathname);
  expect(await dead.text()).toContain('cette adresse de flux n’est plus valable');
});
