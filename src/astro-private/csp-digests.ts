/**
 * A reach into Astro's private code (listed in ./surface.ts, which gives its figure): a Vite
 * plugin on astro/dist/core/encryption.js, for the pages rendered on demand (issue 13, goal 4; the
 * profile is in docs/performance.md). Speed only.
 */
import type { Plugin } from 'vite';

/**
 * Makes Astro hash each inline script and style of its Content-Security-Policy
 * once per process instead of once per request. For every page rendered on demand Astro computes
 * the SHA-256 of the same head elements again (`generateCspDigest`, astro/dist/core/encryption.js):
 * a twentieth of a signed-in page's time in the profile (docs/performance.md). The digest of a text
 * never changes, so the plugin wraps the function in a bounded cache of its promises. If a later
 * Astro no longer has the function as written here, the build warns and nothing changes.
 */
const FILE = /[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/;
const DECLARATION = 'async function generateCspDigest(data, algorithm) {';

export function cspDigestCache(): Plugin {
  return {
    name: 'contrechamp:csp-digest-cache',
    enforce: 'pre',
    transform(code, id) {
      if (!FILE.test(id.split('?')[0] ?? id)) return undefined;
      if (!code.includes(DECLARATION)) {
        this.warn('generateCspDigest introuvable : les empreintes CSP seront recalculées à chaque requête.');
        return undefined;
      }
      const cached = `const cspDigests = new Map();
function generateCspDigest(data, algorithm) {
  const key = algorithm + "\\u0000" + data;
  let digest = cspDigests.get(key);
  if (digest === undefined) {
    digest = generateCspDigestUncached(data, algorithm);
    if (cspDigests.size >= 1000) cspDigests.clear();
    cspDigests.set(key, digest);
    digest.catch(() => cspDigests.delete(key));
  }
  return digest;
}
async function generateCspDigestUncached(data, algorithm) {`;
      return { code: code.replace(DECLARATION, cached), map: null };
    },
  };
}
