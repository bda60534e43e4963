/**
 * The check every back-office page runs first (authorization is decided per page, never by
 * comparing paths in middleware). A visitor is sent to sign in, with the way back; a signed-in
 * person who is not an administrator gets the site's 404, exactly as for an address that does not
 * exist: the back-office does not say that it is there.
 */
import type { AstroGlobal } from 'astro';
import type { User } from '../auth/repository';
import { requireUser } from '../auth/guard';

/** Only the `admin` staff role opens the back-office (`editor` is the newsroom's). */
export const isAdmin = (user: Pick<User, 'role'>): boolean => user.role === 'admin';

export async function requireAdmin(Astro: AstroGlobal) {
  const auth = await requireUser(Astro);
  if ('redirect' in auth) return { response: auth.redirect } as const;
  if (!isAdmin(auth.user)) return { response: await Astro.rewrite('/404') } as const;
  return auth;
}
