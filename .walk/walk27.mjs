// Issue 27 "done when", as a new user, against a fresh clone's `npm start`. Screenshots at 1280 and 390.
import { chromium } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const BASE = process.env.BASE ?? 'http://localhost:4620';
const DATA = process.env.DATA ?? '/tmp/fresh/data';
const SHOTS = '/work/shots/s36/walk27';
const email = `nouvelle-${Date.now()}@exemple.fr`;
const log = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'X-Forwarded-For': '198.18.77.7' } });
const page = await ctx.newPage();
const errors = [];
page.on('response', (r) => {
  if (r.status() >= 500) errors.push(`${r.status()} ${r.url()}`);
});
async function shoot(name, p = page) {
  for (const width of [1280, 390]) {
    await p.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await p.waitForTimeout(250);
    await p.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await p.setViewportSize({ width: 1280, height: 900 });
}
async function mails(to, after) {
  const dir = join(DATA, 'outbox');
  const out = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
    if (statSync(join(dir, f)).mtimeMs < after) continue;
    const m = await simpleParser(readFileSync(join(dir, f)));
    if (m.to?.text.includes(to)) out.push(m);
  }
  return out;
}
async function waitMail(to, subject, after) {
  for (let i = 0; i < 60; i++) {
    const m = (await mails(to, after)).find((m) => subject.test(m.subject ?? ''));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no mail ${subject} to ${to}`);
}
async function pay(p) {
  await p.getByLabel('Adresse', { exact: true }).fill('3 rue du Port');
  await p.getByLabel('Code postal').fill('44000');
  await p.getByLabel('Ville').fill('Nantes');
  await p.getByLabel(/J’accepte les conditions générales de vente/).check();
  await p.getByRole('button', { name: /^Payer \d/ }).click();
  await p.waitForURL(/\/paiement-simule\//);
  await p.locator('#numero').fill('4242 4242 4242 4242');
  await p.getByRole('button', { name: /^Payer \d/ }).click();
  await p.waitForURL(/\/soutenir\/confirmation\//);
  for (let i = 0; i < 20 && !(await p.getByRole('heading', { name: 'Merci, c’est fait !' }).isVisible()); i++) {
    await p.waitForTimeout(700);
    await p.reload();
  }
}

// 1. A new reader subscribes, creating the account on the way.
const t0 = Date.now();
await page.goto(`${BASE}/soutenir/mon-compte?formule=mensuel`);
await page.getByLabel('Adresse e-mail', { exact: true }).fill(email);
await page.getByLabel('Prénom', { exact: true }).fill('Nora');
await page.getByLabel('Nom', { exact: true }).fill('Walker');
await page.getByLabel('Mot de passe', { exact: true }).fill('un mot de passe de test');
await page.getByRole('button', { name: /Créer mon compte et continuer/ }).click();
await page.waitForURL(/\/soutenir\/paiement/);
await pay(page);
log('subscribed', page.url());
await shoot('01-subscribed');

// 2. The personal feed in the account; curl, then with its ETag.
await page.goto(`${BASE}/mon-compte`);
await page.getByRole('complementary', { name: 'Mon compte' }).getByRole('link', { name: 'Mes podcasts' }).click();
await page.waitForURL(/\/mon-compte\/podcasts$/);
await shoot('02-mes-podcasts');
const feed = (await page.locator('#flux-tous').textContent()).trim();
log('feed', feed);
const curl = (...args) => execFileSync('curl', ['-s', '-i', '-H', 'X-Forwarded-For: 198.18.77.8', ...args], { encoding: 'utf8' });
const first = curl(feed);
const etag = /^etag: (.+)$/im.exec(first)[1].trim();
log(
  'curl:',
  first.split('\n')[0].trim(),
  'etag',
  etag,
  'bonus items',
  (first.match(/\/flux-soutiens\/[^/]+\/audio\//g) ?? []).length,
  'transcripts',
  (first.match(/<podcast:transcript/g) ?? []).length,
);
log('curl If-None-Match:', curl('-H', `If-None-Match: ${etag}`, feed).split('\n')[0].trim());

// 3. A supporters-only episode, played; its transcript read with the player running.
await page.goto(`${BASE}/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet`);
await page.locator('[data-supporters-play]').click();
await page.waitForFunction(
  () => {
    const a = document.querySelector('[data-player-bar] audio');
    return a && !a.paused && a.currentTime > 0.5;
  },
  null,
  { timeout: 15000 },
);
await shoot('03-bonus-playing');
await page.getByRole('link', { name: 'Lire la transcription' }).click();
await page.waitForURL(/transcription-soutiens$/);
await page.locator('li', { hasText: 'Annick range le tiroir-caisse' }).locator('[data-seek]').click();
await page.waitForFunction(() => document.querySelector('li[aria-current="true"]')?.textContent?.includes('tiroir-caisse'), null, { timeout: 10000 });
log('transcript: playing at', await page.evaluate(() => document.querySelector('[data-player-bar] audio').currentTime.toFixed(1)), 'current cue highlighted');
await page.screenshot({ path: join(SHOTS, '04-bonus-transcript-1280.png') });
await page.getByRole('button', { name: 'Mettre en pause' }).click();
await page.setViewportSize({ width: 390, height: 844 });
await page.locator('li[aria-current="true"]').scrollIntoViewIfNeeded();
await page.screenshot({ path: join(SHOTS, '04-bonus-transcript-390.png') });
await page.setViewportSize({ width: 1280, height: 900 });

// 4. Reset: the old address dies at once.
await page.goto(`${BASE}/mon-compte/podcasts`);
await page.getByText('Changer l’adresse de mon flux…').click();
await shoot('05-reset-confirm');
await page.getByRole('button', { name: 'Confirmer le changement d’adresse' }).click();
await page.waitForLoadState();
await shoot('06-reset-done');
const renewed = (await page.locator('#flux-tous').textContent()).trim();
const dead = curl(feed);
log(
  'old address:',
  dead.split('\n')[0].trim(),
  /n’est plus valable/.test(dead) ? 'notice: no longer valid' : 'NO NOTICE',
  /<enclosure/.test(dead) ? 'HAS ENCLOSURE' : 'no enclosure',
);
log('new address:', curl(renewed).split('\n')[0].trim());

// 5. Cancel (three clicks), let the period end, resume.
await page.goto(`${BASE}/mon-compte/mes-abonnements`);
await page
  .locator('main')
  .getByRole('link', { name: /Gérer mon abonnement/ })
  .first()
  .click();
await page.waitForURL(/mes-abonnements\/[\w-]+$/);
const subscriptionPage = page.url();
await page
  .locator('main')
  .getByRole('button', { name: /Résilier|Annuler mon abonnement/ })
  .first()
  .click()
  .catch(async () => {
    await page
      .locator('main')
      .getByRole('link', { name: /Résilier/ })
      .first()
      .click();
  });
await page.waitForTimeout(500);
await shoot('07-cancel-step');
for (let i = 0; i < 3; i++) {
  const next = page
    .locator('main')
    .getByRole('button', { name: /Confirmer|Résilier|Oui/ })
    .first();
  if (!(await next.isVisible().catch(() => false))) break;
  await next.click();
  await page.waitForTimeout(700);
}
await shoot('08-cancelled');
log('cancelled:', (await page.locator('main').innerText()).match(/[^\n]*(résili|fin|jusqu)[^\n]*/i)?.[0]);
log('feed while the paid period runs:', curl(renewed).split('\n')[0].trim(), /<enclosure/.test(curl(renewed)) ? 'episodes' : 'NO EPISODES');
// Time passing: the period ends (the provider's notice, written where it lands).
execFileSync('sqlite3', [
  join(DATA, 'contrechamp.db'),
  `update subscriptions set status='canceled', ended_at='${new Date().toISOString()}' where user_id=(select id from users where email='${email}')`,
]);
const ended = curl(renewed);
log(
  'after the end:',
  ended.split('\n')[0].trim(),
  /votre soutien a pris fin/.test(ended) ? 'notice: support ended' : 'NO NOTICE',
  /<enclosure/.test(ended) ? 'HAS ENCLOSURE' : 'no enclosure',
);
await page.goto(`${BASE}/mon-compte/podcasts`);
await shoot('09-support-ended');
const t1 = Date.now();
await page.goto(`${BASE}/soutenir/paiement?formule=mensuel`);
await pay(page);
log('resumed; same address:', curl(renewed).split('\n')[0].trim(), /<enclosure/.test(curl(renewed)) ? 'episodes again' : 'NO EPISODES');

// 6. Withdraw the subscription bought a minute ago, from its mailed link, signed out.
const confirmation = await waitMail(email, /abonnement/i, t1);
log('mail:', confirmation.subject);
const link = /https?:\/\/[^\s]+\/retractation\/lien\/[\w.-]+/.exec(confirmation.text)?.[0];
log('withdrawal link in mail:', !!link);
const anon = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'X-Forwarded-For': '198.18.77.9' } });
const ap = await anon.newPage();
await ap.goto(link.replace(/^https?:\/\/[^/]+/, BASE));
await shoot('10-withdraw-link', ap);
await ap.getByRole('button', { name: 'Confirmer la rétractation' }).click();
await ap.waitForLoadState();
await shoot('11-withdrawn', ap);
const ack = await waitMail(email, /^Votre rétractation est enregistrée/, t1);
log(
  'acknowledgement:',
  ack.subject,
  '|',
  ack.text
    .split('\n')
    .filter((l) => /rétractation|€|contrat|le \d/.test(l))
    .slice(0, 5)
    .join(' | '),
);
await page.goto(subscriptionPage);
for (let i = 0; i < 20 && !(await page.getByText('Fin après remboursement').isVisible()); i++) {
  await page.waitForTimeout(1000);
  await page.reload();
}
await shoot('12-subscription-after-withdrawal');
log('5xx seen:', errors.length ? errors : 'none');
await browser.close();
