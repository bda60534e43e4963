/**
 * Keeps room for the player bar at the bottom of every page while it is shown (the body's
 * padding reads --player-offset). A constructed stylesheet is used rather than an attribute:
 * the router replaces <html>'s attributes on each navigation, and the Content-Security-Policy
 * refuses inline styles but not the CSSOM.
 */
import { PLAYER_HEIGHT } from '../../lib/player';

let sheet: CSSStyleSheet | null = null;

export function reservePlayerRoom(on: boolean): void {
  if (typeof document === 'undefined') return;
  if (!sheet) {
    if (!on) return;
    sheet = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  sheet.replaceSync(on ? `:root { --player-offset: ${PLAYER_HEIGHT}px; }` : '');
}
