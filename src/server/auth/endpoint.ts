/**
 * What every auth-aware endpoint needs: the services, the session behind the cookie, the
 * client's rate-limit key. Authorization is decided here per endpoint, never by paths.
 */
import type { APIContext } from 'astro';
import { services } from '../runtime';
import { SESSION_COOKIE } from './cookies';
import { clientKey } from './request-guards';
import { subkey } from '../core/keys';
import { sessionUser } from './service';

export async function requestContext(context: APIContext) {
  const deps = await services();
  let client: string;
  try {
    client = clientKey(context.request, context.clientAddress, subkey('client-key'));
  } catch {
    client = clientKey(context.request, 'unknown', subkey('client-key'));
  }
  const token = context.cookies.get(SESSION_COOKIE)?.value;
  return {
    deps,
    client,
    token,
    userAgent: context.request.headers.get('user-agent'),
    /** The signed-in member, or null. */
    session: () => sessionUser(deps, token),
  };
}

/** The public shape of a user in API answers: never a hash, never internal fields. */
export function publicUser(user: import('./repository').User) {
  return {
    id: user.id,
    email: user.email,
    given_name: user.givenName,
    family_name: user.familyName,
    role: user.role,
    newsletter: user.newsletter,
  };
}
