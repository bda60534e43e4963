/**
 * The audio player (SPEC §3 props: url, progressBar, pause, autoplay): a native <audio>
 * element with play/pause, 'Reculer de 15 secondes', 'Avancer de 30 secondes', a progress bar
 * and the times. Progress refreshes every 250 ms while playing and stops on pause; at the end
 * the player pauses. Seeking lands only between 0 and the duration; a click on the progress
 * bar seeks only while playing (the keyboard may seek at any time). `startFrom` places the
 * episode where the listener stopped before a sound is heard, as soon as the file's length is known.
 */
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type Ref } from 'react';
import { SKIP_BACK_SECONDS, SKIP_FORWARD_SECONDS, clampSeek, formatClock, spokenDuration } from '../../lib/player';
import { createProgressTicker } from '../../stores/player';
import { Tooltip } from '../ui/Tooltip';
import { BackIcon, ForwardIcon, PauseIcon, PlayIcon } from '../ui/icons';

export interface AudioPlayerHandle {
  /** Moves to `seconds`, clamped to the episode; false when the duration is unknown. */
  seek(seconds: number): boolean;
  /** Moves to `seconds` now if the file's length is known, else as soon as it is. */
  startFrom(seconds: number): void;
  skip(delta: number): void;
  readonly element: HTMLAudioElement | null;
}

export interface AudioPlayerProps {
  url: string;
  progressBar?: boolean;
  pause?: boolean;
  autoplay?: boolean;
  /** The duration announced by the episode, until the file tells its own. */
  expectedDuration?: number;
  playbackRate?: number;
  onPausedChange?: (paused: boolean) => void;
  /** Every progress refresh, with the current time and the duration. */
  onProgress?: (current: number, duration: number) => void;
  onEnded?: () => void;
  /** The file cannot be played (missing, network down, unsupported). */
  onError?: () => void;
  ref?: Ref<AudioPlayerHandle>;
}

