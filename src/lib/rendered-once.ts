/**
 * The layout's parts that are the same for every page and every reader (header, side navigation,
 * footer, the player's and the toasts' islands), rendered once per process for the pages rendered
 * on demand, then repeated as HTML (src/components/shell/RenderedOnce.astro). They were two thirds
 * of a member page's HTML and a third of its server time: six React islands and a few hundred
 * elements rendered again for every request (docs/performance.md, goal 4).
 *
 * One thing a repeated part must not repeat: the `prefix` Astro gives each React island, from a
 * counter of the page being rendered, which React puts in front of the ids `useId` makes. A part
 * rendered once keeps the prefixes it got then (`r0`, `r1`…), and the page's own islands start
 * again from `r0` on the next requests: two islands would make the same ids. So the part's
 * islands are given prefixes of their own, named after the part (`header0`, `header1`…). That is
 * sound only while the server HTML of those islands holds no id made from their old prefix (an
 * island rendering a `useId` at once): such a part is rendered for every request instead.
 */

/**
 * Whether a page repeats the layout's parts and comes out of its render typeset: a page rendered
 * on demand by a build. Prerendered pages are rendered once anyway (and typeset whole by the
 * middleware), and `astro dev` changes the parts under a running process.
 */
export const repeatsLayoutParts = (isPrerendered: boolean): boolean => !isPrerendered && !import.meta.env.DEV;

/** The HTML of each part already rendered, by part and version. A handful of them: no bound needed. */
const parts = new Map<string, string>();
/** The parts that cannot be repeated (see above), so that each is checked and logged once. */
const unrepeatable = new Set<string>();

const ISLAND_PREFIX = /(<astro-island\b[^>]*?\sprefix=")(r\d+)(")/g;
/**
 * The rule Astro writes inline before the first island it renders in a page
 * (`astro-island,astro-slot,astro-static-slot{display:contents}`). Rendered into a part, it would
 * sit wherever that part starts (after `</main>` for the footer's), where a `<style>` is not
 * allowed in `<body>`; and a repeated part would carry it into pages that have their own.
 * `global.css` holds the same rule for every page.
 */
const ISLAND_STYLE = /<style>astro-island,[^<]*<\/style>/g;

/**
 * The part's HTML with its islands' prefixes made its own and without Astro's inline island rule,
 * or null when one of its islands already wrote an id from its old prefix (React's ids read
 * `_<prefix>R_…`).
 */
export function ownPrefixes(part: string, html: string): string | null {
  const old: string[] = [];
  const renamed = html.replace(ISLAND_PREFIX, (_match, before: string, prefix: string, after: string) => {
    old.push(prefix);
    return `${before}${part}${old.length - 1}${after}`;
  });
  return old.some((prefix) => html.includes(`_${prefix}R_`)) ? null : renamed.replace(ISLAND_STYLE, '');
}

/**
 * The part called `part` (letters only: it names its islands' prefixes): rendered by `render` the
 * first time, then the same HTML. `version` says what else the part depends on (the year its
 * footer shows, for instance): a new version is rendered anew. `onUnrepeatable` hears, once, of a
 * part that must be rendered for every request.
 */
export async function renderedOnce(
  part: string,
  version: string,
  render: () => Promise<string>,
  onUnrepeatable: (part: string) => void = () => {},
): Promise<string> {
  if (!/^[a-z]+$/i.test(part)) throw new Error(`renderedOnce: a part's name is letters only, not « ${part} »`);
  const key = `${part}\n${version}`;
  const kept = parts.get(key);
  if (kept !== undefined) return kept;
  const html = await render();
  if (unrepeatable.has(key)) return html;
  const own = ownPrefixes(part, html);
  if (own === null) {
    unrepeatable.add(key);
    onUnrepeatable(part);
    return html;
  }
  parts.set(key, own);
  return own;
}

/** Forgets every part (tests). */
export function forgetRenderedParts(): void {
  parts.clear();
  unrepeatable.clear();
}
