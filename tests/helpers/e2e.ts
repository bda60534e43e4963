/**
 * Playwright's `test`, with each test coming from its own network: the e2e server trusts the
 * loopback as a proxy (`TRUSTED_PROXIES` in `playwright.config.ts`), and every request of a test
 * (its pages, the contexts it opens, its `request`) carries an `X-Forwarded-For` of its own.
 *
 * Without it, the whole suite would be one reader behind one address, and the per-network
 * limits (30 password attempts in 15 minutes, account mails, sign-ups) would refuse the later
 * tests of a run: what a site behind nginx would do to every reader if it did not read that
 * header. The address is drawn from 198.18.0.0/15 (RFC 2544, never routed), from the test's id
 * and its retry, so that a retry does not inherit its first attempt's counts.
 */
import { createHash } from 'node:crypto';
import { test as base } from '@playwright/test';

export * from '@playwright/test';

export function clientAddressOf(testId: string, retry: number): string {
  const [a = 0, b = 0, c = 0] = createHash('sha256').update(`${testId}:${retry}`).digest();
  return `198.${18 + (a & 1)}.${b}.${Math.max(1, c)}`;
}

export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientAddressOf(testInfo.testId, testInfo.retry) });
  },
});
