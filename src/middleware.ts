/**
 * Security headers (src/config/security-headers.mjs, the one list) on every answer rendered on
 * demand, whoever serves it (npm start's server adds them to static files too). A header the
 * page set itself is kept. No authorization here: each protected page and endpoint checks the
 * session itself, so that no path trick can get around it.
 *
 * Every HTML page is typeset the French way on its way out (src/lib/typography.ts), so that
 * the interface's own strings get the same no-break spaces as the content: at build time for
 * prerendered pages, as they are sent for pages rendered on demand.
 *
 * Typed with `MiddlewareHandler` rather than wrapped in `defineMiddleware` (an identity
 * function from a virtual module), so that unit tests can import this file.
 */
import type { MiddlewareHandler } from 'astro';
import { addSecurityHeaders } from './config/security-headers.mjs';
import { typesetResponse } from './lib/typography';

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await typesetResponse(await next());
  if (context.isPrerendered) return response;
  addSecurityHeaders(response.headers);
  return response;
};
