/**
 * The secret guard of the form tests: no request may carry a password or a token in its URL
 * query (history, server logs, Referer). `test` here is Playwright's, with an automatic
 * fixture that watches every request of the page and fails the test on any such URL.
 *
 * The one exception is a link the test itself opens from a mail (`secrets.allow(url)`): the
 * newsletter's links carry their token in the query by construction, and the page they open
 * takes it out at once (303 to a clean address).
 */
import { expect, test as base, type Request } from './e2e';

/** Query parameter names that would carry a secret. */
export const SECRET_PARAM = /pass|token|secret|code/i;

/** The reasons a URL must never be requested, or null. */
export function secretsIn(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const names = [...parsed.searchParams.keys()];
  const secret = names.find((name) => SECRET_PARAM.test(name));
  if (secret) return `“${secret}” in the query`;
  if (names.some((n) => /mail/i.test(n)) && names.some((n) => /pass|pwd|mdp/i.test(n))) return 'an address and a password in the query';
  return null;
}

export interface SecretGuard {
  /** Requests that carried a secret so far. */
  leaks: string[];
  /** Lets one exact URL through (a mailed link opened by the test). */
  allow(url: string): void;
}

export const test = base.extend<{ secrets: SecretGuard }>({
  secrets: [
    async ({ page }, use) => {
      const allowed = new Set<string>();
      const leaks: string[] = [];
      const watch = (request: Request) => {
        const url = request.url();
        if (allowed.has(url)) return;
        const reason = secretsIn(url);
        if (reason) leaks.push(`${request.method()} ${url} (${reason})`);
      };
      page.on('request', watch);
      await use({ leaks, allow: (url) => allowed.add(url) });
      page.off('request', watch);
      expect(leaks, 'requests carrying a secret in their URL').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
