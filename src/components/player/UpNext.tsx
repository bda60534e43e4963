/**
 * What the bar offers once an episode has ended: the next one of the show (lib/player.ts
 * nextEpisode), to play now, and « Enchaîner les épisodes », which when on plays it after a
 * short countdown that the listener may cancel. It sits just above the bar.
 */
import type { PlayerEpisode } from '../../lib/corpus';
import { CloseIcon, PlayIcon } from '../ui/icons';

export interface UpNextProps {
  next: PlayerEpisode;
  /** Seconds before the next episode plays on its own; null when it waits for the listener. */
  countdown: number | null;
  autoplay: boolean;
  onPlay: () => void;
  onCancel: () => void;
  onAutoplayChange: (on: boolean) => void;
  onDismiss: () => void;
}

export default function UpNext({ next, countdown, autoplay, onPlay, onCancel, onAutoplayChange, onDismiss }: UpNextProps) {
  return (
    <div className="player-next" role="group" aria-labelledby="player-next-heading" data-player-next>
      <div className="player-next-text">
        <p className="player-next-kicker" id="player-next-heading">
          {countdown === null ? 'Épisode terminé · À suivre' : `Épisode suivant dans ${countdown}\u202fs`}
        </p>
        <p className="player-next-title">{next.title}</p>
      </div>
      <div className="player-next-actions">
        <button type="button" className="player-next-play" onClick={onPlay} aria-label={`Écouter l’épisode suivant : « ${next.title} »`}>
          <PlayIcon size={16} />
          {countdown === null ? 'Écouter l’épisode suivant' : 'Écouter maintenant'}
        </button>
        {countdown !== null && (
          <button type="button" className="player-next-cancel" onClick={onCancel}>
            Annuler
          </button>
        )}
        <label className="player-next-autoplay">
          <input type="checkbox" checked={autoplay} onChange={(event) => onAutoplayChange(event.target.checked)} />
          Enchaîner les épisodes
        </label>
      </div>
      <button type="button" className="player-btn player-next-close" onClick={onDismiss} aria-label="Fermer la proposition d’épisode suivant">
        <CloseIcon size={18} />
      </button>
    </div>
  );
}