export default function AudioPlayer({
  url,
  progressBar = true,
  pause = false,
  autoplay = false,
  expectedDuration = 0,
  playbackRate = 1,
  onPausedChange,
  onProgress,
  onEnded,
  onError,
  ref,
}: AudioPlayerProps) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [current, setCurrent] = useState(0);
  const [duration, setDuration] = useState(expectedDuration);
  const [playing, setPlaying] = useState(false);
  const pendingStart = useRef<number | null>(null);
  const callbacks = useRef({ onPausedChange, onProgress, onEnded, onError });
  callbacks.current = { onPausedChange, onProgress, onEnded, onError };

  const knownDuration = () => {
    const own = audioRef.current?.duration;
    return own !== undefined && Number.isFinite(own) && own > 0 ? own : expectedDuration;
  };

  const ticker = useMemo(
    () =>
      createProgressTicker(() => {
        const audio = audioRef.current;
        if (!audio) return;
        const total = knownDuration();
        setCurrent(audio.currentTime);
        setDuration(total);
        callbacks.current.onProgress?.(audio.currentTime, total);
        // Made once: it reads the element and the callbacks through refs.
      }),
    [],
  );

  const seek = (seconds: number): boolean => {
    const audio = audioRef.current;
    const target = clampSeek(seconds, knownDuration());
    if (!audio || target === null) return false;
    audio.currentTime = target;
    setCurrent(target);
    return true;
  };

  useImperativeHandle(ref, () => ({
    seek,
    startFrom(seconds: number) {
      const audio = audioRef.current;
      if (audio && audio.readyState >= HTMLMediaElement.HAVE_METADATA && seek(seconds)) pendingStart.current = null;
      else pendingStart.current = seconds;
    },
    skip: (delta: number) => void seek((audioRef.current?.currentTime ?? 0) + delta),
    get element() {
      return audioRef.current;
    },
  }));

  // The pause flag drives the element; the element's own events (keyboard media keys,
  // lock screen, end of file) report back.
  const mounted = useRef(false);
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const first = !mounted.current;
    mounted.current = true;
    if (pause) {
      audio.pause();
    } else if (!first || autoplay) {
      audio.play().catch(() => callbacks.current.onPausedChange?.(true));
    } else {
      callbacks.current.onPausedChange?.(true);
    }
  }, [pause, autoplay]);

  useEffect(() => {
    if (audioRef.current) audioRef.current.playbackRate = playbackRate;
  }, [playbackRate]);

  useEffect(() => () => ticker.stop(), [ticker]);

  // A failed load may happen before React has committed the element (its event then reaches
  // no handler): listen natively, and look at the element's error once mounted.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const fail = () => callbacks.current.onError?.();
    if (audio.error) fail();
    audio.addEventListener('error', fail);
    return () => audio.removeEventListener('error', fail);
  }, [url]);

  const onPlay = () => {
    setPlaying(true);
    ticker.start();
    callbacks.current.onPausedChange?.(false);
  };
  const onPause = () => {
    setPlaying(false);
    ticker.stop();
    callbacks.current.onPausedChange?.(true);
  };
  const onEndedEvent = () => {
    audioRef.current?.pause();
    onPause();
    callbacks.current.onEnded?.();
  };
  const onMetadata = () => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.playbackRate = playbackRate;
    setDuration(knownDuration());
    if (pendingStart.current !== null && seek(pendingStart.current)) pendingStart.current = null;
    setCurrent(audio.currentTime);
  };

  const onBarClick = (event: MouseEvent<HTMLDivElement>) => {
    const audio = audioRef.current;
    if (!audio || audio.paused) return;
    const rect = event.currentTarget.getBoundingClientRect();
    if (rect.width <= 0) return;
    seek(((event.clientX - rect.left) / rect.width) * knownDuration());
  };

  const onBarKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const audio = audioRef.current;
    if (!audio) return;
    const moves: Record<string, number> = {
      ArrowLeft: audio.currentTime - 5,
      ArrowDown: audio.currentTime - 5,
      ArrowRight: audio.currentTime + 5,
      ArrowUp: audio.currentTime + 5,
      PageDown: audio.currentTime - SKIP_BACK_SECONDS,
      PageUp: audio.currentTime + SKIP_FORWARD_SECONDS,
      Home: 0,
      End: knownDuration(),
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    seek(target);
  };

  const total = duration || expectedDuration;
  const fraction = total > 0 ? Math.min(current / total, 1) : 0;
  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) audio.play().catch(() => callbacks.current.onPausedChange?.(true));
    else audio.pause();
  };

  return (
    <div className="audio-player">
      <audio
        ref={audioRef}
        src={url}
        preload="metadata"
        onPlay={onPlay}
        onPause={onPause}
        onEnded={onEndedEvent}
        onLoadedMetadata={onMetadata}
        onDurationChange={onMetadata}
        onSeeked={() => setCurrent(audioRef.current?.currentTime ?? 0)}
      />
      <div className="audio-controls">
        <Tooltip label="Reculer de 15 secondes">
          <button
            type="button"
            className="player-btn"
            onClick={() => void seek((audioRef.current?.currentTime ?? 0) - SKIP_BACK_SECONDS)}
            aria-label="Reculer de 15 secondes"
          >
            <BackIcon />
            <span className="skip-amount" aria-hidden="true">
              15
            </span>
          </button>
        </Tooltip>
        <Tooltip label={playing ? 'Mettre en pause' : 'Lire'}>
          <button type="button" className="player-btn player-main" onClick={toggle} aria-label={playing ? 'Mettre en pause' : 'Lire'}>
            {playing ? <PauseIcon /> : <PlayIcon />}
          </button>
        </Tooltip>
        <Tooltip label="Avancer de 30 secondes">
          <button
            type="button"
            className="player-btn"
            onClick={() => void seek((audioRef.current?.currentTime ?? 0) + SKIP_FORWARD_SECONDS)}
            aria-label="Avancer de 30 secondes"
          >
            <ForwardIcon />
            <span className="skip-amount" aria-hidden="true">
              30
            </span>
          </button>
        </Tooltip>
      </div>
      {progressBar && (
        <div className="audio-progress">
          <span className="audio-time" data-player-current>
            {formatClock(current)}
          </span>
          <div
            className={`progress-track${playing ? ' seekable' : ''}`}
            role="slider"
            tabIndex={0}
            aria-label="Position de lecture"
            aria-valuemin={0}
            aria-valuemax={Math.round(total)}
            aria-valuenow={Math.round(current)}
            aria-valuetext={`${spokenDuration(current)} sur ${spokenDuration(total)}`}
            onClick={onBarClick}
            onKeyDown={onBarKey}
            data-player-progress
          >
            <div className="progress-fill" style={{ transform: `scaleX(${fraction})` }} />
          </div>
          <span className="audio-time" data-player-duration>
            {formatClock(total)}
          </span>
        </div>
      )}
    </div>
  );
}
