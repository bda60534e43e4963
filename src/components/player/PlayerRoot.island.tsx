/**
 * The player's place in the layout, kept across navigations by `transition:persist`. It weighs
 * almost nothing: the bar's code is fetched only when a listener picks an episode, and while
 * the bar is shown the page keeps 85 px at its bottom so the bar hides nothing.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { $episode } from '../../stores/player';
import { reservePlayerRoom } from './room';

const PlayerBar = lazy(() => import('./PlayerBar'));

export default function PlayerRoot() {
  const episode = useStore($episode);
  useEffect(() => reservePlayerRoom(episode !== null), [episode]);
  if (!episode) return null;
  return (
    <Suspense fallback={null}>
      <PlayerBar key={episode.slug} episode={episode} />
    </Suspense>
  );
}
