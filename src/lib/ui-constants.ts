/** Interface constants of SPEC §9, shared by components, scripts, tests and the Astro config. */
export const BASELINE_THRESHOLD = 50;

/** Image widths (xs, sm, md, lg, xl) and pixel densities. */
export const IMAGE_WIDTHS = [320, 720, 960, 1024, 1140] as const;
export const IMAGE_DENSITIES = [1, 2] as const;
