import { beforeEach, describe, expect, it } from 'vitest';
import { $sideNavOpen, closeSideNav, openSideNav, setSideNavOpen, toggleSideNav } from './navigation';

describe('navigation store', () => {
  beforeEach(() => setSideNavOpen(false));

  it('starts hidden', () => {
    expect($sideNavOpen.get()).toBe(false);
  });

  it('the menu toggles it: shown, then hidden again', () => {
    toggleSideNav();
    expect($sideNavOpen.get()).toBe(true);
    toggleSideNav();
    expect($sideNavOpen.get()).toBe(false);
  });

  it('opens and closes explicitly, and repeating either changes nothing', () => {
    openSideNav();
    openSideNav();
    expect($sideNavOpen.get()).toBe(true);
    closeSideNav();
    closeSideNav();
    expect($sideNavOpen.get()).toBe(false);
  });

  it('tells its listeners only when the state changes', () => {
    const seen: boolean[] = [];
    const stop = $sideNavOpen.listen((open) => seen.push(open));
    openSideNav();
    openSideNav();
    closeSideNav();
    toggleSideNav();
    stop();
    expect(seen).toEqual([true, false, true]);
  });
});
