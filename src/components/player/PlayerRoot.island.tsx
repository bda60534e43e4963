/**
 * The player's place in the layout, kept across navigations by `transition:persist`. It loads
 * with the first « Écouter » (`client:intent="player"`), the bar's code and stylesheets with it;
 * while
 * the bar is shown the page keeps 85 px at its bottom so the bar hides nothing.
 */
import { useStore } from '@nanostores/react';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { $episode, closePlayer } from '../../stores/player';
import { toast } from '../../stores/toasts';
import { reservePlayerRoom } from './room';
import { WithStylesheets } from '../ui/WithStylesheets';
// Brought by this island with the first episode, not linked from every page (WithStylesheets).
import playerCss from './player.css?url';
import tooltipCss from '../ui/tooltip.css?url';

const PlayerBar = lazy(() => import('./PlayerBar'));

/**
 * If the bar cannot load (its file is gone after a new deployment and the page has already
 * reloaded once for that: src/lib/client/navigation-feedback.ts), the reader is told and the
 * player closes, instead of an 'Écouter' that silently does nothing.
 */
class PlayerFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch() {
    toast({ title: 'Le lecteur n’a pas pu être chargé.', description: 'Rechargez la page pour écouter cet épisode.', tone: 'error' });
    closePlayer();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

export default function PlayerRoot() {
  const episode = useStore($episode);
  useEffect(() => reservePlayerRoom(episode !== null), [episode]);
  // Once needed, the stylesheets stay linked, so that the next episode's bar shows at once.
  // Set after the first render, which must match the server's empty one: the island hydrates on
  // the first « Écouter », with the episode already chosen (React error 418 otherwise).
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (episode) setNeeded(true);
  }, [episode]);
  if (!needed) return null;
  return (
    <WithStylesheets hrefs={[playerCss, tooltipCss]}>
      {episode && (
        <PlayerFailure key={episode.slug}>
          <Suspense fallback={null}>
            <PlayerBar key={episode.slug} episode={episode} />
          </Suspense>
        </PlayerFailure>
      )}
    </WithStylesheets>
  );
}
