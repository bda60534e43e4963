/**
 * Where the toasts of `$toasts` appear (SPEC §9). It lives in the layout with
 * `transition:persist`, so a toast raised just before a navigation stays on screen after it.
 * It loads with the first toast (`client:intent="toast"`), and Radix's code and the toasts'
 * stylesheet with it; nothing is rendered on the server:
 * Radix's viewport carries a style attribute, which the Content-Security-Policy would refuse
 * in server HTML. Toasts raised before the island hydrates wait in the store.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { $toasts } from '../../stores/toasts';
import { WithStylesheets } from './WithStylesheets';
// Brought by this island when a toast first shows, not linked from every page (WithStylesheets).
import toasterCss from './toaster.css?url';

const ToastList = lazy(() => import('./ToastList'));

export default function Toaster() {
  const toasts = useStore($toasts);
  // Once loaded it stays, so the last toast can animate out.
  // Set after the first render, which must match the server's empty one: the island hydrates
  // on the first toast, already in the store (React error 418 otherwise).
  const [needed, setNeeded] = useState(false);
  useEffect(() => {
    if (toasts.length > 0) setNeeded(true);
  }, [toasts.length]);
  if (!needed) return null;
  return (
    <WithStylesheets hrefs={[toasterCss]}>
      <Suspense fallback={null}>
        <ToastList />
      </Suspense>
    </WithStylesheets>
  );
}
