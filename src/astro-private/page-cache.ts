/**
 * Not a patch: where Astro 7 keeps its copy of each page with a cacheKey
 * (`<cacheDir>/dist/<output file>`, astro/dist/core/build/incremental.js), and its skipping of a
 * page whose file is already in place (astro/dist/core/build/generate.js), both listed in
 * ./surface.ts. The build's staged pages (src/host/build-places.ts) and the search index's stamps
 * (src/integrations/pagefind.ts) rely on them for speed only: if either changes, builds copy or
 * render every page and the index reads every page, still right (src/host/build-places.test.ts
 * fails, naming which).
 *
 * Node runs it as is (type stripping): it imports only Node's modules.
 */
import { join } from 'node:path';

/** The folder of Astro's copies of its keyed pages, in its cache folder. */
export const pageCopies = (cacheDir: string): string => join(cacheDir, 'dist');
