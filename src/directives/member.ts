/**
 * `client:member`: hydrates the user menu at once when the member hint cookie says someone may
 * be signed in; for an anonymous reader, never: the server-rendered link to /login is all the
 * menu is. A sign-in swaps a new page in (the ClientRouter), whose menu then hydrates.
 */
import type { ClientDirective } from 'astro';
import { hasSessionHint } from '../lib/client/member-hint';
import { hydrator } from './common';

const memberDirective: ClientDirective = (load) => {
  if (hasSessionHint()) void hydrator(load)();
};

export default memberDirective;
