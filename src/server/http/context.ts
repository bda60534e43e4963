/**
 * What every endpoint and every form page needs from a request: the process's services and the
 * client's rate-limit key. Who is signed in is the auth domain's question
 * (`auth/request.ts`); authorization is decided per endpoint and per page, never by paths.
 */
import type { APIContext } from 'astro';
import { services } from '../runtime';
import { clientKey } from './request-guards';
import { subkey } from '../core/keys';

type RequestLike = Pick<APIContext, 'request'> & { clientAddress?: string };

export async function requestContext(context: Pick<APIContext, 'request'> & { readonly clientAddress: string }) {
  const deps = await services();
  return { deps, client: clientOf(context), userAgent: context.request.headers.get('user-agent') };
}

/** The client's address as the adapter tells it, or 'unknown'. Hash it before keeping anything of it. */
export function clientAddressOf(context: RequestLike): string {
  try {
    // Astro throws when the adapter cannot tell the address (prerendered context, odd sockets).
    return context.clientAddress ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The client's rate-limit key: a keyed hash of its address, never the address itself. */
export function clientOf(context: RequestLike): string {
  return clientKey(context.request, clientAddressOf(context), subkey('client-key'));
}
