/**
 * The signed-in user's dropdown (SPEC §2, §9): 'Mon compte' and 'Se déconnecter', below the icon,
 * offset 8 px, collision padding 8. Loaded only once a user is known, so anonymous readers
 * never download it.
 */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { navigate } from 'astro:transitions/client';
import { fetchMe, logout, type SessionUser } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { UserIcon } from '../ui/icons';

export default function UserDropdown({ user }: { user: SessionUser }) {
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
              toast({ title: 'Déconnexion effectuée.', tone: 'success' });
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
