/**
 * The link that confirms a new account's address. Opening it changes nothing: the token goes
 * into a short-lived cookie and the browser to /creer-mon-compte/confirmer, which confirms on an
 * explicit click.
 */
import type { APIRoute } from 'astro';
import { TOKEN_LINKS, stashToken } from '../../../server/http/token-links';

export const prerender = false;

export const GET: APIRoute = ({ params, cookies }) => stashToken(cookies, TOKEN_LINKS.signUpConfirm, params.token);
