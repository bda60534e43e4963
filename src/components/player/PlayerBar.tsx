/**
 * The bottom bar (SPEC §2, §3): show label, episode title, the audio player (autoplay on),
 * a speed control, an offer to resume where the listener stopped, and 'Fermer le lecteur'.
 * Lock-screen controls come from the Media Session API. Loaded only once an episode is chosen.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { PlayerEpisode } from '../../lib/corpus';
import {
  PLAYBACK_RATES, POSITION_SAVE_INTERVAL_MS, SKIP_BACK_SECONDS, SKIP_FORWARD_SECONDS, episodeAudioUrl, formatClock,
  formatRate, rememberPosition, rememberRate, rememberedPosition, rememberedRate, shouldOfferResume, showLabel, spokenDuration,
} from '../../lib/player';
import { $paused, closePlayer, setPaused } from '../../stores/player';
import { toast } from '../../stores/toasts';
import { Tooltip, TooltipProvider } from '../ui/Tooltip';
import AudioPlayer, { type AudioPlayerHandle } from './AudioPlayer';
import { CloseIcon } from '../ui/icons';
import './player.css';

function useMediaSession(episode: PlayerEpisode, player: React.RefObject<AudioPlayerHandle | null>) {
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({
      title: episode.title,
      artist: showLabel(episode),
      album: 'Contrechamp',
      ...(episode.artwork ? { artwork: [{ src: new URL(episode.artwork, location.href).href }] } : {}),
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => setPaused(false)],
      ['pause', () => setPaused(true)],
      ['stop', () => closePlayer()],
      ['seekbackward', (details) => player.current?.skip(-(details.seekOffset ?? SKIP_BACK_SECONDS))],
      ['seekforward', (details) => player.current?.skip(details.seekOffset ?? SKIP_FORWARD_SECONDS)],
      ['seekto', (details) => void (details.seekTime !== undefined && player.current?.seek(details.seekTime))],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // The browser does not know this action.
      }
    }
    return () => {
      session.metadata = null;
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // Idem.
        }
      }
    };
  }, [episode, player]);
}

export default function PlayerBar({ episode }: { episode: PlayerEpisode }) {
  const paused = useStore($paused);
  const player = useRef<AudioPlayerHandle>(null);
  const [rate, setRate] = useState(rememberedRate);
  const [resumeAt, setResumeAt] = useState(() => {
    const position = rememberedPosition(episode.slug);
    return shouldOfferResume(position, episode.duration) ? position : undefined;
  });
  const lastSaved = useRef(0);
  const position = useRef(0);

  useMediaSession(episode, player);

  // Where the listener is, written down every few seconds, on pause and when the bar goes.
  const save = () => {
    // The element knows best (a skip just before closing has not been ticked yet).
    const element = player.current?.element;
    if (element?.ended) return;
    // Once the bar unmounts the element is gone: the last known position serves.
    const current = element ? element.currentTime : position.current;
    position.current = current;
    if (current > 0) rememberPosition(episode.slug, current);
  };
  useEffect(() => {
    const onHide = () => save();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      save();
    };
    // Once per episode: `save` reads refs only.
  }, [episode.slug]);

  const onProgress = (current: number, duration: number) => {
    position.current = current;
    if (resumeAt !== undefined && current > resumeAt) setResumeAt(undefined);
    if (Date.now() - lastSaved.current >= POSITION_SAVE_INTERVAL_MS) {
      lastSaved.current = Date.now();
      save();
    }
    if ('mediaSession' in navigator && duration > 0) {
      try {
        navigator.mediaSession.setPositionState({ duration, position: Math.min(current, duration), playbackRate: rate });
      } catch {
        // Inconsistent values while the file loads.
      }
    }
  };

  const onPausedChange = (value: boolean) => {
    setPaused(value);
    if (value) save();
  };

  const onEnded = () => {
    position.current = 0;
    rememberPosition(episode.slug, null);
  };

  const onError = () => {
    toast({ title: 'Cet épisode ne peut pas être lu pour le moment.', description: 'Vérifiez votre connexion ou réessayez plus tard.', tone: 'error' });
    setPaused(true);
  };

  const label = showLabel(episode);
  return (
    <TooltipProvider>
      <section className="player-bar" aria-label="Lecteur de podcast" data-player-bar>
        <div className="player-info">
          <p className="player-show">{label}</p>
          <p className="player-title"><a href={episode.url}>{episode.title}</a></p>
        </div>
        <AudioPlayer
          ref={player}
          url={episodeAudioUrl(episode)}
          autoplay
          pause={paused}
          expectedDuration={episode.duration}
          playbackRate={rate}
          onPausedChange={onPausedChange}
          onProgress={onProgress}
          onEnded={onEnded}
          onError={onError}
        />
        <div className="player-extra">
          {resumeAt !== undefined && (
            <button
              type="button"
              className="player-resume"
              onClick={() => {
                if (player.current?.seek(resumeAt)) setResumeAt(undefined);
                setPaused(false);
              }}
              aria-label={`Reprendre là où vous vous étiez arrêté·e, à ${spokenDuration(resumeAt)}`}
            >
              Reprendre à {formatClock(resumeAt)}
            </button>
          )}
          <label className="player-rate">
            <span className="sr-only">Vitesse de lecture</span>
            <select
              value={rate}
              onChange={(event) => {
                const next = Number(event.target.value);
                setRate(next);
                rememberRate(next);
              }}
              title="Vitesse de lecture"
            >
              {[...PLAYBACK_RATES].sort((a, b) => a - b).map((value) => (
                <option key={value} value={value}>{formatRate(value)}</option>
              ))}
            </select>
          </label>
          <Tooltip label="Fermer le lecteur">
            <button type="button" className="player-btn player-close" onClick={() => { save(); closePlayer(); }} aria-label="Fermer le lecteur">
              <CloseIcon />
            </button>
          </Tooltip>
        </div>
      </section>
    </TooltipProvider>
  );
}
