// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import icon from 'astro-icon';

/**
 * The public address of the site. Feeds, sitemaps, Open Graph tags and (later) e-mails
 * build their absolute links from it, never from a request's Host header.
 */
const site = process.env.SITE_URL ?? 'http://localhost:4321';

/** Image widths of SPEC §9 (xs 320, sm 720, md 960, lg 1024, xl 1140). */
const IMAGE_WIDTHS = [320, 720, 960, 1024, 1140];

export default defineConfig({
  site,
  // Prerendered by default; on-demand routes opt out with `export const prerender = false`.
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  trailingSlash: 'ignore',
  // The build benchmark builds synthetic corpora beside the real build, with cold caches.
  ...(process.env.ASTRO_OUT_DIR ? { outDir: process.env.ASTRO_OUT_DIR } : {}),
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  integrations: [
    react(),
    icon({
      // Only the icons in use are bundled (the server bundle would otherwise carry whole sets).
      include: {
        lucide: [
          'menu', 'search', 'user', 'mail', 'x', 'heart', 'rss', 'play', 'pause', 'chevron-left',
          'chevron-right', 'clock', 'calendar', 'headphones', 'video', 'arrow-right', 'external-link',
          'folder-open', 'tag', 'newspaper', 'zap', 'mic', 'users', 'gift', 'hand-coins', 'landmark',
        ],
        'simple-icons': ['youtube', 'peertube', 'x', 'mastodon', 'instagram', 'facebook', 'bluesky', 'applepodcasts', 'spotify'],
      },
    }),
    sitemap({
      filter: (page) => !/\/(404|500)\/?$/.test(page),
    }),
  ],
  image: {
    breakpoints: [...IMAGE_WIDTHS, ...IMAGE_WIDTHS.map((w) => w * 2)],
  },
  build: {
    // Keep small CSS in the page; a reader needs no extra round trip to read.
    inlineStylesheets: 'auto',
  },
  prefetch: false,
  devToolbar: { enabled: false },
  vite: {
    build: { assetsInlineLimit: 2048 },
  },
});
