/**
 * The header's user icon (SPEC §2): a link to /login for anonymous readers; for signed-in users, a
 * dropdown with 'Mon compte' and 'Se déconnecter' (which says so in a toast, then goes home).
 * It asks the server only when the hint cookie says someone may be signed in, and the
 * dropdown's code is fetched only for a signed-in user.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { $user, syncSession, watchSession } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { UserIcon } from '../ui/icons';
import { withIslandStyles } from '../../lib/client/island-styles';
import dropdownStyles from './user-dropdown.css?url';

const UserDropdown = lazy(withIslandStyles(() => import('./UserDropdown'), dropdownStyles));

// Once per visit: the menu follows sign-ins and sign-outs made by forms (swapped in by the
// ClientRouter, no reload) and pages restored from the back/forward cache.
if (typeof document !== 'undefined') {
  watchSession({ onSignedOut: () => toast({ title: 'Déconnexion effectuée.', tone: 'success' }) });
}

export default function UserMenu() {
  const user = useStore($user);
  // The server always renders the anonymous link; after a client-side navigation the store
  // already knows the user, so the first render must still be that link, or hydration fails
  // (React #418) and the island is re-rendered from scratch.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    void syncSession();
  }, []);

  if (!user || !hydrated) {
    return (
      <a className="icon-btn" href="/login" aria-label="Se connecter" title="Se connecter">
        <UserIcon />
      </a>
    );
  }
  return (
    <Suspense
      fallback={
        <a className="icon-btn" href="/mon-compte" aria-label="Mon compte" title="Mon compte">
          <UserIcon />
        </a>
      }
    >
      <UserDropdown user={user} />
    </Suspense>
  );
}
