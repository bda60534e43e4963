/**
 * Astro's island runtime (the `<astro-island>` element) and every client directive the site
 * uses, in the layout's bundled script instead of the inline scripts Astro writes into each page
 * before its first island (src/astro-private/island-runtime.ts takes those out). The page's HTML
 * is 3 KB (brotli) lighter, under TCP's first window; this code is fetched once and cached for
 * a year; and no page needs a script hash in its Content-Security-Policy, so a page reached
 * through the ClientRouter can never meet a directive the first page's policy did not allow.
 *
 * The directives are registered first (`islands-directives.ts`): the runtime reads `Astro[name]`
 * when an island connects and waits for `astro:${name}` when it is not there yet.
 */
import './islands-directives';
import 'astro/runtime/server/astro-island.js';
