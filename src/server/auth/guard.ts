/**
 * The check every protected page runs first (auth is decided per page, never by comparing
 * paths in middleware). Without a session the browser goes to /login, with the way back.
 */
import type { AstroGlobal } from 'astro';
import { markPrivate } from '../../lib/http';
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
