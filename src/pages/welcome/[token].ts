/**
 * The sign-in link of the mail (SPEC: magicLink). Opening it changes nothing: the token goes
 * into a short-lived cookie and the browser to /welcome, which signs in on an explicit click.
 */
import type { APIRoute } from 'astro';
import { TOKEN_LINKS, stashToken } from '../../server/http/token-links';

export const prerender = false;

export const GET: APIRoute = ({ params, cookies }) => stashToken(cookies, TOKEN_LINKS.signIn, params.token);
