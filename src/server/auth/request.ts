/**
 * Who is signed in, for endpoints: the session behind the cookie, the JSON opening of
 * endpoints reserved to signed-in users, and the public shape of a user in answers.
 */
import type { APIContext } from 'astro';
import type { z } from 'zod';
import { apiError } from '../http/json';
import { jsonRequest } from '../http/json-request';
import { services } from '../runtime';
import { SESSION_COOKIE } from './cookies';
import type { User } from './repository';
import { sessionUser } from './service';

/** The session cookie's value, if any (never logged). */
export const sessionToken = (context: Pick<APIContext, 'cookies'>) => context.cookies.get(SESSION_COOKIE)?.value;

/** The signed-in user behind the request's cookie, or null. */
export async function currentUser(context: Pick<APIContext, 'cookies'>) {
  return sessionUser(await services(), sessionToken(context));
}

/** `jsonRequest`, then the session: 401 without one. */
export async function userRequest<T>(context: APIContext, schema: z.ZodType<T>) {
  const req = await jsonRequest(context, schema);
  if (!req.ok) return req;
  const current = await sessionUser(req.deps, sessionToken(context));
  if (!current) return { ok: false, response: apiError(401, 'Vous n’êtes pas connecté.') } as const;
  return { ...req, user: current.user, sessionHash: current.sessionHash, persistent: current.persistent } as const;
}

/** The public shape of a user in API answers: never a hash, never internal fields. */
export function publicUser(user: User) {
  return { id: user.id, email: user.email, given_name: user.givenName, family_name: user.familyName, role: user.role };
}
