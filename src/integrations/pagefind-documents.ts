/**
 * Turns the built HTML into the documents Pagefind indexes. Pure functions, so they can be
 * tested without a build.
 *
 * - A page whose main content carries `data-pagefind-body` (see src/lib/search-index.ts) is one
 *   result, at its canonical URL (no trailing slash, as every internal link).
 * - A record inside a list page (`data-search-url`, the brèves, which have no page of their
 *   own) becomes a result of its own, at its anchor in its list. The list pages themselves
 *   are not indexed.
 */

export interface IndexDocument {
  url: string;
  /** HTML for Pagefind: the language, and the main content only. */
  content: string;
}

/** `articles/2026/x/index.html` → `/articles/2026/x`; `index.html` → `/`; `404.html` → `/404`. */
export function pageUrl(relativePath: string): string {
  const path = relativePath
    .split('\\')
    .join('/')
    .replace(/(^|\/)index\.html$/, '')
    .replace(/\.html$/, '');
  return `/${path.replace(/\/$/, '')}`;
}

/**
 * The client folder's file a prerendered page is written to (format 'directory'), from the
 * request Astro renders it for: `/articles/2026/x/` → `articles/2026/x/index.html`.
 */
export function pageFile(pathname: string): string {
  const path = decodeURI(pathname).replace(/^\/+/, '');
  if (path === '' || path.endsWith('/')) return `${path}index.html`;
  return path.endsWith('.html') ? path : `${path}/index.html`;
}

/**
 * The text as Pagefind should read it.
 *
 * Pagefind splits words on ASCII punctuation only. French elides with the typographic
 * apostrophe (l’école, d’Orléans), which it would index as one word (“lecole”): “école” would
 * not find it. The text is indexed with ASCII apostrophes instead, so that both “l’école” and
 * “école” are indexed, and the search interface prints ’ again (`typeset` in src/lib/search.ts).
 * Accents need nothing: Pagefind 1.5+ folds diacritics itself when it indexes and searches.
 */
export function indexableText(html: string): string {
  return (
    html
      .replace(/\u2019|&rsquo;|&#8217;|&#x2019;/gi, "'")
      // Pagefind joins the text of adjacent inline elements: "<span>Par Léa Moreau</span><span>Climat</span>"
      // would index "moreauclimat". A space between an element's end and the next one's start
      // separates them, and never splits a word of running text.
      .replace(/(<\/[a-z][a-z0-9]*\s*>)(?=<[a-z])/gi, '$1 ')
  );
}

function languageOf(html: string): string {
  return /<html\b[^>]*\blang="([^"]+)"/i.exec(html)?.[1] ?? 'fr';
}

/**
 * The page's <main> (the layout's header, navigation and footer are never content), else its
 * body. Pagefind gets a third of the bytes: 100 MB instead of 300 for 10,000 stories.
 */
function contentOf(html: string): string {
  const lower = html.toLowerCase();
  const main = lower.search(/<main\b/);
  const mainEnd = lower.lastIndexOf('</main>');
  if (main >= 0 && mainEnd > main) return `<body>${html.slice(main, mainEnd + '</main>'.length)}</body>`;
  const start = lower.search(/<body\b/);
  const end = lower.lastIndexOf('</body>');
  return start >= 0 && end > start ? html.slice(start, end + '</body>'.length) : `<body>${html}</body>`;
}

const wrap = (language: string, body: string) => `<!doctype html><html lang="${language}">${indexableText(body)}</html>`;

const decodeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The `<article data-search-url="…">` elements of a page, each with its URL and outer HTML.
 * Astro writes this markup itself (src/components/content/BreveItem.astro), so a scan for
 * balanced <article> tags is enough; no general HTML parser is needed.
 */
export function searchRecords(html: string): { url: string; html: string }[] {
  const records: { url: string; html: string }[] = [];
  const start = /<article\b[^>]*\bdata-search-url="([^"]*)"[^>]*>/gi;
  let match: RegExpExecArray | null;
  while ((match = start.exec(html))) {
    const tags = /<article\b[^>]*>|<\/article\s*>/gi;
    tags.lastIndex = start.lastIndex;
    let depth = 1;
    let tag: RegExpExecArray | null;
    while (depth > 0 && (tag = tags.exec(html))) depth += tag[0][1] === '/' ? -1 : 1;
    if (depth > 0) break; // Unbalanced: leave the rest of the page alone.
    records.push({ url: decodeAttribute(match[1]!), html: html.slice(match.index, tags.lastIndex) });
    start.lastIndex = tags.lastIndex;
  }
  return records;
}

/** Every document a built HTML file contributes to the index (often none). */
export function documentsOf(relativePath: string, html: string): IndexDocument[] {
  const documents: IndexDocument[] = [];
  const language = languageOf(html);
  if (html.includes('data-pagefind-body')) {
    documents.push({ url: pageUrl(relativePath), content: wrap(language, contentOf(html)) });
  }
  if (html.includes('data-search-url=')) {
    for (const record of searchRecords(html)) {
      const article = record.html.replace(/^<article\b/i, '<article data-pagefind-body');
      documents.push({ url: record.url, content: wrap(language, `<body>${article}</body>`) });
    }
  }
  return documents;
}
