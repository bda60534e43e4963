/**
 * The toasts themselves, on Radix (SPEC §9): each for 5 s, at most 5 at once, closed by its
 * close mark or a swipe to the right; F8 moves focus to them. Loaded with the first toast.
 */
import { useStore } from '@nanostores/react';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD } from '../../lib/ui-constants';
import { $toasts, dismissToast } from '../../stores/toasts';
import { CloseIcon } from './icons';

export default function ToastList() {
  const toasts = useStore($toasts);
  return (
    <ToastPrimitive.Provider label="Notification" duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD}>
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          className={`toast toast-${item.tone}`}
          // Errors interrupt a screen reader; the rest wait their turn.
          type={item.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
        >
          <ToastPrimitive.Title className="toast-title">{item.title}</ToastPrimitive.Title>
          {item.description && <ToastPrimitive.Description className="toast-description">{item.description}</ToastPrimitive.Description>}
          <ToastPrimitive.Close className="toast-close" aria-label="Fermer" title="Fermer">
            <CloseIcon size={18} />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" hotkey={[...TOAST_HOTKEY]} label="Notifications ({hotkey} pour y accéder)" />
    </ToastPrimitive.Provider>
  );
}
