// Lighthouse accessibility on a list of pages, at 1280 and 390, optionally signed in (COOKIE env).
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
const base = process.env.BASE ?? 'http://localhost:4600';
const pages = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--remote-debugging-port=9333'] });
const headers = process.env.COOKIE ? { Cookie: process.env.COOKIE } : undefined;
for (const path of pages) {
  for (const width of [1280, 390]) {
    const mobile = width === 390;
    const result = await lighthouse(
      base + path,
      { port: 9333, onlyCategories: ['accessibility'], output: 'json', logLevel: 'error', extraHeaders: headers, disableStorageReset: true },
      {
        extends: 'lighthouse:default',
        settings: {
          formFactor: mobile ? 'mobile' : 'desktop',
          screenEmulation: { mobile, width, height: mobile ? 844 : 900, deviceScaleFactor: 1, disabled: false },
          throttlingMethod: 'provided',
          onlyCategories: ['accessibility'],
        },
      },
    );
    const lhr = result.lhr;
    const failed = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'informative',
      )
      .map((a) => a.id);
    console.log(
      `${Math.round(lhr.categories.accessibility.score * 100)}\t${width}\t${path}\t${lhr.finalDisplayedUrl === base + path ? '' : '→ ' + lhr.finalDisplayedUrl}\t${failed.join(',')}`,
    );
  }
}
await browser.close();
