/**
 * What a page handling its own form needs from the auth domain: the services, the client's
 * rate-limit key, the session token (the same as the JSON endpoints', src/server/auth/endpoint.ts).
 */
import type { APIContext, AstroGlobal } from 'astro';
import { requestContext } from '../auth/endpoint';

export function pageRequest(Astro: Pick<AstroGlobal, 'request' | 'clientAddress' | 'cookies'>) {
  // requestContext reads only the request, the client's address and the cookies.
  return requestContext(Astro as unknown as APIContext);
}
