/**
 * The header's user icon (SPEC §2): a link to /login for anonymous readers; for members, a
 * dropdown with 'Mon compte' and 'Se déconnecter' (which says so in a toast, then goes home).
 * It asks the server only when the hint cookie says someone may be signed in, and the
 * dropdown's code is fetched only for a member.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { $user, fetchMe } from '../../stores/session';
import { UserIcon } from '../ui/icons';

const MemberMenu = lazy(() => import('./MemberMenu'));

export default function UserMenu() {
  const user = useStore($user);
  useEffect(() => {
    void fetchMe();
  }, []);

  if (!user) {
    return (
      <a className="icon-btn" href="/login" aria-label="Se connecter" title="Se connecter">
        <UserIcon />
      </a>
    );
  }
  return (
    <Suspense
      fallback={(
        <a className="icon-btn" href="/mon-compte" aria-label="Mon compte" title="Mon compte">
          <UserIcon />
        </a>
      )}
    >
      <MemberMenu user={user} />
    </Suspense>
  );
}
