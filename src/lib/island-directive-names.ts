/**
 * The client directives the layout's script registers (src/lib/client/islands-directives.ts):
 * Astro's `client:load` and the site's own (src/integrations/directives.ts). Shared with the
 * server render, which fails on a directive not in this list.
 */
export const ISLAND_DIRECTIVE_NAMES = ['load', 'search', 'menu', 'focus', 'member', 'intent'] as const;
