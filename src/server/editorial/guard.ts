/**
 * The check every newsroom page and endpoint runs first (`/redaction`, its exports): editors and
 * administrators only (src/server/auth/guard.ts: a visitor signs in, anyone else gets the 404).
 */
import type { APIContext, AstroGlobal } from 'astro';
import type { User } from '../auth/public';
import { requireRole, requireRoleEndpoint } from '../auth/guard';

/** The newsroom is open to editors, and to administrators. */
export const isEditor = (user: Pick<User, 'role'>): boolean => user.role === 'editor' || user.role === 'admin';

export const requireEditor = (Astro: AstroGlobal) => requireRole(Astro, isEditor);

/** The same check for an endpoint (a CSV, a form post): the answer to return, or the editor. */
export const requireEditorEndpoint = (context: APIContext) => requireRoleEndpoint(context, isEditor);
