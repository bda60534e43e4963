/**
 * The `<share-block>` element of ShareBlock.astro: the browser's share sheet where there is one,
 * else the links; the copy button, which needs JavaScript, appears with it. Part of the layout's
 * script (src/lib/client/reading.ts).
 */
export class ShareBlock extends HTMLElement {
  connectedCallback() {
    if (this.dataset.ready) return;
    this.dataset.ready = 'true';
    const url = this.dataset.url ?? location.href;
    const title = this.dataset.title ?? document.title;
    const native = this.querySelector<HTMLButtonElement>('[data-share-native]')!;
    const fallback = this.querySelector<HTMLElement>('[data-share-fallback]')!;
    const status = this.querySelector<HTMLElement>('[data-share-status]')!;

    // The browser's own share sheet, where there is one: it knows the reader's apps.
    if (typeof navigator.share === 'function') {
      native.hidden = false;
      fallback.hidden = true;
      native.addEventListener('click', async () => {
        try {
          await navigator.share({ title, url });
        } catch (error) {
          // The reader closed the sheet: nothing to say. Anything else: offer the links.
          if ((error as DOMException).name === 'AbortError') return;
          native.hidden = true;
          fallback.hidden = false;
        }
      });
    }

    // Copying needs JavaScript: its button appears with it.
    for (const hidden of this.querySelectorAll<HTMLElement>('[data-share-copy], [data-share-copy-item]')) hidden.hidden = false;
    this.querySelector('[data-share-copy]')?.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(url);
        status.textContent = 'Lien copié dans le presse-papiers.';
      } catch {
        // No clipboard (an insecure context, a refusal): the address, selected, to copy by hand.
        const input = document.createElement('input');
        input.className = 'input share-address';
        input.readOnly = true;
        input.value = url;
        input.setAttribute('aria-label', 'Adresse de la page');
        status.replaceChildren('Copiez ce lien : ', input);
        input.select();
      }
    });
  }
}
if (!customElements.get('share-block')) customElements.define('share-block', ShareBlock);
