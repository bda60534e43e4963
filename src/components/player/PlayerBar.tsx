/**
 * The bottom bar (SPEC §2, §3): show label, episode title, the audio player (autoplay on),
 * « Reprendre au début » when the episode resumed where the listener stopped, « Enchaîner »,
 * a speed control and 'Fermer le lecteur'. When the episode ends it offers the show's next one
 * (UpNext). Lock-screen controls come from the Media Session API, 'nexttrack' included.
 * Loaded only once an episode is chosen.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PlayerEpisode } from '../../lib/corpus';
import {
  NEXT_EPISODE_DELAY_SECONDS,
  PLAYBACK_RATES,
  POSITION_SAVE_INTERVAL_MS,
  SKIP_BACK_SECONDS,
  SKIP_FORWARD_SECONDS,
  episodeAudioUrl,
  formatRate,
  heardEpisodes,
  markHeard,
  nextEpisode,
  rememberAutoplay,
  rememberPosition,
  rememberRate,
  rememberedAutoplay,
  rememberedRate,
  resumePosition,
  showLabel,
  signedAudioExpired,
  spokenDuration,
} from '../../lib/player';
import { $fromStart, $paused, closePlayer, selectEpisode, setPaused } from '../../stores/player';
import { toast } from '../../stores/toasts';
import { Tooltip, TooltipProvider } from '../ui/Tooltip';
import AudioPlayer, { type AudioPlayerHandle } from './AudioPlayer';
import UpNext from './UpNext';
import { loadShowEpisodes } from './show-episodes';
import { keepFocusClearOf } from './focus-clear';
import { CloseIcon, ListPlayIcon, SkipBackIcon } from '../ui/icons';
import { fetchSignedAudio, type SignedAudio } from './signed-audio';

function setAction(action: MediaSessionAction, handler: MediaSessionActionHandler | null): void {
  try {
    navigator.mediaSession.setActionHandler(action, handler);
  } catch {
    // The browser does not know this action.
  }
}

function useMediaSession(episode: PlayerEpisode, player: React.RefObject<AudioPlayerHandle | null>, next: PlayerEpisode | undefined) {
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
    for (const [action, handler] of handlers) setAction(action, handler);
    return () => {
      session.metadata = null;
      for (const [action] of handlers) setAction(action, null);
    };
  }, [episode, player]);

  // The lock screen's 'next track' plays the episode the bar would offer at the end.
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('mediaSession' in navigator) || !next) return;
    setAction('nexttrack', () => selectEpisode(next));
    return () => setAction('nexttrack', null);
  }, [next]);
}

/** The audio's address: the public file, or for a supporters-only episode a signed one, renewed when it has expired. */
interface EpisodeAudio {
  url: string;
  /** Supporters-only: a fresh address when the current one has expired (or `force`); null if refused. */
  renew?: (force?: boolean) => Promise<string | null>;
}

/**
 * A supporters-only episode's bar shows once the server has given a signed address of its audio
 * (asked again at every start: the address is never kept across reloads); a refusal (signed out
 * since, support ended) is said in a toast and the bar closes.
 */
export default function PlayerBar({ episode }: { episode: PlayerEpisode }) {
  const [signed, setSigned] = useState<SignedAudio | null>(null);
  const signedRef = useRef<SignedAudio | null>(null);
  const pending = useRef<Promise<string | null> | null>(null);

  const ask = useCallback((): Promise<string | null> => {
    pending.current ??= fetchSignedAudio(episode).then((answer) => {
      pending.current = null;
      if (!answer.ok) {
        toast({ title: 'Cet épisode ne peut pas être écouté.', description: answer.message, tone: 'error' });
        closePlayer();
        return null;
      }
      signedRef.current = answer.audio;
      setSigned(answer.audio);
      return answer.audio.url;
    });
    return pending.current;
  }, [episode]);

  useEffect(() => {
    if (episode.supportersOnly) void ask();
  }, [episode, ask]);

  const renew = useCallback(
    async (force = false) => {
      const current = signedRef.current;
      if (!force && current && !signedAudioExpired(current.expires, Date.now())) return current.url;
      return ask();
    },
    [ask],
  );

  if (!episode.supportersOnly) return <PlayerBarWith episode={episode} audio={{ url: episodeAudioUrl(episode) }} />;
  if (!signed) return null;
  return <PlayerBarWith episode={episode} audio={{ url: signed.url, renew }} />;
}

