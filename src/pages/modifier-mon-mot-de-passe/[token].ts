/**
 * The password-reset link of the mail. Opening it changes nothing (mail scanners follow links):
 * the token goes into a short-lived cookie and the browser to /modifier-mon-mot-de-passe/nouveau,
 * so that it leaves the address bar and the history without any script.
 */
import type { APIRoute } from 'astro';
import { TOKEN_LINKS, stashToken } from '../../server/http/token-links';

export const prerender = false;

export const GET: APIRoute = ({ params, cookies }) => stashToken(cookies, TOKEN_LINKS.reset, params.token);
