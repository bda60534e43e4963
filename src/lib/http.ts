/** Response headers shared by server-rendered pages. */

/**
 * Pages that carry a secret in their URL (a token, a gift code) or private data: never
 * cached, and their address never sent to another site as a referrer.
 */
export function markPrivate(headers: Headers): void {
  headers.set('Cache-Control', 'no-store');
  headers.set('Referrer-Policy', 'no-referrer');
}
