/**
 * What a page handling its own form needs: the services and the client's rate-limit key, as for
 * the JSON endpoints (`requestContext`). Who is signed in is asked of the auth domain
 * (`requireUser`, `sessionToken`).
 */
import type { AstroGlobal } from 'astro';
import { requestContext } from './context';

export function pageRequest(Astro: Pick<AstroGlobal, 'request' | 'clientAddress'>) {
  return requestContext(Astro);
}