function PlayerBarWith({ episode, audio }: { episode: PlayerEpisode; audio: EpisodeAudio }) {
  const paused = useStore($paused);
  const player = useRef<AudioPlayerHandle>(null);
  const bar = useRef<HTMLElement>(null);
  const [rate, setRate] = useState(rememberedRate);
  // Where the episode starts: where the listener stopped, unless asked from the start.
  const [startAt] = useState(() => ($fromStart.get() === episode.slug ? undefined : resumePosition(episode)));
  const [resumedFrom, setResumedFrom] = useState(startAt);
  const [autoplay, setAutoplay] = useState(rememberedAutoplay);
  const [showEpisodes, setShowEpisodes] = useState<PlayerEpisode[]>([]);
  const [ended, setEnded] = useState(false);
  const [countdown, setCountdown] = useState<number | null>(null);
  const [upNextDismissed, setUpNextDismissed] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const lastSaved = useRef(0);
  const position = useRef(0);

  // Recomputed at the end, when the episode has just been noted as heard.
  const next = useMemo(() => nextEpisode(showEpisodes, episode.slug, heardEpisodes()), [showEpisodes, episode.slug, ended]);

  useMediaSession(episode, player, next);

  // While the bar is shown, the focus never lands under it (WCAG 2.2, 2.4.11).
  useEffect(() => (bar.current ? keepFocusClearOf(bar.current) : undefined), []);

  useEffect(() => {
    if (startAt === undefined) return;
    player.current?.startFrom(startAt);
    setAnnouncement(`Reprise à ${spokenDuration(startAt)}, là où vous en étiez.`);
    // Once, on mount: `startAt` never changes.
  }, []);

  useEffect(() => {
    let current = true;
    void loadShowEpisodes(episode.podcast).then((list) => current && setShowEpisodes(list));
    return () => {
      current = false;
    };
  }, [episode.podcast]);

  const restart = () => {
    rememberPosition(episode.slug, null);
    position.current = 0;
    player.current?.startFrom(0);
    setResumedFrom(undefined);
    setPaused(false);
  };

  // « Reprendre au début » on a page, for the episode already in the bar (or just loaded).
  useEffect(
    () =>
      $fromStart.subscribe((slug) => {
        if (slug !== episode.slug) return;
        $fromStart.set(null);
        restart();
      }),
    [episode.slug],
  );

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

  // « Enchaîner »: the next episode after a countdown, second by second.
  useEffect(() => {
    if (countdown === null || !next) return;
    if (countdown <= 0) {
      selectEpisode(next);
      return;
    }
    const timer = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown, next]);

  const onProgress = (current: number, duration: number) => {
    position.current = current;
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
    if (value) {
      save();
    } else if (ended) {
      // Heard again from the start: the offer goes.
      setEnded(false);
      setCountdown(null);
    }
  };

  const onEnded = () => {
    position.current = 0;
    markHeard(episode.slug);
    setResumedFrom(undefined);
    setEnded(true);
    setUpNextDismissed(false);
    const after = nextEpisode(showEpisodes, episode.slug, heardEpisodes());
    if (after && autoplay) setCountdown(NEXT_EPISODE_DELAY_SECONDS);
    setAnnouncement(
      !after
        ? 'Épisode terminé.'
        : autoplay
          ? `Épisode terminé. L’épisode suivant, « ${after.title} », commence dans ${NEXT_EPISODE_DELAY_SECONDS} secondes.`
          : `Épisode terminé. À suivre : « ${after.title} ».`,
    );
  };

  const changeAutoplay = (on: boolean) => {
    setAutoplay(on);
    rememberAutoplay(on);
    if (!on) setCountdown(null);
  };

  // A supporters-only file refused because its address expired (a long pause): a fresh address,
  // then the episode goes on where it was. Once per address, so that a real failure is still said.
  const renewedFor = useRef<string | null>(null);
  const onError = () => {
    if (audio.renew && renewedFor.current !== audio.url) {
      renewedFor.current = audio.url;
      void audio.renew(true);
      return;
    }
    toast({ title: 'Cet épisode ne peut pas être lu pour le moment.', description: 'Vérifiez votre connexion ou réessayez plus tard.', tone: 'error' });
    setPaused(true);
  };

  // Resuming a supporters-only episode after its address expired: a fresh one first.
  useEffect(() => {
    if (!paused && audio.renew) void audio.renew();
  }, [paused]);

  // A new address of the same file (renewed): the element starts again where the listener was.
  const firstUrl = useRef(audio.url);
  useEffect(() => {
    if (audio.url === firstUrl.current) return;
    player.current?.startFrom(position.current);
    if (!$paused.get()) player.current?.element?.play().catch(() => setPaused(true));
  }, [audio.url]);

  const label = showLabel(episode);
  return (
    <TooltipProvider>
      <section ref={bar} className="player-bar" aria-label="Lecteur de podcast" data-player-bar>
        {ended && next && !upNextDismissed && (
          <UpNext
            next={next}
            countdown={countdown}
            autoplay={autoplay}
            onPlay={() => selectEpisode(next)}
            onCancel={() => setCountdown(null)}
            onAutoplayChange={changeAutoplay}
            onDismiss={() => {
              setCountdown(null);
              setUpNextDismissed(true);
            }}
          />
        )}
        <p className="sr-only" role="status">
          {announcement}
        </p>
        <div className="player-info">
          <p className="player-show">{label}</p>
          <p className="player-title">
            <a href={episode.url}>{episode.title}</a>
          </p>
        </div>
        <AudioPlayer
          ref={player}
          url={audio.url}
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
          {resumedFrom !== undefined && (
            <Tooltip label="Reprendre au début">
              <button type="button" className="player-pill player-restart" onClick={restart} aria-label="Reprendre au début">
                <SkipBackIcon size={16} />
                <span className="player-pill-text">Reprendre au début</span>
              </button>
            </Tooltip>
          )}
          <Tooltip label={autoplay ? 'Enchaîner les épisodes : activé' : 'Enchaîner les épisodes : désactivé'}>
            <button
              type="button"
              className="player-pill player-autoplay"
              aria-pressed={autoplay}
              onClick={() => changeAutoplay(!autoplay)}
              aria-label="Enchaîner les épisodes"
            >
              <ListPlayIcon size={16} />
              <span className="player-pill-text">Enchaîner</span>
            </button>
          </Tooltip>
          <label className="player-rate">
            <span className="sr-only">Vitesse de lecture</span>
            <select
              value={rate}
              onChange={(event) => {
                const chosen = Number(event.target.value);
                setRate(chosen);
                rememberRate(chosen);
              }}
              title="Vitesse de lecture"
            >
              {[...PLAYBACK_RATES]
                .sort((a, b) => a - b)
                .map((value) => (
                  <option key={value} value={value}>
                    {formatRate(value)}
                  </option>
                ))}
            </select>
          </label>
          <Tooltip label="Fermer le lecteur">
            <button
              type="button"
              className="player-btn player-close"
              onClick={() => {
                save();
                closePlayer();
              }}
              aria-label="Fermer le lecteur"
            >
              <CloseIcon />
            </button>
          </Tooltip>
        </div>
      </section>
    </TooltipProvider>
  );
}
