/**
 * The check every back-office page runs first (authorization is decided per page, never by
 * comparing paths in middleware). A visitor is sent to sign in, with the way back; a signed-in
 * person who is not an administrator gets the site's 404, exactly as for an address that does not
 * exist: the back-office does not say that it is there.
 */
import type { APIContext, AstroGlobal } from 'astro';
import type { User } from '../auth/public';
import { requireRole, requireRoleEndpoint } from '../auth/guard';

/** Only the `admin` staff role opens the back-office (`editor` is the newsroom's). */
export const isAdmin = (user: Pick<User, 'role'>): boolean => user.role === 'admin';

export const requireAdmin = (Astro: AstroGlobal) => requireRole(Astro, isAdmin);

/**
 * The same check for an endpoint (a PDF, a file): a visitor is sent to sign in, anyone but an
 * administrator gets the site's 404.
 */
export const requireAdminEndpoint = (context: APIContext) => requireRoleEndpoint(context, isAdmin);
