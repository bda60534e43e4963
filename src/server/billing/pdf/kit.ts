/**
 * What every PDF of the site shares: pdfkit with Inter embedded (assets/fonts, parsed once per
 * process), PDF/A-3b, French number, date and spacing conventions, and deterministic output:
 * the same content gives the same bytes, because documents are rendered once and stored with
 * their SHA-256, and a rerender years later must not differ.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { formatDate } from '../../../lib/dates';
import { formatEuros, formatRate } from '../../../lib/money';
import { NBSP, NNBSP, frenchText } from '../../../lib/typography';

/** The site's colours (src/styles, src/server/mail/layout.ts BRAND). */
export const COLORS = {
  text: '#17181a',
  muted: '#4f5660',
  rule: '#dfe3e8',
  surface: '#f5f6f8',
  green: '#0b7a4b',
  greenDark: '#075c38',
  greenSoft: '#e6f4ed',
  yellow: '#ffd23f',
} as const;

/** No-break spaces (src/lib/typography.ts): Inter, embedded, draws both. */
export { NBSP, NNBSP };

// ---------------------------------------------------------------------------------------------
// Fonts

type FaceName = 'regular' | 'bold';
/** The part of a fontkit font these modules read (fontkit is pdfkit's own font engine). */
interface FontkitFont {
  unitsPerEm: number;
  characterSet: number[];
  hasGlyphForCodePoint(codePoint: number): boolean;
  glyphForCodePoint(codePoint: number): { advanceWidth: number; path: { toSVG(): string } };
}
/** pdfkit's EmbeddedFont class (not exported): a face of one document. */
type EmbeddedFontClass = new (doc: unknown, font: FontkitFont, id: string) => { name: string };
/** pdfkit internals used to hand a document the fonts parsed once (see attachFonts). */
interface PdfkitInternals {
  _fontFamilies: Record<string, unknown>;
  _fontCount: number;
  _font: { font: FontkitFont; name: string; constructor: EmbeddedFontClass } | null;
}

interface Fonts {
  bytes: Record<FaceName, Buffer>;
  /** Parsed by pdfkit's fontkit, once. */
  parsed: Record<FaceName, FontkitFont>;
  /** pdfkit's EmbeddedFont class, when its internals are as expected (else each document parses). */
  embeddedFont: EmbeddedFontClass | undefined;
}

let fonts: Fonts | undefined;

