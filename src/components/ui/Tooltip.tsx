/**
 * Tooltips for islands (SPEC §9: open after 700 ms; once one has closed, the next opens at once
 * for 300 ms), on Radix's tooltip:
 *
 *   <Tooltip label="Reculer de 15 secondes"><button aria-label="Reculer de 15 secondes">…</button></Tooltip>
 *
 * The child must be one element that takes a ref and event handlers (a DOM element or a
 * component that forwards them). A tooltip only adds a visible hint: an icon-only control still
 * needs its own accessible name (aria-label). An island with several tooltips can wrap them in
 * one <TooltipProvider> so that the skip delay applies between them; a lone <Tooltip> brings
 * its own provider.
 */
import * as TooltipPrimitive from '@radix-ui/react-tooltip';
import { createContext, useContext, type ReactElement, type ReactNode } from 'react';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../lib/ui-constants';

const InsideProvider = createContext(false);

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <InsideProvider.Provider value={true}>{children}</InsideProvider.Provider>
    </TooltipPrimitive.Provider>
  );
}

export interface TooltipProps {
  /** What the tooltip says (French). */
  label: ReactNode;
  /** The trigger: a single element. */
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
  align?: 'start' | 'center' | 'end';
}

export function Tooltip({ label, children, side = 'top', align = 'center' }: TooltipProps) {
  const inside = useContext(InsideProvider);
  const tooltip = (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content className="tooltip" side={side} align={align} sideOffset={6} collisionPadding={8}>
          {label}
          <TooltipPrimitive.Arrow className="tooltip-arrow" width={10} height={5} />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
  return inside ? tooltip : <TooltipProvider>{tooltip}</TooltipProvider>;
}

export default Tooltip;
