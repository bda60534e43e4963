/**
 * The check every protected page runs first (auth is decided per page, never by comparing
 * paths in middleware). Without a session the browser goes to /login, with the way back.
 */
import type { APIContext, AstroGlobal } from 'astro';
import { markPrivate } from '../../lib/http';
import type { ServerDeps } from '../core/deps';
import type { User } from './repository';
import { services } from '../runtime';
import { SESSION_COOKIE } from './cookies';
import { sessionUser } from './service';

export async function requireUser(Astro: AstroGlobal) {
  markPrivate(Astro.response.headers);
  const deps = await services();
  const current = await sessionUser(deps, Astro.cookies.get(SESSION_COOKIE)?.value);
  if (!current) {
    const back = `${Astro.url.pathname}${Astro.url.search}`;
    return { redirect: Astro.redirect(`/login?redirect=${encodeURIComponent(back)}`, 302) } as const;
  }
  return { user: current.user, session: current, deps } as const;
}

/**
 * A staff area's check (the back-office, the newsroom): a visitor is sent to sign in, with the way
 * back; a signed-in person the area is not for gets the site's 404, exactly as for an address that
 * does not exist: the area does not say that it is there.
 */
export async function requireRole(Astro: AstroGlobal, allowed: (user: User) => boolean) {
  const auth = await requireUser(Astro);
  if ('redirect' in auth) return { response: auth.redirect } as const;
  if (!allowed(auth.user)) return { response: await Astro.rewrite('/404') } as const;
  return auth;
}

/** The same check for an endpoint (a PDF, a CSV, a form post): the answer to return, or the user. */
export async function requireRoleEndpoint(
  context: APIContext,
  allowed: (user: User) => boolean,
): Promise<{ response: Response } | { response?: never; user: User; deps: ServerDeps }> {
  const deps = await services();
  const current = await sessionUser(deps, context.cookies.get(SESSION_COOKIE)?.value);
  if (!current) return { response: context.redirect(`/login?redirect=${encodeURIComponent(`${context.url.pathname}${context.url.search}`)}`, 302) } as const;
  if (!allowed(current.user)) return { response: await context.rewrite('/404') } as const;
  return { user: current.user, deps } as const;
}
