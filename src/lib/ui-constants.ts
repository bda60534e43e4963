/** Interface constants of SPEC §9, shared by components, scripts, tests and the Astro config. */
export const BASELINE_THRESHOLD = 50;

/** Image widths (xs, sm, md, lg, xl) and pixel densities. */
export const IMAGE_WIDTHS = [320, 720, 960, 1024, 1140] as const;
export const IMAGE_DENSITIES = [1, 2] as const;

/** Toasts: how long each stays, how many show at once, swipe distance and the viewport's hotkey. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 5;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = ['F8'] as const;

/** Tooltips: delay before opening, and the window in which the next one opens at once. */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
