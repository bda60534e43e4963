/**
 * The header's user icon (SPEC §2): a link to /login for anonymous readers; for members, a
 * dropdown with 'Mon compte' and 'Se déconnecter' (which says so in a toast, then goes home).
 * It asks the server only when the hint cookie says someone may be signed in.
 */
import { useStore } from '@nanostores/react';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { navigate } from 'astro:transitions/client';
import { useEffect } from 'react';
import { $user, fetchMe, logout } from '../../stores/session';
import { toast } from '../../stores/toasts';

function UserIcon() {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="12" cy="8" r="5" />
      <path d="M20 21a8 8 0 0 0-16 0" />
    </svg>
  );
}

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
  const name = [user.given_name, user.family_name].filter(Boolean).join(' ') || user.email;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="icon-btn user-trigger" aria-label={`Mon compte (${name})`} title="Mon compte">
        <UserIcon />
        <span className="user-dot" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="dropdown" side="bottom" align="end" sideOffset={8} collisionPadding={8}>
          <DropdownMenu.Label className="dropdown-label">{name}</DropdownMenu.Label>
          <DropdownMenu.Item className="dropdown-item" asChild>
            <a href="/mon-compte">Mon compte</a>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="dropdown-separator" />
          <DropdownMenu.Item
            className="dropdown-item"
            onSelect={async () => {
              try {
                await logout();
              } catch {
                // Still signed in on the server: say so, and show the menu again.
                toast({ title: 'La déconnexion n’a pas abouti.', description: 'Vérifiez votre connexion et réessayez.', tone: 'error' });
                void fetchMe({ force: true });
                return;
              }
              // The Toaster persists across the navigation, so the message is read on the home page.
              toast({ title: 'Vous êtes déconnecté·e.', tone: 'success' });
              await navigate('/');
            }}
          >
            Se déconnecter
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
