/**
 * The `<video-facade>` element of VideoFacade.astro: the click that loads the player, and
 * `playAt`, which VideoChapters' links call. Part of the layout's script (src/lib/client/reading.ts).
 */
export class VideoFacade extends HTMLElement {
  connectedCallback() {
    const link = this.querySelector('a');
    link?.addEventListener('click', (event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      this.playAt(this.dataset.embed ?? '', { scroll: false });
    });
  }

  /** Loads the player at `embed` (an address from embedUrl), or reloads it there if it is already loaded. */
  playAt(embed: string, { scroll = true } = {}) {
    let iframe = this.querySelector('iframe');
    if (iframe) {
      iframe.src = embed;
    } else {
      iframe = document.createElement('iframe');
      iframe.src = embed;
      iframe.title = `Vidéo : ${this.dataset.title ?? ''}`;
      iframe.allow = 'autoplay; encrypted-media; fullscreen; picture-in-picture';
      iframe.allowFullscreen = true;
      iframe.referrerPolicy = 'strict-origin-when-cross-origin';
      iframe.className = 'facade-frame';
      this.querySelector('a')?.replaceWith(iframe);
    }
    if (scroll) this.scrollIntoView({ block: 'start', behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    iframe.focus({ preventScroll: scroll });
  }
}
if (!customElements.get('video-facade')) customElements.define('video-facade', VideoFacade);
