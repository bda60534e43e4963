/**
 * The side navigation panel (SPEC §4): hidden or shown. The header's menu button toggles it
 * and any click inside hides it. The panel itself is a native popover (it works before any
 * script); the SideNav island keeps this atom and the popover in step both ways, so any island
 * can open or close the panel, and any island can know whether it is open.
 */
import { atom } from 'nanostores';

export const $sideNavOpen = atom(false);

export function setSideNavOpen(open: boolean): void {
  $sideNavOpen.set(open);
}

export function openSideNav(): void {
  setSideNavOpen(true);
}

export function closeSideNav(): void {
  setSideNavOpen(false);
}

export function toggleSideNav(): void {
  setSideNavOpen(!$sideNavOpen.get());
}
