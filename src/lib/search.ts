/**
 * Site search: the vocabulary shared by the pages that feed the index, the build step that
 * writes it (src/integrations/pagefind.ts) and the search interface, and the pure helpers the
 * interface needs. Safe on both sides, and small: it ships with the search code.
 */
import { frenchText } from './typography';

/** Kinds of content, as readers see them in results and filters (stored as is in the index). */
export const SEARCH_KINDS = ['Article', 'Émission', 'Brève', 'Podcast', 'Dossier', 'Page'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The search page's address, and its query parameters (kept in the URL so results can be shared). */
export const SEARCH_PATH = '/rechercher';
export const SEARCH_PARAMS = { query: 'q', kind: 'type', year: 'annee' } as const;

/** Queries longer than this are cut: nobody types more, and each word costs a lookup. */
const MAX_QUERY_LENGTH = 200;

/**
 * What is sent to Pagefind. Accents are kept: Pagefind (≥ 1.5) folds them itself, on both sides,
 * so "ecole" finds "école" while "école" ranks exact matches first. Typographic apostrophes
 * (which phones type) become ASCII ones, the separator the index was built with.
 */
export function normaliseQuery(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/[\u2019\u02BC]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_QUERY_LENGTH)
    .trim();
}

/**
 * Text from the index, as the site prints it. The index holds ASCII apostrophes where the site
 * prints ’ (see `indexableText` in src/integrations/pagefind-documents.ts); the site never
 * prints an ASCII apostrophe in French text, so they are turned back. And Pagefind turns every
 * space into an ordinary one, so French typography's no-break spaces are put back too.
 */
export function typeset(text: string): string {
  return frenchText(text.replace(/'/g, '\u2019'));
}

export interface ExcerptPart {
  text: string;
  /** A word that matched the query, shown in <mark>. */
  mark: boolean;
}

/**
 * Pagefind's excerpts are HTML: the page's text with `<` and `>` escaped, and `<mark>` around
 * matches. Rather than trusting that string as markup, it is split into plain text parts, so
 * that nothing but the highlight can ever reach the page as HTML.
 */
export function excerptParts(html: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let mark = false;
  for (const piece of html.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') mark = true;
    else if (piece === '</mark>') mark = false;
    else if (piece) {
      const text = typeset(piece.replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
      const last = parts.at(-1);
      if (last && last.mark === mark) last.text += text;
      else parts.push({ text, mark });
    }
  }
  return parts;
}

export interface SearchFilters {
  kinds: SearchKind[];
  /** A year ('2026'), or '' for any. */
  year: string;
}

export const NO_FILTERS: SearchFilters = { kinds: [], year: '' };

const isKind = (value: string): value is SearchKind => (SEARCH_KINDS as readonly string[]).includes(value);

/** Reads the search page's URL: `?q=école&type=Article&type=Brève&annee=2026`. */
export function readSearchParams(search: string): { query: string; filters: SearchFilters } {
  const params = new URLSearchParams(search);
  const kinds = params.getAll(SEARCH_PARAMS.kind).filter(isKind);
  const year = params.get(SEARCH_PARAMS.year) ?? '';
  return {
    query: params.get(SEARCH_PARAMS.query) ?? '',
    filters: { kinds: [...new Set(kinds)], year: /^\d{4}$/.test(year) ? year : '' },
  };
}

/** The search page's URL for a query and filters; the inverse of `readSearchParams`. */
export function searchUrl(query: string, filters: SearchFilters = NO_FILTERS): string {
  const params = new URLSearchParams();
  const q = query.trim();
  if (q) params.set(SEARCH_PARAMS.query, q);
  for (const kind of filters.kinds) params.append(SEARCH_PARAMS.kind, kind);
  if (filters.year) params.set(SEARCH_PARAMS.year, filters.year);
  const qs = params.toString();
  return qs ? `${SEARCH_PATH}?${qs}` : SEARCH_PATH;
}

/**
 * "1 résultat", "12 résultats", "Aucun résultat pour « … »", with the narrow no-break spaces
 * of French typography around the reader's words (which are left as typed).
 */
export function resultsLabel(count: number, query: string): string {
  const quoted = `«\u202f${query}\u202f»`;
  if (count === 0) return `Aucun résultat pour ${quoted}`;
  return `${count.toLocaleString('fr-FR')} résultat${count > 1 ? 's' : ''} pour ${quoted}`;
}

/**
 * The results a reader sees: the full index's results that the small index of recent changes
 * supersedes (changed or deleted pages) left out, and each result once (a page whose indexed
 * text did not change has the same id in both indexes) (src/integrations/pagefind-delta.ts).
 */
export function withoutSuperseded<T extends { id: string }>(results: T[], superseded: ReadonlySet<string>): T[] {
  const seen = new Set<string>();
  return results.filter((result) => !superseded.has(result.id) && !seen.has(result.id) && Boolean(seen.add(result.id)));
}
