/**
 * The client directives. The site's own (src/directives/) are registered with Astro by
 * src/integrations/directives.ts; the layout's script registers them for the browser, with
 * Astro's `client:load` (src/lib/client/islands-directives.ts), and the server render fails on a
 * directive not in ISLAND_DIRECTIVE_NAMES (src/astro-private/island-runtime.ts).
 */
export const SITE_DIRECTIVE_NAMES = ['search', 'menu', 'focus', 'session', 'intent'] as const;
export const ISLAND_DIRECTIVE_NAMES = ['load', ...SITE_DIRECTIVE_NAMES] as const;
