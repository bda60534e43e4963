/**
 * French typography, as the French press prints it (the Imprimerie nationale's rules): the
 * spaces that must never break a line, so that no line ends on « nor starts with », :, ;, !,
 * ?, % or a unit, and no number is cut from its unit or from its other digits.
 *
 * Applied once, when pages are rendered (at build time for every public page), to whatever a
 * reader sees: content (titles, leads, Markdown bodies: see `frenchTypographyPlugin`), the
 * interface's own strings (every HTML page goes through `frenchHtml`, src/middleware.ts),
 * feeds, mails and PDFs. Pure and safe on both sides (React islands use `frenchText`).
 *
 * Every rule only changes or inserts spaces, never another character, and is idempotent: text
 * that is already right, or typeset twice, comes out the same. URLs, e-mail addresses, code
 * and HTML attributes are never touched.
 *
 * Not a library: typograf (7.8) removes the spaces French needs ("quoi?", "45%"), and
 * richtypo's French rules (8.0) space "https://" and "10:30" and put a narrow space before
 * the colon. These rules are short enough to own, and tested one by one (typography.test.ts).
 */

/** No-break space (U+00A0): before « : », between a number and € or a word. */
export const NBSP = '\u00a0';
/** Narrow no-break space (U+202F): inside « », before ; ! ? %, between a number and its unit, between digit groups. */
export const NNBSP = '\u202f';

/** A space a rule may replace: in HTML and Markdown a line break inside a paragraph is a space too. */
const SP = '[ \\t\\n\\u00a0\\u202f]';

const MONTHS = 'janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre';

/**
 * Units written after a number (SI and the usual French abbreviations). Single letters that
 * are also words or initials (a, A, L, M, o) are left out: "3 M" is more likely "M. Dupont".
 */
