/**
 * « Copier l’adresse »: a button `data-copy="<id>"` copies the text of the element with that
 * id (the RSS address of a show), through the clipboard API; where there is none (an address
 * without https, an older browser) or it refuses, the text is selected and copied the old way,
 * or left selected for the reader to copy. The button stays hidden without scripts: the address
 * is then a plain, selectable line of text. What happened is said in `data-copy-status="<id>"`.
 */

function select(element: Element): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** 'copied', or 'selected' when only the selection could be made. */
async function copy(source: HTMLElement): Promise<'copied' | 'selected'> {
  const text = source.textContent?.trim() ?? '';
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return 'copied';
    }
  } catch {
    // Refused (permissions, no focus): the selection serves.
  }
  select(source);
  try {
    // The only way left where the clipboard API is missing; deprecated but still supported.
    if (document.execCommand('copy')) return 'copied';
  } catch {
    // Not allowed: the text stays selected.
  }
  return 'selected';
}

const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[data-copy]') : null;
  const id = button?.dataset.copy;
  const source = id ? document.getElementById(id) : null;
  if (!button || !source) return;
  const status = document.querySelector(`[data-copy-status="${CSS.escape(id!)}"]`);
  void copy(source).then((result) => {
    if (!status) return;
    status.textContent = result === 'copied' ? 'Adresse copiée.' : 'Adresse sélectionnée : copiez-la (Ctrl+C, ⌘C sur Mac, ou appui long).';
    clearTimeout(timers.get(status));
    timers.set(
      status,
      setTimeout(() => (status.textContent = ''), 6000),
    );
  });
});

document.addEventListener('astro:page-load', () => {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) button.hidden = false;
});
