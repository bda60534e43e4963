/**
 * The icons Astro pages draw (Lucide outlines and Simple Icons logos). Each is a CSS mask over
 * `currentColor` in the site's one stylesheet (src/styles/icons.css, made from this list by
 * `npm run icons`), so a page carries a `<span>` per icon instead of its SVG: every page's HTML
 * fits the first TCP window (docs/performance.md, goal 2). React islands keep their own inline
 * outlines (src/components/ui/icons.tsx).
 */
export const ICON_SETS = {
  lucide: [
    'menu',
    'search',
    'mail',
    'x',
    'heart',
    'rss',
    'play',
    'chevron-left',
    'chevron-right',
    'clock',
    'headphones',
    'newspaper',
    'gift',
    'hand-coins',
    'landmark',
    'share-2',
    'link',
  ],
  'simple-icons': [
    'youtube',
    'peertube',
    'x',
    'mastodon',
    'instagram',
    'facebook',
    'bluesky',
    'applepodcasts',
    'spotify',
    'antennapod',
    'overcast',
    'pocketcasts',
  ],
} as const;

/** The class that draws an icon named `set:name`; throws on one the stylesheet does not hold (a build error). */
export function iconClass(name: string): string {
  const [set, icon] = name.split(':') as [string, string | undefined];
  const names: readonly string[] | undefined = ICON_SETS[set as keyof typeof ICON_SETS];
  if (!icon || !names?.includes(icon)) {
    throw new Error(`Unknown icon "${name}": add it to ICON_SETS (src/lib/icons.ts) and run npm run icons.`);
  }
  return `i-${set}-${icon}`;
}
