/**
 * `client:menu`: hydrates an island that renders a native popover (the side navigation) when
 * the popover first opens. The popover opens, closes and takes focus without script; the
 * island adds the rest once loaded, and takes the panel open as it finds it.
 */
import type { ClientDirective } from 'astro';
import { hydrator } from './common';

const menuDirective: ClientDirective = (load, _options, el) => {
  const hydrate = hydrator(load);
  const panel = el.querySelector<HTMLElement>('[popover]');
  if (!panel) {
    void hydrate();
    return;
  }
  const onToggle = () => {
    if (!panel.matches(':popover-open')) return;
    panel.removeEventListener('toggle', onToggle);
    void hydrate();
  };
  panel.addEventListener('toggle', onToggle);
};

export default menuDirective;
