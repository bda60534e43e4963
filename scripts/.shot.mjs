import { chromium } from '@playwright/test';
const base = process.env.BASE ?? 'http://localhost:4399';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
for (const [name, width] of [['desk', 1280], ['mob', 390]]) {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  await page.goto(base + '/podcasts/a-contre-courant/juger-en-vingt-minutes');
  await page.getByRole('main').getByRole('link', { name: /^Écouter/ }).first().click();
  await page.waitForSelector('[data-player-bar]');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/player-${name}.png` });
  await page.close();
}
await browser.close();
