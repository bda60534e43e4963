/**
 * The status line of every answer says its own reason: `413 Payload Too Large`, never `413 OK`.
 *
 * A `Response` built with a status and no `statusText` has an empty one (Node then writes the
 * standard phrase, but only if nothing in between copied the empty one); a page that sets
 * `Astro.response.status = 413` keeps Astro's default `statusText`, "OK", which the Node adapter
 * writes as it is. `json()` and `apiError()` set the phrase themselves; the middleware
 * (src/middleware.ts) puts it on every other answer with `withReasonPhrase`.
 */
import { STATUS_CODES } from 'node:http';

/** The standard reason phrase of a status ("Payload Too Large" for 413), or '' for a status with none. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? '';
}

/**
 * The answer with the standard reason phrase of its status, when it carries a placeholder: none
 * at all, or "OK" on a status that is not 200. A phrase chosen on purpose is kept, and an answer
 * already right is returned as it is (same object).
 */
export function withReasonPhrase(response: Response): Response {
  const phrase = reasonPhrase(response.status);
  if (!phrase || response.statusText === phrase) return response;
  const placeholder = response.statusText === '' || (response.statusText === 'OK' && response.status !== 200);
  if (!placeholder) return response;
  // Headers are copied into a new list: those of Response.redirect() cannot be changed.
  return new Response(response.body, { status: response.status, statusText: phrase, headers: new Headers(response.headers) });
}
