/**
 * `client:session`: hydrates the user menu at once when the session hint cookie says someone may
 * be signed in; for an anonymous reader, never: the server-rendered link to /login is all the
 * menu is. A sign-in swaps a new page in (the ClientRouter), whose menu then hydrates.
 */
import type { ClientDirective } from 'astro';
import { hasSessionHint } from '../lib/client/session-hint';
import { hydrator } from './common';

const sessionDirective: ClientDirective = (load) => {
  const hydrate = hydrator(load);
  if (hasSessionHint()) {
    void hydrate();
    return;
  }
  // A page restored from the back/forward cache after a sign-in made elsewhere.
  const onShow = (event: PageTransitionEvent) => {
    if (!event.persisted || !hasSessionHint()) return;
    window.removeEventListener('pageshow', onShow);
    void hydrate();
  };
  window.addEventListener('pageshow', onShow);
};

export default sessionDirective;
