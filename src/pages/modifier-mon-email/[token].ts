/**
 * The confirmation link mailed to a new address. Opening it changes nothing: the token goes
 * into a short-lived cookie and the browser to /modifier-mon-email/confirmer.
 */
import type { APIRoute } from 'astro';
import { TOKEN_LINKS, stashToken } from '../../server/http/token-links';

export const prerender = false;

export const GET: APIRoute = ({ params, cookies }) => stashToken(cookies, TOKEN_LINKS.email, params.token);
