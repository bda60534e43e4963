/**
 * End-to-end tests run against the production build, served by `npm start`'s script on a
 * free port (never the dev server). Chromium is Debian's /usr/bin/chromium when present
 * (CHROMIUM_PATH overrides it); otherwise Playwright's own browser is used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Workers re-read this file: the port is chosen once and handed down through the environment.
// 4399 when it is free (the build, which bakes the site URL in, can then be reused between
// runs), else any free port.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  '-e',
  "const n=require('net');const t=(p)=>{const s=n.createServer();s.once('error',()=>p?t(0):0);s.listen(p,'127.0.0.1',()=>{console.log(s.address().port);s.close()})};t(4399)",
])
  .toString()
  .trim();
const port = Number(process.env.E2E_PORT);
// A fresh data folder per run (database, mail outbox), shared with the workers that read mails.
process.env.E2E_DATA_DIR ??= `test-results/e2e-data-${Date.now()}`;
const baseURL = `http://localhost:${port}`;

const systemChromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // No retries, in CI either: a test that passes only on its second try is a defect to find and fix.
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/playwright.json' }]] : [['list'], ['html', { open: 'never' }]],
  // Two Chromiums, the server and its jobs share two cores: a step that takes 50 ms alone can
  // take ten times that there. Time limits catch a page that never comes, not a slow machine
  // (speed has its benchmarks under scripts/bench/).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    // A trace snapshots the page at every step, which doubles a test's time on CI's two cores:
    // there, only the retry of a failed test records one (the first failure's log says where).
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'site', testIgnore: /publishing\.spec\.ts$/ },
    // The newsroom's spec builds the site three times on a server of its own: it runs once the
    // others are done, so that its builds do not starve their pages of the machine's two cores.
    { name: 'publishing', testMatch: /publishing\.spec\.ts$/, dependencies: ['site'] },
  ],
  webServer: {
    command: 'node src/host/start.ts',
    url: `${baseURL}/`,
    // The server answers on the configured site URL only (links in e-mails, origin checks).
    env: {
      PORT: String(port),
      HOST: 'localhost',
      SITE_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      APP_MODE: 'demo',
      // A SEPA debit of the simulated provider stays pending this long (20 s by default): long
      // enough to see « en cours », short enough to see it accepted within a test.
      SIMULATED_SEPA_DELAY_SECONDS: '8',
      // Each test is its own reader on its own network (tests/helpers/e2e.ts): the loopback is
      // trusted as a proxy, and every request of a test names its address in X-Forwarded-For.
      TRUSTED_PROXIES: '127.0.0.1,::1',
      // Audience measurement is built in, towards a host the tests intercept; the tracker stays
      // silent under automation unless a test opts in (tests/e2e/analytics.spec.ts).
      PUBLIC_PLAUSIBLE_DOMAIN: 'contrechamp.test',
      PUBLIC_PLAUSIBLE_HOST: 'https://plausible.test',
      PUBLIC_PLAUSIBLE_IGNORED_HOSTS: 'ignored.invalid',
    },
    // Locally, E2E_PORT can point at a server already running (e.g. while iterating on tests).
    reuseExistingServer: !process.env.CI,
    // The first run builds the site.
    timeout: 600_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
