/**
 * The `<video-chapters>` element of VideoChapters.astro: a chapter's click starts its facade's
 * player at its time. Part of the layout's script (src/lib/client/reading.ts).
 */
type Player = HTMLElement & { playAt?: (embed: string) => void };

export class VideoChapters extends HTMLElement {
  connectedCallback() {
    this.addEventListener('click', (event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-embed]');
      const player = document.getElementById(this.dataset.for ?? '') as Player | null;
      if (!link || !player?.playAt) return;
      event.preventDefault();
      player.playAt(link.dataset.embed!);
    });
  }
}
if (!customElements.get('video-chapters')) customElements.define('video-chapters', VideoChapters);
