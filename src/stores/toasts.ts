/**
 * Toasts (SPEC §9): short messages that come and go on their own. Any island (or bundled
 * script) calls `toast()`; the Toaster island, persisted across navigations, shows the list.
 * At most TOAST_LIMIT at once: a new one pushes the oldest out. Toasts are queued here even
 * before the Toaster has hydrated, and shown when it does.
 */
import { atom } from 'nanostores';
import { requestIntent } from '../lib/client/intents';
import { TOAST_LIMIT } from '../lib/ui-constants';

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastInput {
  title: string;
  description?: string | undefined;
  tone?: ToastTone | undefined;
}

export interface Toast {
  id: string;
  title: string;
  description?: string | undefined;
  tone: ToastTone;
}

export const $toasts = atom<readonly Toast[]>([]);

let counter = 0;

/** Shows a toast; returns its id (for `dismissToast`). */
export function toast({ title, description, tone = 'info' }: ToastInput): string {
  counter += 1;
  const id = `toast-${counter}`;
  const next: Toast = description === undefined ? { id, title, tone } : { id, title, description, tone };
  $toasts.set([...$toasts.get(), next].slice(-TOAST_LIMIT));
  // The Toaster island loads with the first toast (`client:intent="toast"` in the layout).
  if (typeof document !== 'undefined') requestIntent('toast');
  return id;
}

export function dismissToast(id: string): void {
  const list = $toasts.get();
  if (list.some((t) => t.id === id)) $toasts.set(list.filter((t) => t.id !== id));
}

export function clearToasts(): void {
  if ($toasts.get().length > 0) $toasts.set([]);
}