/** assets/fonts of the repository, found upward from this module (source tree or built server). */
function fontsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'assets', 'fonts');
    if (existsSync(join(candidate, 'Inter-Regular.ttf'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const fromCwd = join(process.cwd(), 'assets', 'fonts');
  if (existsSync(join(fromCwd, 'Inter-Regular.ttf'))) return fromCwd;
  throw new Error('PDF: assets/fonts/Inter-Regular.ttf not found');
}

function loadFonts(): Fonts {
  if (fonts) return fonts;
  const dir = fontsDir();
  const bytes = { regular: readFileSync(join(dir, 'Inter-Regular.ttf')), bold: readFileSync(join(dir, 'Inter-Bold.ttf')) };
  // A throwaway document opens each face the public way: pdfkit parses it with its fontkit, and
  // hands back the parsed font and the class that embeds it.
  const probe = new PDFDocument({ autoFirstPage: false, font: '' }) as unknown as PDFKit.PDFDocument & PdfkitInternals;
  const parsed = {} as Record<FaceName, FontkitFont>;
  let embeddedFont: Fonts['embeddedFont'];
  for (const face of ['regular', 'bold'] as const) {
    probe.registerFont(face, bytes[face]);
    probe.font(face);
    const opened = probe._font;
    if (!opened || typeof opened.font?.hasGlyphForCodePoint !== 'function') throw new Error('PDF: pdfkit did not open Inter');
    parsed[face] = opened.font;
    embeddedFont = typeof opened.constructor === 'function' && probe._fontFamilies && typeof probe._fontCount === 'number' ? opened.constructor : undefined;
  }
  // fontkit caches a glyph with the characters of its first request, and pdfkit writes those in
  // the text layer (ToUnicode). A glyph first requested as a component of another (E inside É)
  // would be cached with none, and every later document would lose its E when read or copied,
  // depending on what was rendered before. Requesting each character's glyph first fixes them.
  // A glyph of two characters reads as the first requested: modifier letters come last, so the
  // apostrophe ’ reads as U+2019 rather than U+02BC.
  const order = (code: number) => (code >= 0x02b0 && code <= 0x02ff ? code + 0x110000 : code);
  for (const face of ['regular', 'bold'] as const) {
    for (const code of [...parsed[face].characterSet].sort((a, b) => order(a) - order(b))) parsed[face].glyphForCodePoint(code);
  }
  fonts = { bytes, parsed, embeddedFont };
  return fonts;
}

/**
 * pdfkit's cache of laid-out words, shared by the documents too (the legal texts repeat from one
 * to the next: half of what is left of the time). pdfkit copies a cached run before changing it.
 * Renewed every few hundred documents, so that buyers' names and addresses do not pile up.
 */
let layoutCaches: Record<FaceName, Record<string, unknown>> | undefined;
let documentsSinceRenewal = 0;
const LAYOUT_CACHE_DOCUMENTS = 500;

/**
 * Gives the document Inter regular and bold. pdfkit would parse the font files again for each
 * document (GSUB, GPOS, cmap: three quarters of the rendering time) and lay out every word
 * anew; the faces parsed once are handed to it instead, under the ids it would have given them
 * (F1, F2), with the shared word cache, so the bytes are the same either way. Should a pdfkit
 * upgrade change these internals, it falls back to parsing each time.
 */
function attachFonts(doc: PDFKit.PDFDocument): void {
  const f = loadFonts();
  const d = doc as unknown as PdfkitInternals;
  if (!layoutCaches || ++documentsSinceRenewal > LAYOUT_CACHE_DOCUMENTS) {
    layoutCaches = { regular: Object.create(null), bold: Object.create(null) };
    documentsSinceRenewal = 0;
  }
  for (const face of ['regular', 'bold'] as const) {
    if (f.embeddedFont && d._fontFamilies && typeof d._fontCount === 'number') {
      const font = new f.embeddedFont(doc, f.parsed[face], `F${++d._fontCount}`) as { name: string; layoutCache?: Record<string, unknown> };
      if (font.layoutCache) font.layoutCache = layoutCaches[face];
      d._fontFamilies[face] = font;
      d._fontFamilies[font.name] = font;
    } else {
      doc.registerFont(face, f.bytes[face]);
      doc.font(face);
    }
  }
}

/**
 * A character of a face as a vector outline, in font units (y up), and its advance: to draw
 * a glyph where text would not do (the gift card's code, one character per fixed cell).
 */
export function glyphOutline(face: FaceName, char: string): { svg: string; advance: number; unitsPerEm: number } | undefined {
  const font = loadFonts().parsed[face];
  const code = char.codePointAt(0);
  if (code === undefined || !font.hasGlyphForCodePoint(code)) return undefined;
  const glyph = font.glyphForCodePoint(code);
  return { svg: glyph.path.toSVG(), advance: glyph.advanceWidth, unitsPerEm: font.unitsPerEm };
}

/** For the tests: whether documents share the parsed fonts (the fast path). */
export function fontsShared(): boolean {
  return loadFonts().embeddedFont !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Documents

export interface DocumentMeta {
  /** No reader-supplied text here: pdfkit writes these into the XMP packet unescaped. */
  title: string;
  subject: string;
  /** CreationDate and ModDate: the document's own date, never the rendering time. */
  date: Date;
  size?: 'A4' | 'A5';
  layout?: 'portrait' | 'landscape';
  margins?: { top: number; bottom: number; left: number; right: number };
}

const PRODUCER = 'Contrechamp (pdfkit)';
/** PDF/A wants each Info entry mirrored in the XMP packet; pdfkit writes all but these two. */
const xmpExtras = (date: Date) => `
        <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
            <pdf:Producer>${PRODUCER}</pdf:Producer>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
            <xmp:ModifyDate>${date.toISOString().split('.')[0]}Z</xmp:ModifyDate>
        </rdf:Description>`;

/**
 * A new document, PDF/A-3b (archival; PDF/A-3 also admits the XML of a future Factur-X invoice),
 * with Inter registered as `regular` and `bold`, pages buffered for the footers.
 */
export function newDocument(meta: DocumentMeta): PDFKit.PDFDocument {
  const date = new Date(Math.floor(meta.date.getTime() / 1000) * 1000);
  const doc = new PDFDocument({
    size: meta.size ?? 'A4',
    layout: meta.layout ?? 'portrait',
    margins: meta.margins ?? { top: 50, bottom: 50, left: 50, right: 50 },
    // No default font: pdfkit would load Helvetica's metrics for nothing (and it is not embeddable).
    font: '',
    bufferPages: true,
    pdfVersion: '1.7',
    subset: 'PDF/A-3b',
    lang: 'fr-FR',
    displayTitle: true,
    info: { Title: meta.title, Author: 'Contrechamp', Subject: meta.subject, Creator: 'Contrechamp', Producer: PRODUCER, CreationDate: date, ModDate: date },
  });
  doc.appendXML(xmpExtras(date));
  attachFonts(doc);
  doc.font('regular');
  return doc;
}

/** Ends the document and collects its bytes. */
export function finish(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.end();
  });
}

// ---------------------------------------------------------------------------------------------
// French formats

/** « 6,80 € », « 2 928,00 € »: always two decimals on a legal document (src/lib/money.ts). */
export const euros = (cents: number): string => formatEuros(cents, { cents: 'always' });

/** « 2,1 % », « 20 % » from basis points. */
export const rate = (bp: number): string => formatRate(bp);

/** « 23 novembre 2026 », « 1er octobre 2026 » (Paris), from an instant or a YYYY-MM-DD day. */
export function longDate(value: string | Date): string {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return formatDate(date).replace(/ /g, NBSP);
}

/** French typography, as on the site (src/lib/typography.ts): URLs and times stay as they are. */
export const frenchSpacing = frenchText;

/**
 * What the embedded faces can draw, and nothing else (PDF/A forbids the empty .notdef box):
 * a letter they lack loses its accent when its base letter is there, anything else (emoji,
 * CJK…) is left out. Control characters go, spaces left doubled by a removal are collapsed;
 * line breaks stay (a gift message's paragraphs).
 */
export function printable(text: string): string {
  const { regular, bold } = loadFonts().parsed;
  const drawable = (ch: string) => {
    const code = ch.codePointAt(0)!;
    return code === 0x0a || (code >= 0x20 && regular.hasGlyphForCodePoint(code) && bold.hasGlyphForCodePoint(code));
  };
  let out = '';
  for (const ch of text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').normalize('NFC')) {
    if (drawable(ch)) out += ch;
    else {
      const base = ch.normalize('NFD')[0];
      if (base && base !== ch && drawable(base)) out += base;
    }
  }
  return out
    .replace(/[ \u00a0]{2,}/g, ' ')
    .replace(/ +\n/g, '\n')
    .replace(/\n +/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Any text for the page: printable, with French spacing. */
export const typeset = (text: string): string => frenchSpacing(printable(text));
