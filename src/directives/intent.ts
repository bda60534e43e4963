/**
 * `client:intent="name"`: hydrates the island when something asks for `name` through
 * requestIntent() (src/lib/client/intents.ts), or at once if it already has. The player
 * (« Écouter », src/components/player/listen.ts) and the toasts (src/stores/toasts.ts) use it:
 * until then, neither React nor their code is downloaded.
 */
import type { ClientDirective } from 'astro';
import { INTENT_EVENT, peekIntent } from '../lib/client/intents';
import { hydrator } from './common';

const intentDirective: ClientDirective = (load, options) => {
  const name = String(options.value);
  const hydrate = hydrator(load);
  if (peekIntent(name)) {
    void hydrate();
    return;
  }
  const onIntent = (event: Event) => {
    if ((event as CustomEvent<string>).detail !== name) return;
    document.removeEventListener(INTENT_EVENT, onIntent);
    void hydrate();
  };
  document.addEventListener(INTENT_EVENT, onIntent);
};

export default intentDirective;
