/**
 * What every PDF of the site shares: pdfkit (maintained; PDF/A-2b conformance, embedded font
 * subsets), Inter read once per process from @fontsource/inter, French number and date formats,
 * and deterministic output (the same content gives the same bytes: documents are rendered once,
 * stored with their SHA-256, and a rerender must not differ).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { formatInTimeZone } from 'date-fns-tz';
import { fr } from 'date-fns/locale';

const require = createRequire(import.meta.url);
let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** Inter regular and bold (Latin subset: accents, « », ’, €, narrow no-break space), loaded once. */
function interFonts(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: readFileSync(require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff')),
    bold: readFileSync(require.resolve('@fontsource/inter/files/inter-latin-700-normal.woff')),
  };
  return fonts;
}

export const COLORS = { text: '#1a1a1a', muted: '#5c5c5c', rule: '#d9d9d9', green: '#0b7a4b', yellow: '#ffd23f', band: '#f4f4ef' } as const;

/** A new A4 document, PDF/A-2b, with Inter registered as `regular` and `bold`. */
export function newDocument(meta: { title: string; subject: string; date: Date; layout?: 'portrait' | 'landscape'; size?: string }): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: meta.size ?? 'A4',
    layout: meta.layout ?? 'portrait',
    margins: { top: 50, bottom: 60, left: 50, right: 50 },
    bufferPages: true,
    pdfVersion: '1.7',
    subset: 'PDF/A-2b',
    lang: 'fr-FR',
    displayTitle: true,
    info: { Title: meta.title, Author: 'Contrechamp', Subject: meta.subject, Creator: 'Contrechamp', Producer: 'Contrechamp (pdfkit)', CreationDate: meta.date, ModDate: meta.date },
  });
  const { regular, bold } = interFonts();
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
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

// Inter's Latin subset has no narrow no-break space (U+202F): a no-break space stands in for it.
const NNBSP = '\u00a0';
const NBSP = '\u00a0';

/** « 6,80 € »: always two decimals on a legal document, no-break spaces. */
export function euros(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, NNBSP);
  return `${sign}${units},${String(abs % 100).padStart(2, '0')}${NBSP}€`;
}

/** « 2,1 % » */
export const rate = (bp: number): string => `${(bp / 100).toLocaleString('fr-FR', { maximumFractionDigits: 2 })}${NNBSP}%`;

/** « 23 novembre 2026 » (Paris), from an instant or a YYYY-MM-DD day. */
export function longDate(value: string | Date): string {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);
  return formatInTimeZone(date, 'Europe/Paris', 'd MMMM yyyy', { locale: fr }).replace(/^1 /, '1er ');
}

/**
 * French spacing for printed text: a narrow no-break space before ; ! ? and inside « »,
 * a no-break space before :. Text already spaced stays as it is.
 */
export function frenchType(text: string): string {
  return text
    .replace(/\s*([;!?])(?=\s|$)/g, `${NNBSP}$1`)
    .replace(/\s+:(?=\s|$)/g, `${NBSP}:`)
    .replace(/«\s*/g, `«${NNBSP}`)
    .replace(/\s*»/g, `${NNBSP}»`);
}

const drawable = (code: number): boolean =>
  code === 0x0a || (code >= 0x20 && code <= 0xff) || code === 0x0131 || code === 0x0152 || code === 0x0153 || (code >= 0x2010 && code <= 0x2026) || code === 0x202f || code === 0x2039 || code === 0x203a || code === 0x20ac || code === 0x2122;

/**
 * Keeps what the embedded Latin subset can draw: a letter outside it loses its accent (« č » → « c »),
 * anything else (emoji in a gift message) is dropped.
 */
export function printable(text: string): string {
  return [...text]
    .map((ch) => {
      if (drawable(ch.codePointAt(0)!)) return ch;
      const base = ch.normalize('NFD')[0];
      return base && drawable(base.codePointAt(0)!) ? base : '';
    })
    .join('')
    .replace(/\u202f/g, NNBSP)
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}
