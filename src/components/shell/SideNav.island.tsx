/**
 * The side navigation panel's behaviour (SPEC §2, §4). The panel is a native popover, so
 * before (or without) this island the header's menu button opens it, and the close mark, a
 * click outside and Escape close it. The island adds the rest:
 * - any click inside closes it too (links still navigate);
 * - focus moves into it when it opens, and back to the menu button when it closes;
 * - `$sideNavOpen` follows the popover, and the popover follows `$sideNavOpen`, so other
 *   islands can open or close the panel.
 * The links are server-rendered children (icons drawn by the stylesheet, src/components/ui/Icon.astro): the island owns
 * behaviour only.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { $sideNavOpen, setSideNavOpen } from '../../stores/navigation';

export interface Props {
  id: string;
  /** Id of the panel's title. */
  labelledBy: string;
  className?: string;
  children?: ReactNode;
}

const isShown = (panel: HTMLElement) => panel.matches(':popover-open');

/** The element that gets focus when the panel opens: the one marked autofocus, else the first link. */
function focusInside(panel: HTMLElement): void {
  if (panel.contains(document.activeElement)) return;
  panel.querySelector<HTMLElement>('[autofocus], a[href]')?.focus();
}

/**
 * Back to the menu button, unless the reader has already put focus somewhere else (a click
 * outside on a link or a field): the panel must not take it from there.
 */
function returnFocus(panel: HTMLElement): void {
  const active = document.activeElement;
  if (active && active !== document.body && !panel.contains(active)) return;
  const toggle = [...document.querySelectorAll<HTMLElement>(`[popovertarget="${panel.id}"]`)].find((el) => !panel.contains(el));
  toggle?.focus({ preventScroll: true });
}

export default function SideNav({ id, labelledBy, className = 'sidenav', children }: Props) {
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;

    // The state of the popover is the truth; the event only says that it may have changed
    // (browsers merge toggle events that follow each other quickly).
    const onToggle = () => {
      const shown = isShown(panel);
      setSideNavOpen(shown);
      if (shown) focusInside(panel);
      else returnFocus(panel);
    };
    const onClick = () => {
      if (isShown(panel)) panel.hidePopover();
    };
    panel.addEventListener('toggle', onToggle);
    panel.addEventListener('click', onClick);

    // The reader may have opened the panel before the island hydrated, or another island may
    // have asked for it meanwhile.
    if (isShown(panel)) onToggle();
    else if ($sideNavOpen.get()) panel.showPopover();
    panel.dataset.hydrated = '';

    const stop = $sideNavOpen.listen((open) => {
      if (open === isShown(panel)) return;
      if (open) panel.showPopover();
      else panel.hidePopover();
    });

    return () => {
      stop();
      panel.removeEventListener('toggle', onToggle);
      panel.removeEventListener('click', onClick);
      delete panel.dataset.hydrated;
      // This panel leaves the page (a navigation); the next page's starts hidden.
      setSideNavOpen(false);
    };
  }, []);

  return (
    <nav ref={ref} id={id} className={className} popover="auto" aria-labelledby={labelledBy}>
      {children}
    </nav>
  );
}
