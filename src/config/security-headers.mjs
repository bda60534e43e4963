// @ts-check
/**
 * The security headers of every answer, declared once. Plain JavaScript with JSDoc types, so
 * that both readers can import it: `src/host/start.ts` (plain Node, every answer, static files
 * included) and `src/middleware.ts` (answers rendered on demand, whoever serves them, `astro dev`
 * included).
 *
 * The Content-Security-Policy is not here: Astro computes one per page (script and style
 * hashes, see `security.csp` in astro.config.mjs) and sends it with the page itself. Neither
 * reader replaces a header an answer already carries.
 */

/** @type {Readonly<Record<string, string>>} */
export const SECURITY_HEADERS = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), browsing-topics=()',
});

/**
 * Adds the headers a `Headers` object lacks. Returns false when the headers cannot be changed
 * (a `Response.redirect` has immutable headers; it carries no content to protect).
 * @param {Headers} headers
 * @returns {boolean}
 */
export function addSecurityHeaders(headers) {
  try {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Wraps a Node request listener so that every answer carries the headers; the wrapped handler
 * may still set its own value of any of them.
 * @template {import('node:http').IncomingMessage} Req
 * @template {import('node:http').ServerResponse} Res
 * @param {(req: Req, res: Res) => unknown} handler
 * @returns {(req: Req, res: Res) => void}
 */
export function withSecurityHeaders(handler) {
  return (req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    handler(req, res);
  };
}
