/**
 * Security headers (src/config/security-headers.mjs, the one list) on every answer rendered on
 * demand, whoever serves it (npm start's server adds them to static files too). A header the
 * page set itself is kept. No authorization here: each protected page and endpoint checks the
 * session itself, so that no path trick can get around it.
 *
 * Every HTML page is typeset the French way on its way out (src/lib/typography.ts), so that
 * the interface's own strings get the same no-break spaces as the content: at build time for
 * prerendered pages, as they are sent for pages rendered on demand, unless the layout typeset the
 * page as it rendered it (`locals.typeset`, src/layouts/BaseLayout.astro).
 *
 * Under /api/, errors are JSON (`jsonErrors`, src/server/http/json.ts): an endpoint that throws
 * answers a logged 500 in JSON, and Astro's HTML error pages never reach a JSON client. Every
 * answer's status line carries its standard reason phrase (`withReasonPhrase`).
 *
 * Typed with `MiddlewareHandler` rather than wrapped in `defineMiddleware` (an identity
 * function from a virtual module), so that unit tests can import this file.
 */
import type { MiddlewareHandler } from 'astro';
import { addSecurityHeaders } from './config/security-headers.mjs';
import { typesetResponse } from './lib/typography';
import { log } from './server/core/log';
import { isApiPath, jsonErrors } from './server/http/json';
import { withReasonPhrase } from './server/http/status';

export const onRequest: MiddlewareHandler = async (context, next) => {
  // The JSON endpoints answer their errors in JSON, an exception included (never the HTML 500 page).
  const pathname = context.url?.pathname ?? '';
  const rendered = isApiPath(pathname) ? await jsonErrors(next, (error) => log.error('unhandled error', { path: pathname, error })) : await next();
  const response = context.locals?.typeset ? rendered : await typesetResponse(rendered);
  if (context.isPrerendered) return response;
  // Every status line says its own reason: a page that set Astro.response.status keeps Astro's "OK".
  const answer = withReasonPhrase(response);
  addSecurityHeaders(answer.headers);
  return answer;
};
