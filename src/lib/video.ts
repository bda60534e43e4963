/**
 * Video embeds for émissions. Nothing from the video host loads until the reader clicks:
 * the page shows our own thumbnail, and the click swaps in the player. Chapters (« Au
 * sommaire ») follow the same rule: a chapter's click loads the player at that time.
 */
export type Video = { provider: 'youtube'; id: string } | { provider: 'peertube'; instance: string; id: string };

/** A chapter of an émission: where it starts, in seconds, and its title. */
export interface Chapter {
  start: number;
  title: string;
}

/** « 05:40 », « 1:02:10 »: how editors write a chapter's start. */
export const TIMECODE_PATTERN = /^(?:(\d{1,2}):)?([0-5]?\d):([0-5]\d)$/;

/** Seconds from a timecode (« 05:40 » → 340, « 1:02:10 » → 3730); undefined when malformed. */
export function parseTimecode(timecode: string): number | undefined {
  const match = TIMECODE_PATTERN.exec(timecode.trim());
  if (!match) return undefined;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** « 5m40s », « 1h2m10s »: the duration form PeerTube's own share links use. */
function peertubeTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

const wholeSeconds = (start: number) => Math.max(0, Math.floor(start));

/** The player's address, with autoplay since the reader just asked to play; from `start` seconds. */
export function embedUrl(video: Video, start = 0): string {
  const at = wholeSeconds(start);
  if (video.provider === 'youtube') {
    // The no-cookie domain sets no tracking cookie before playback. French captions shown by
    // default (cc_load_policy, cc_lang_pref) and the player's own words in French (hl).
    return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video.id)}?autoplay=1&rel=0&cc_load_policy=1&cc_lang_pref=fr&hl=fr${at ? `&start=${at}` : ''}`;
  }
  const base = new URL(video.instance);
  // PeerTube's embed selects a caption track by its language (`subtitle`).
  return new URL(`/videos/embed/${encodeURIComponent(video.id)}?autoplay=1&title=0&warningTitle=0&subtitle=fr${at ? `&start=${peertubeTime(at)}` : ''}`, base)
    .href;
}

/** Where the video can be watched on its host (from `start` seconds), for readers without JavaScript. */
export function watchUrl(video: Video, start = 0): string {
  const at = wholeSeconds(start);
  if (video.provider === 'youtube') return `https://www.youtube.com/watch?v=${encodeURIComponent(video.id)}${at ? `&t=${at}s` : ''}`;
  return new URL(`/w/${encodeURIComponent(video.id)}${at ? `?start=${peertubeTime(at)}` : ''}`, new URL(video.instance)).href;
}

export const providerLabel = (video: Video) => (video.provider === 'youtube' ? 'YouTube' : 'PeerTube');
