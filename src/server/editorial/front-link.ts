/**
 * The app process's line to the front process that started it (src/host/front.ts): asking
 * it to make a build live. Only the front switches builds, so a process served otherwise (`astro
 * dev`, a test) cannot publish.
 */
import { randomUUID } from 'node:crypto';
import { ipcMessage, type AppToFront, type FrontToApp } from '../../host/protocol';

/** How long a switch may take: the new build's processes start (migrations, warm-up). */
const SWITCH_TIMEOUT_MS = 180_000;

export const hasFront = (): boolean => typeof process.send === 'function' && process.connected;

/** Asks the front to make a build live; resolves once new requests go to it. */
export function switchThroughFront(id: string): Promise<void> {
  const send = process.send?.bind(process);
  if (!send || !process.connected) return Promise.reject(new Error('ce serveur n\u2019a pas été lancé par npm start : il ne peut pas changer de version'));
  const requestId = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('la nouvelle version n\u2019a pas répondu à temps'));
    }, SWITCH_TIMEOUT_MS);
    const onMessage = (message: unknown) => {
      const m = ipcMessage<FrontToApp, 'switch-result'>(message, 'switch-result');
      if (!m || m.requestId !== requestId) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (m.ok) resolve();
      else reject(new Error(m.error ?? 'échec du changement de version'));
    };
    process.on('message', onMessage);
    const ask: AppToFront = { type: 'switch', id, requestId };
    send(ask);
  });
}
