/**
 * The sitemap lists public, indexable pages only. @astrojs/sitemap lists every prerendered page
 * and every on-demand route without parameters (account pages, confirmation steps…); this keeps
 * a page only when
 *  - it is outside the private areas of src/config/indexing.ts (robots.txt's list too),
 *  - and it was prerendered, without `noindex` in its HTML, or it is one of the few public
 *    on-demand pages named there.
 * So a new private page needs no change here: rendered on demand or marked noindex, it is out.
 */
import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { AstroIntegration } from 'astro';
import sitemap from '@astrojs/sitemap';
import { INDEXABLE_ON_DEMAND_PATHS, isPrivatePath } from '../config/indexing';

/** The robots meta is near the top of the head (src/layouts/BaseLayout.astro): no need to read further. */
const HEAD_BYTES = 16 * 1024;
const NOINDEX = /<meta\s+name="robots"\s+content="[^"]*noindex/i;

/**
 * Whether a page belongs in the sitemap. `builtHtml` gives the beginning of the page's
 * prerendered HTML, or null when the build wrote none (the page is rendered on demand).
 */
export function belongsInSitemap(pathname: string, builtHtml: (pathname: string) => string | null): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (isPrivatePath(path)) return false;
  if ((INDEXABLE_ON_DEMAND_PATHS as readonly string[]).includes(path)) return true;
  const html = builtHtml(path);
  return html !== null && !NOINDEX.test(html);
}

/** The beginning of a prerendered page's file in the client folder, in either build format. */
export function readBuiltHead(clientDir: string, pathname: string): string | null {
  const relative = decodeURIComponent(pathname).replace(/^\/+/, '');
  const candidates = relative === '' ? ['index.html'] : [join(relative, 'index.html'), `${relative}.html`];
  for (const candidate of candidates) {
    let fd: number | undefined;
    try {
      fd = openSync(join(clientDir, candidate), 'r');
      const buffer = Buffer.alloc(HEAD_BYTES);
      const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
      return buffer.subarray(0, read).toString('utf8');
    } catch {
      // Not this one.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return null;
}

/** The files @astrojs/sitemap writes (`sitemap-index.xml`, `sitemap-0.xml`…). */
const SITEMAP_FILE = /^sitemap-[\w-]+\.xml$/;

/** @astrojs/sitemap, with the filter above (it must come after the pages are written). */
export default function publicSitemap(): AstroIntegration[] {
  let clientDir: string | undefined;
  let started = 0;
  const scope: AstroIntegration = {
    name: 'contrechamp:sitemap-scope',
    hooks: {
      // Runs before the sitemap's own hook of the same name (integrations run in order).
      'astro:build:done': ({ dir }) => {
        clientDir = fileURLToPath(dir);
        started = performance.now();
        // The sitemap writes its files where they are: in a fast publication's folder
        // (src/host/publish-fast.ts) they are links to the live build's, which must never change.
        for (const file of readdirSync(clientDir)) if (SITEMAP_FILE.test(file)) rmSync(join(clientDir, file), { force: true });
      },
    },
  };
  // After it: how long the sitemap took (the publish benchmark reads it).
  const timing: AstroIntegration = {
    name: 'contrechamp:sitemap-timing',
    hooks: {
      'astro:build:done': ({ logger }) => {
        logger.info(`written in ${((performance.now() - started) / 1000).toFixed(2)} s`);
      },
    },
  };
  return [
    scope,
    sitemap({
      filter: (page) => {
        if (!clientDir) throw new Error('contrechamp:sitemap-scope did not run before the sitemap');
        const dir = clientDir;
        return belongsInSitemap(new URL(page).pathname, (path) => readBuiltHead(dir, path));
      },
      // Canonical URLs have no trailing slash (the home page aside), like every internal link.
      serialize: (item) => ({ ...item, url: item.url.replace(/(?<=[^/])\/$/, '') }),
    }),
    timing,
  ];
}
