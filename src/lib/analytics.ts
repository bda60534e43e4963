/**
 * Audience measurement with Plausible's official tracker (SPEC §7): cookieless, enabled only
 * when a domain is configured at build time, and never on `file:` pages, on ignored hostnames
 * (localhost by default), in automated browsers, or when the reader set
 * `localStorage.plausible_ignore = "true"`.
 * Page views are sent on every page load and every client-side navigation.
 */
export interface AnalyticsSettings {
  domain?: string | undefined;
  /** Where the Plausible server is (default: plausible.io). */
  host?: string | undefined;
  /** Comma-separated hostnames never measured. */
  ignoredHosts?: string | undefined;
}

export function shouldTrack(
  settings: AnalyticsSettings,
  where: { protocol: string; hostname: string },
  storage: Pick<Storage, 'getItem'> | undefined,
  /** An automated browser (navigator.webdriver) that did not opt in, as Plausible's own script skips. */
  automated = false,
): boolean {
  if (!settings.domain || automated) return false;
  if (where.protocol === 'file:') return false;
  const ignored = (settings.ignoredHosts ?? 'localhost')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  if (ignored.includes(where.hostname.toLowerCase())) return false;
  try {
    if (storage?.getItem('plausible_ignore') === 'true') return false;
  } catch {
    // Storage refused (privacy settings): measuring is still allowed, it sets nothing.
  }
  return true;
}

/** The event endpoint on the configured host. */
export function eventEndpoint(host: string | undefined): string | undefined {
  return host ? new URL('/api/event', host).href : undefined;
}

/** Paths whose last part is a secret (a gift code): measured without it. */
const SECRET_PATHS = [/^(\/activer-cadeau\/)[^/?#]+/, /^(\/creer-mon-compte\/cadeau\/)[^/?#]+/];

/**
 * The address a page view is measured under: a gift code in the path becomes « code », and of
 * the query only the campaign tags (`utm_*`) stay, since a return address (`?redirect=…`) may
 * carry a code; the fragment goes too. Unparseable addresses are not measured.
 */
export function measuredUrl(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  for (const secret of SECRET_PATHS) url.pathname = url.pathname.replace(secret, '$1code');
  const kept = new URLSearchParams();
  for (const [key, value] of url.searchParams) if (key.startsWith('utm_')) kept.append(key, value);
  url.search = kept.toString();
  url.hash = '';
  return url.href;
}
