/**
 * The check every newsroom page and endpoint runs first (`/redaction`, its exports): editors and
 * administrators only. A visitor is sent to sign in, with the way back; anyone else gets the site's
 * 404, exactly as for an address that does not exist (as the back-office does).
 */
import type { APIContext, AstroGlobal } from 'astro';
import type { User } from '../auth/repository';
import { requireUser } from '../auth/guard';
import { SESSION_COOKIE } from '../auth/cookies';
import { sessionUser } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { services } from '../runtime';

/** The newsroom is open to editors, and to administrators. */
export const isEditor = (user: Pick<User, 'role'>): boolean => user.role === 'editor' || user.role === 'admin';

export async function requireEditor(Astro: AstroGlobal) {
  const auth = await requireUser(Astro);
  if ('redirect' in auth) return { response: auth.redirect } as const;
  if (!isEditor(auth.user)) return { response: await Astro.rewrite('/404') } as const;
  return auth;
}

/** The same check for an endpoint (a CSV, a form post): the answer to return, or the editor. */
export async function requireEditorEndpoint(context: APIContext): Promise<{ response: Response } | { response?: never; user: User; deps: ServerDeps }> {
  const deps = await services();
  const current = await sessionUser(deps, context.cookies.get(SESSION_COOKIE)?.value);
  if (!current) return { response: context.redirect(`/login?redirect=${encodeURIComponent(`${context.url.pathname}${context.url.search}`)}`, 302) } as const;
  if (!isEditor(current.user)) return { response: await context.rewrite('/404') } as const;
  return { user: current.user, deps } as const;
}
