// @ts-check
import { defineConfig, envField } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE_DENSITIES, IMAGE_WIDTHS } from './src/lib/ui-constants.ts';
import { FINGERPRINT_FILE, buildFingerprint, codeVersion } from './src/host/build-fingerprint.ts';
import { stagedPages } from './src/host/build-places.ts';
import { STAGED_PAGES_ENV } from './src/host/protocol.ts';
import pagefindIndex from './src/integrations/pagefind.ts';
import publicSitemap from './src/integrations/sitemap.ts';
import clientDirectives from './src/integrations/directives.ts';
import precompress from './src/integrations/precompress.mjs';
// Every reach into Astro's private code: one file each, with its figure (src/astro-private/README.md).
import { cspDigestCache } from './src/astro-private/csp-digests.ts';
import { reactIslandRenderer } from './src/astro-private/island-renderer.ts';
import { externalIslandRuntime } from './src/astro-private/island-runtime.ts';
import { exposeContentStore } from './src/astro-private/content-store.ts';
import { pageModulesOnce } from './src/astro-private/page-modules.ts';
import { satteri } from '@astrojs/markdown-satteri';
import { isCSSRequest } from 'vite';
import { frenchTypographyPlugin } from './src/lib/typography.ts';

/**
 * Records what the build was made from, so that `npm start` knows when to rebuild.
 * @type {import('astro').AstroIntegration}
 */
const fingerprint = {
  name: 'contrechamp:build-fingerprint',
  hooks: {
    'astro:build:done': ({ dir }) => {
      const root = fileURLToPath(new URL('.', import.meta.url));
      const file = fileURLToPath(new URL(`../${FINGERPRINT_FILE}`, dir));
      // A new file: in a fast publication's folder, it is a link to the live build's.
      rmSync(file, { force: true });
      writeFileSync(file, buildFingerprint(root));
    },
  },
};

/**
 * What pages rendered on demand need from the content (the 404's « À lire en ce moment », the
 * text of /soutenir/{source}) is computed at build time (src/pages/build-data.json.ts) and read
 * by the server from its own folder (src/lib/build-data.ts): moved out of the client folder, so
 * that it is neither public nor seen by the search index and the sitemap. So is the catalogue of
 * stories for newsletter issues (src/pages/newsletter-stories.json.ts). A fast publication runs
 * this hook again (src/host/publish-fast.ts); the builder keeps these files a build's own
 * when it links the live server's (SERVER_DATA_FILES in src/host/builder.ts).
 */
const SERVER_DATA_FILES = ['build-data.json', 'newsletter-stories.json'];
let serverDir = '';
/** @type {import('astro').AstroIntegration} */
const buildDataFile = {
  name: 'contrechamp:build-data',
  hooks: {
    'astro:config:done': ({ config }) => {
      serverDir = fileURLToPath(config.build.server);
    },
    'astro:build:done': ({ dir }) => {
      const server = serverDir;
      mkdirSync(server, { recursive: true });
      for (const file of SERVER_DATA_FILES) renameSync(fileURLToPath(new URL(file, dir)), join(server, file));
    },
  },
};

/**
 * The public address of the site. Feeds, sitemaps, Open Graph tags and (later) e-mails
 * build their absolute links from it, never from a request's Host header.
 */
const site = process.env.SITE_URL ?? `http://localhost:${process.env.PORT ?? 4321}`;

/**
 * Names the code this build runs. Pages carry it, so that a reader's browser still running an
 * older build's scripts loads the next page in full instead of mixing two builds' scripts. It is
 * the code's hash, not the build's id (BUILD_ID): a build that publishes content only serves the
 * same scripts, and leaves every page it did not change identical, which incremental builds need
 * (a value in `vite.define` that changed at every build would also void their cache).
 */
/**
 * One stylesheet per page (docs/performance.md, goal 2). Vite splits CSS by chunk, so a page
 * used to block on six files (the layout's, each component's). Server-side, every stylesheet
 * module goes into one chunk: the prerendered (public) pages all share one file, cached for the
 * whole visit, and the pages rendered on demand another. Scoped component styles stay scoped,
 * so a page's rules never reach another page. Stylesheets of islands not on screen (the player
 * bar, the toasts, the search dialog) are not in it: they are loaded with the island's code
 * (src/lib/client/island-styles.ts).
 * @type {import('vite').Plugin}
 */
const oneStylesheet = {
  name: 'contrechamp:one-stylesheet',
  configEnvironment(name) {
    if (name !== 'prerender' && name !== 'ssr') return;
    return {
      build: {
        rollupOptions: {
          output: {
            manualChunks: (id) => (isCSSRequest(id) ? 'site' : undefined),
          },
        },
      },
    };
  },
};

