/**
 * Video embeds for émissions. Nothing from the video host loads until the reader clicks:
 * the page shows our own thumbnail, and the click swaps in the player.
 */
export type Video =
  | { provider: 'youtube'; id: string }
  | { provider: 'peertube'; instance: string; id: string };

/** The player's address, with autoplay since the reader just asked to play. */
export function embedUrl(video: Video): string {
  if (video.provider === 'youtube') {
    // The no-cookie domain sets no tracking cookie before playback.
    return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(video.id)}?autoplay=1&rel=0`;
  }
  const base = new URL(video.instance);
  return new URL(`/videos/embed/${encodeURIComponent(video.id)}?autoplay=1&title=0&warningTitle=0`, base).href;
}

/** Where the video can be watched on its host, for readers without JavaScript. */
export function watchUrl(video: Video): string {
  if (video.provider === 'youtube') return `https://www.youtube.com/watch?v=${encodeURIComponent(video.id)}`;
  return new URL(`/w/${encodeURIComponent(video.id)}`, new URL(video.instance)).href;
}

export const providerLabel = (video: Video) => (video.provider === 'youtube' ? 'YouTube' : 'PeerTube');