const UNITS = [
  'km/h',
  'km²',
  'km',
  'm²',
  'm³',
  'm/s',
  'cm',
  'mm',
  'µm',
  'nm',
  'm',
  'ha',
  'kg',
  'mg',
  'g',
  'kt',
  'Mt',
  'Gt',
  't',
  'hl',
  'cl',
  'ml',
  'l',
  'kWh',
  'MWh',
  'GWh',
  'TWh',
  'Wh',
  'kWc',
  'MWc',
  'kW',
  'MW',
  'GW',
  'TW',
  'W',
  'kV',
  'V',
  '°C',
  '°F',
  'dB',
  'ppm',
  'Hz',
  'kHz',
  'MHz',
  'GHz',
  'hPa',
  'kcal',
  'cal',
  'ko',
  'Mo',
  'Go',
  'To',
  'min',
  'ms',
  'h',
  's',
];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const UNIT_PATTERN = [...UNITS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|');

/** Words that count what a number counts: "12 millions", "40 euros". */
const COUNTED_WORDS = 'millions?|milliards?|euros?';

/** What comes after a mark that closes a clause: a space, the end, closing or other punctuation. */
const AFTER_MARK = '(?=$|[\\s»)\\]"\'’.,…<:;!?])';

/**
 * A space before a mark: kept and made no-break when there is one, inserted when the mark
 * follows a word directly. At the start of a string (text after an inline element, as in
 * "<strong>Attention</strong> :") an existing space is made no-break, and none is inserted.
 */
function spaceBefore(space: string) {
  return (match: string, before: string, spaces: string, mark: string) => (before === '' && spaces === '' ? match : `${before}${space}${mark}`);
}

interface Rule {
  /** What the rule is about, for tests and for whoever reads this list. */
  name: string;
  apply: (text: string) => string;
}

/** The rules, in the order they run (those that bind numbers first). */
export const RULES: readonly Rule[] = [
  {
    name: 'groups of digits: 10 000, 1 234 567',
    apply: (t) => t.replace(/(?<![\p{L}\p{N}.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?!\p{N})/gu, (n) => n.replace(/[ \u00a0]/g, NNBSP)),
  },
  {
    name: 'a number and its unit: 12 km, 6 h 00, 3 min',
    apply: (t) =>
      t
        .replace(new RegExp(`(\\d)${SP}+(${UNIT_PATTERN})(?![\\p{L}\\p{N}'’])`, 'gu'), `$1${NNBSP}$2`)
        // "6 h 00": the minutes stay with the hour.
        .replace(new RegExp(`(\\d\\u202fh)${SP}+(\\d{2})(?!\\d)`, 'gu'), `$1${NNBSP}$2`),
  },
  {
    name: 'a number and the word it counts: 12 millions, 40 euros',
    apply: (t) => t.replace(new RegExp(`(\\d)${SP}+(${COUNTED_WORDS})(?![\\p{L}])`, 'gu'), `$1${NBSP}$2`),
  },
  {
    name: 'percent: 45 %',
    apply: (t) => t.replace(new RegExp(`(^|\\d)(${SP}*)([%‰‱])(?![\\p{L}\\p{N}])`, 'gu'), spaceBefore(NNBSP)),
  },
  {
    name: 'currency: 6,80 €, 3 M€',
    apply: (t) => t.replace(new RegExp(`(^|\\d)(${SP}*)((?:k|M|Mds?|Md)?[€$£])(?![\\p{L}\\p{N}])`, 'gu'), spaceBefore(NBSP)),
  },
  {
    name: 'day and month: 1er octobre, 12 mai',
    apply: (t) => t.replace(new RegExp(`(?<![\\p{L}\\p{N}])(1er|\\d{1,2})${SP}+(${MONTHS})(?!\\p{L})`, 'gu'), `$1${NBSP}$2`),
  },
  {
    name: 'number sign and section: n° 12, § 3',
    apply: (t) => t.replace(new RegExp(`(?<!\\p{L})([nN]°|§)${SP}*(?=\\d)`, 'gu'), `$1${NBSP}`),
  },
  {
    name: 'guillemets: « texte »',
    apply: (t) => t.replace(new RegExp(`«${SP}*`, 'g'), `«${NNBSP}`).replace(new RegExp(`${SP}*»`, 'g'), `${NNBSP}»`),
  },
  {
    name: 'before ; ! ?',
    apply: (t) => t.replace(new RegExp(`(^|[^\\s(\\[{«/=&])(${SP}*)([;!?]+)${AFTER_MARK}`, 'gu'), spaceBefore(NNBSP)),
  },
  {
    name: 'before the colon',
    apply: (t) => t.replace(new RegExp(`(^|[^\\s(\\[{«/=&:])(${SP}*)(:)${AFTER_MARK}`, 'gu'), spaceBefore(NBSP)),
  },
];

/**
 * Addresses are set aside before the rules run, and put back after: "https://x.fr/?q=1" or
 * "lea@exemple.fr" keep every character. Each becomes one character of Unicode's
 * supplementary private use area, which no text ever holds.
 */
const PROTECTED = /\b(?:[a-z][a-z\d+.-]*:\/\/|www\.|mailto:)[^\s<>«»"]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/giu;
const PLACEHOLDER_BASE = 0xf0000;
const PLACEHOLDER = /[\u{f0000}-\u{ffffd}]/gu;

/** Whether a text has anything the rules could change: most text nodes of a page have not. */
const CANDIDATE = /[«»:;!?%‰‱€$£°§\d]/;

/** French typography for plain text (not HTML: see `frenchHtml`). */
export function frenchText(text: string): string {
  if (!CANDIDATE.test(text)) return text;
  const kept: string[] = [];
  let out = text.replace(PROTECTED, (address) => String.fromCodePoint(PLACEHOLDER_BASE + kept.push(address) - 1));
  for (const rule of RULES) out = rule.apply(out);
  return kept.length ? out.replace(PLACEHOLDER, (ch) => kept[ch.codePointAt(0)! - PLACEHOLDER_BASE] ?? ch) : out;
}

// ---------------------------------------------------------------------------------------------
// HTML

/**
 * Elements whose text is never typeset: code, and React islands, whose text the browser renders
 * again and would no longer match. An island's slots (`astro-slot`, and the `template` Astro
 * keeps them in) are Astro's own HTML, which the browser keeps as it is: those are typeset.
 */
const SKIPPED = new Set(['pre', 'code', 'kbd', 'samp', 'var', 'svg', 'math', 'astro-island']);
const SLOTS = /^<(?:astro-slot\b|template\b[^>]*\bdata-astro-template\b)/i;
/** Elements whose content is raw text, not HTML: skipped up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea']);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: NBSP,
  laquo: '«',
  raquo: '»',
  rsquo: '’',
  lsquo: '‘',
  ldquo: '“',
  rdquo: '”',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  euro: '€',
  thinsp: '\u2009',
  deg: '°',
  sect: '§',
};
const ENTITY = /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([A-Za-z][A-Za-z\d]{1,31}));/g;

/**
 * Text nodes already typeset, by their HTML: a page rendered on demand repeats the interface's
 * strings (navigation, footer, forms) on every request, and the rules were a tenth of a member
 * page's time (docs/performance.md). Bounded: forgotten at once when full; long texts not kept.
 */
const typesetNodes = new Map<string, string>();
const TYPESET_NODES_MAX = 5000;
const TYPESET_NODE_MAX_LENGTH = 500;

/** The text of one text node: entities decoded for the rules, written back only if something changed. */
function frenchHtmlText(html: string): string {
  if (!CANDIDATE.test(html)) return html;
  if (html.length > TYPESET_NODE_MAX_LENGTH) return typesetHtmlText(html);
  let typeset = typesetNodes.get(html);
  if (typeset === undefined) {
    typeset = typesetHtmlText(html);
    if (typesetNodes.size >= TYPESET_NODES_MAX) typesetNodes.clear();
    typesetNodes.set(html, typeset);
  }
  return typeset;
}

function typesetHtmlText(html: string): string {
  const kept: string[] = [];
  const keep = (entity: string) => String.fromCodePoint(PLACEHOLDER_BASE + kept.push(entity) - 1);
  const decoded = html.replace(ENTITY, (entity, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? keep(entity);
    const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : keep(entity);
  });
  const typeset = frenchText(decoded);
  if (typeset === decoded) return html;
  const escaped = typeset.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return kept.length ? escaped.replace(PLACEHOLDER, (ch) => kept[ch.codePointAt(0)! - PLACEHOLDER_BASE] ?? ch) : escaped;
}

/** A tag, a comment or a declaration; group 1 is a tag's name. Quoted attribute values may hold `>`. */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<[!?][^>]*>|<\/?([A-Za-z][^\s/>]*)(?:[^>"']|"[^"]*"|'[^']*')*>/g;

/**
 * French typography for HTML: the text between tags only, never tags, attributes, comments,
 * scripts, styles, form fields' text, code or React islands. Written for the markup Astro and
 * the Markdown pipeline produce, not as a general HTML parser.
 */
export function frenchHtml(html: string): string {
  return typesetHtml(html).html;
}

/**
 * `frenchHtml`, telling also whether the HTML ended outside any element that changes what is
 * typeset (no open island, code, script, comment): then the HTML after it can be typeset apart.
 */
function typesetHtml(html: string): { html: string; closed: boolean } {
  let closed = true;
  let out = '';
  let last = 0;
  // The open elements that change what is typeset, innermost last.
  const open: { name: string; typeset: boolean }[] = [];
  const typesetting = () => open.at(-1)?.typeset ?? true;
  MARKUP.lastIndex = 0;
  let lastMarkup = 0;
  for (let m = MARKUP.exec(html); m; m = MARKUP.exec(html)) {
    lastMarkup = m.index;
    const text = html.slice(last, m.index);
    out += (typesetting() ? frenchHtmlText(text) : text) + m[0];
    last = MARKUP.lastIndex;
    const name = m[1]?.toLowerCase();
    if (!name) continue;
    if (m[0][1] === '/') {
      if (open.at(-1)?.name === name) open.pop();
    } else if (!m[0].endsWith('/>')) {
      if (RAW_TEXT.has(name)) {
        const close = new RegExp(`</${name}[\\s>]`, 'gi');
        close.lastIndex = last;
        const found = close.exec(html);
        if (!found) closed = false;
        const stop = found?.index ?? html.length;
        out += html.slice(last, stop);
        last = MARKUP.lastIndex = stop;
      } else if (SKIPPED.has(name)) {
        open.push({ name, typeset: false });
      } else if (SLOTS.test(m[0])) {
        open.push({ name, typeset: true });
      }
    }
  }
  const rest = html.slice(last);
  // A comment left open at the end ran to it: what follows would be inside it.
  if (open.length > 0 || /^<!--(?![\s\S]*-->)/.test(html.slice(lastMarkup))) closed = false;
  return { html: out + (typesetting() ? frenchHtmlText(rest) : rest), closed };
}

/**
 * The layout around a page's own content (head, header, navigation, footer), typeset: the same
 * for the thousands of pages a build prerenders, so kept by its HTML (bounded) rather than typeset
 * again for each. (Pages rendered on demand with the layout come out of their render typeset, its
 * parts typeset once: src/components/shell/RenderedOnce.astro.) A page is cut where the layout's
 * <main> opens and where it closes (src/layouts/BaseLayout.astro); each piece must end outside any
 * skipped element, or the page is typeset whole.
 */
const typesetChrome = new Map<number, { html: string; typeset: string }[]>();
let typesetChromeCount = 0;
const CHROME_MAX = 200;
const CHROME_MAX_LENGTH = 100_000;
const MAIN_OPEN = '<main id="contenu"';
const MAIN_CLOSE = '</main>';

function typesetPiece(html: string, keep: boolean): string | undefined {
  // Found by length, then compared: hashing a fresh string of 15 KB on every lookup (a Map keyed
  // by the HTML) cost as much as typesetting it.
  const same = keep ? typesetChrome.get(html.length) : undefined;
  if (same) for (const kept of same) if (kept.html === html) return kept.typeset;
  const typeset = typesetHtml(html);
  if (!typeset.closed) return undefined;
  if (keep && html.length <= CHROME_MAX_LENGTH) {
    if (typesetChromeCount >= CHROME_MAX) {
      typesetChrome.clear();
      typesetChromeCount = 0;
    }
    const list = typesetChrome.get(html.length) ?? [];
    // Copies: a piece cut out of a page would keep the whole page in memory.
    list.push({ html: JSON.parse(JSON.stringify(html)) as string, typeset: JSON.parse(JSON.stringify(typeset.html)) as string });
    typesetChrome.set(html.length, list);
    typesetChromeCount++;
  }
  return typeset.html;
}

/** `frenchHtml` for a whole page of the layout: the layout's part from a cache, the page's own part typeset. */
export function frenchPage(html: string): string {
  const start = html.indexOf(MAIN_OPEN);
  const end = html.lastIndexOf(MAIN_CLOSE);
  if (start < 0 || end < start) return frenchHtml(html);
  const before = typesetPiece(html.slice(0, start), true);
  const main = before === undefined ? undefined : typesetPiece(html.slice(start, end), false);
  // The end needs no check: nothing follows it.
  const after = main === undefined ? undefined : typesetPiece(html.slice(end), true);
  return after === undefined ? frenchHtml(html) : before! + main! + after;
}

// ---------------------------------------------------------------------------------------------
// Markdown

/** The part of a hast node (the HTML syntax tree of Astro's Markdown processor, Sätteri) the plugin reads. */
interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
}
/** The part of Sätteri's visitor context the plugin uses: a node's parent, up to the root. */
interface HastContext {
  parent(node: HastNode): HastNode | undefined;
}

function inSkippedElement(node: HastNode, ctx: HastContext): boolean {
  for (let up = ctx.parent(node); up; up = ctx.parent(up)) {
    if (up.type === 'element' && (SKIPPED.has(up.tagName ?? '') || RAW_TEXT.has(up.tagName ?? ''))) return true;
  }
  return false;
}

/**
 * A hast plugin for Astro's Markdown processor (Sätteri: `markdown.processor` in
 * astro.config.mjs): bodies of stories, episodes, dossiers and pages come out typeset, in
 * pages and in feeds alike. Code is left as written.
 */
export const frenchTypographyPlugin = {
  name: 'french-typography',
  text(node: { type: 'text'; value: string }, ctx: HastContext) {
    const value = frenchText(node.value);
    return value === node.value || inSkippedElement(node, ctx) ? undefined : { type: 'text' as const, value };
  },
  raw(node: { type: 'raw'; value: string }) {
    const value = frenchHtml(node.value);
    return value === node.value ? undefined : { type: 'raw' as const, value };
  },
};

// ---------------------------------------------------------------------------------------------
// Pages

/**
 * A page's answer with its HTML typeset (src/middleware.ts): prerendered pages at build time,
 * pages rendered on demand as they are sent. Any other answer (feeds, JSON, files, redirects)
 * is returned as is. Status and headers, cookies included, are kept.
 */
export async function typesetResponse(response: Response): Promise<Response> {
  if (!response.body || !/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) return response;
  const html = frenchPage(await response.text());
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}