const buildId = process.env.CODE_VERSION ?? codeVersion(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  site,
  // Prerendered by default; on-demand routes opt out with `export const prerender = false`.
  output: 'static',
  // Pages rendered on demand are rendered whole, not streamed: every HTML answer is read whole
  // anyway to be typeset (src/middleware.ts), and streaming cost a signed-in page a tenth of its
  // time (docs/performance.md, goal 4). The adapter's middleware mode (its public API): the app
  // processes serve its handler on their own sockets, and the build's files themselves
  // (src/host/app.ts), so that nothing looks for a file before a page the front found none for.
  adapter: node({ mode: 'middleware', experimentalDisableStreaming: true }),
  trailingSlash: 'ignore',
  // Only the settings that pages read through `astro:env`: the audience measurement, fixed at
  // build time. Server settings (APP_MODE, DATA_DIR, DATABASE_URL, SMTP_URL, APP_SECRET…) are
  // read and validated by src/server/core/config.ts, their one source of truth, which the
  // command-line scripts running outside Astro share.
  env: {
    schema: {
      // Off unless a domain is given.
      PUBLIC_PLAUSIBLE_DOMAIN: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_PLAUSIBLE_HOST: envField.string({ context: 'client', access: 'public', optional: true, url: true }),
      PUBLIC_PLAUSIBLE_IGNORED_HOSTS: envField.string({ context: 'client', access: 'public', default: 'localhost' }),
    },
  },
  // The build benchmark builds synthetic corpora beside the real build, with cold caches.
  ...(process.env.ASTRO_OUT_DIR ? { outDir: process.env.ASTRO_OUT_DIR } : {}),
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  integrations: [
    // First: the search index and the sitemap must see the pages kept, not placeholders nor pages no longer built.
    stagedPages(),
    buildDataFile,
    // The search index, built from the prerendered pages; before the fingerprint, so that a
    // failed index leaves no build that `npm start` would take as complete.
    pagefindIndex(),
    // Islands' server render as a string: the layout's islands are small and never suspend, and
    // React's streaming renderer cost several times more per island (docs/performance.md, goal 4).
    react({ experimentalDisableStreaming: true }),
    // Islands load on the interaction that needs them (src/directives/).
    clientDirectives(),
    // Public, indexable pages only: no private area, nothing rendered on demand or marked noindex.
    publicSitemap(),
    // `.br` and `.gz` beside every text file, once the search index and the sitemap are written.
    precompress(),
    // Last: a build whose hooks failed is never taken as complete.
    fingerprint,
  ],
  image: {
    // Every width of SPEC §9 at every density.
    breakpoints: IMAGE_DENSITIES.flatMap((d) => IMAGE_WIDTHS.map((w) => w * d)).sort((a, b) => a - b),
  },
  build: {
    // Stylesheets are files, never inline <style>: with <ClientRouter />, the first page's
    // Content-Security-Policy holds for the whole visit and would refuse another page's hashes.
    inlineStylesheets: 'never',
  },
  prefetch: false,
  // No code in the corpus; Shiki's inline styles would need an unsafe CSP.
  // Astro's own Markdown processor, with French no-break spaces in every body (src/lib/typography.ts).
  markdown: { syntaxHighlight: false, processor: satteri({ hastPlugins: [frenchTypographyPlugin] }) },
  security: {
    // Astro's check covers form content types only. Every state-changing endpoint runs a
    // stricter one (src/server/http/request-guards.ts: origin for every content type, JSON-only bodies), and
    // the RFC 8058 one-click unsubscribe must accept a mail provider's form post.
    checkOrigin: false,
    // Every page carries a Content-Security-Policy: scripts and styles by hash (Astro computes
    // them), video players only from their hosts, and only after the reader's click.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "media-src 'self'",
        // The audience measurement's host, when one is configured.
        `connect-src 'self'${process.env.PUBLIC_PLAUSIBLE_DOMAIN ? ` ${new URL(process.env.PUBLIC_PLAUSIBLE_HOST ?? 'https://plausible.io').origin}` : ''}`,
        'frame-src https://www.youtube-nocookie.com https://videos.contrechamp.media',
        "object-src 'none'",
        "base-uri 'self'",
        // Forms post to this site only; the payment step and « changer de carte » answer a 303
        // to Stripe's checkout or customer portal when Stripe is configured, and browsers apply
        // form-action to the redirect too.
        "form-action 'self' https://checkout.stripe.com https://billing.stripe.com",
      ],
      // Search (Pagefind) runs WebAssembly, which needs 'wasm-unsafe-eval' (not 'unsafe-eval').
      scriptDirective: { resources: ["'self'", "'wasm-unsafe-eval'"] },
    },
  },
  devToolbar: { enabled: false },
  experimental: {
    // Pages whose getStaticPaths() cacheKey and code are unchanged since the last build are
    // copied from the cache (cacheDir) instead of rendered again: src/lib/page-keys.ts.
    incrementalBuild: true,
  },
  vite: {
    plugins: [oneStylesheet, cspDigestCache(), reactIslandRenderer(), externalIslandRuntime(), pageModulesOnce(), exposeContentStore()],
    define: { __BUILD_ID__: JSON.stringify(buildId) },
    build: {
      // src/host/build.ts stages the cached pages in the output folder before the build.
      ...(process.env[STAGED_PAGES_ENV] ? { emptyOutDir: false } : {}),
      // Scripts are never inlined: with <ClientRouter />, the first page's Content-Security-Policy
      // stays in force for the whole visit, so a later page's inline script would be refused,
      // while 'self' allows every bundled file. Other assets under 2 KB are inlined.
      assetsInlineLimit: (file, content) => (/\.m?js$/.test(file) ? false : content.length < 2048),
    },
  },
});
