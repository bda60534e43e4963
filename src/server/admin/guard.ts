/**
 * The check every back-office page runs first (authorization is decided per page, never by
 * comparing paths in middleware). A visitor is sent to sign in, with the way back; a signed-in
 * person who is not an administrator gets the site's 404, exactly as for an address that does not
 * exist: the back-office does not say that it is there.
 */
import type { APIContext, AstroGlobal } from 'astro';
import type { User } from '../auth/repository';
import { requireUser } from '../auth/guard';
import { SESSION_COOKIE } from '../auth/cookies';
import { sessionUser } from '../auth/service';
import { services } from '../runtime';
import type { ServerDeps } from '../core/deps';

/** Only the `admin` staff role opens the back-office (`editor` is the newsroom's). */
export const isAdmin = (user: Pick<User, 'role'>): boolean => user.role === 'admin';

export async function requireAdmin(Astro: AstroGlobal) {
  const auth = await requireUser(Astro);
  if ('redirect' in auth) return { response: auth.redirect } as const;
  if (!isAdmin(auth.user)) return { response: await Astro.rewrite('/404') } as const;
  return auth;
}

/**
 * The same check for an endpoint (a PDF, a file): a visitor is sent to sign in, anyone but an
 * administrator gets the site's 404.
 */
export async function requireAdminEndpoint(context: APIContext): Promise<{ response: Response } | { response?: never; user: User; deps: ServerDeps }> {
  const deps = await services();
  const current = await sessionUser(deps, context.cookies.get(SESSION_COOKIE)?.value);
  if (!current) return { response: context.redirect(`/login?redirect=${encodeURIComponent(`${context.url.pathname}${context.url.search}`)}`, 302) } as const;
  if (!isAdmin(current.user)) return { response: await context.rewrite('/404') } as const;
  return { user: current.user, deps } as const;
}
