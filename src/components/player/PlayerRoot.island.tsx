/**
 * The player's place in the layout, kept across navigations by `transition:persist`. It weighs
 * almost nothing: the bar's code is fetched only when a listener picks an episode, and while
 * the bar is shown the page keeps 85 px at its bottom so the bar hides nothing.
 */
import { useStore } from '@nanostores/react';
import { Component, lazy, Suspense, useEffect, type ReactNode } from 'react';
import { $episode, closePlayer } from '../../stores/player';
import { toast } from '../../stores/toasts';
import { reservePlayerRoom } from './room';
import { withIslandStyles } from '../../lib/client/island-styles';
// The bar's stylesheet (with its tooltips') comes with its code: nothing of it in the page's.
import playerStyles from './player.css?url';

const PlayerBar = lazy(withIslandStyles(() => import('./PlayerBar'), playerStyles));

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
  if (!episode) return null;
  return (
    <PlayerFailure key={episode.slug}>
      <Suspense fallback={null}>
        <PlayerBar key={episode.slug} episode={episode} />
      </Suspense>
    </PlayerFailure>
  );
}
