/**
 * CSV as French Excel (and LibreOffice) opens it with a double click: UTF-8 with a byte-order
 * mark (without it Excel reads Windows-1252 and « Lefèvre » comes out garbled), `;` between
 * fields (`,` is the decimal separator in France), decimal comma, CRLF line ends, RFC 4180
 * quoting.
 *
 * Text typed by someone else (a buyer's name, a company) may start with `=`, `+`, `-`, `@`, a
 * tab or a carriage return: a spreadsheet would run it as a formula (« =HYPERLINK(…) », DDE).
 * Such a cell gets a leading apostrophe, which the spreadsheet shows as text (OWASP « CSV
 * injection »). Amounts are written by us, never typed by anyone: they are left as numbers, so
 * that a credit note's « -6,86 » still sums.
 */

export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_EOL = '\r\n';

/** One field, already written as it goes into the file (`csvText`, `csvAmount`…). */
export type CsvCell = { readonly csv: string };

const needsQuotes = /[";\r\n]|^\s|\s$/;
const formulaStart = /^[=+\-@\t\r]/;

const quoted = (text: string): string => (needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** Text from outside (names, descriptions): neutralised if it could be read as a formula, quoted if needed. */
export function csvText(value: string | null | undefined): CsvCell {
  const text = value ?? '';
  return { csv: quoted(formulaStart.test(text) ? `'${text}` : text) };
}

/** An amount in cents as « 1234,50 » or « -6,86 »: no thousands separator, decimal comma. */
export function csvAmount(cents: number): CsvCell {
  if (!Number.isInteger(cents)) throw new Error(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return { csv: `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}` };
}

/** A rate in basis points as a percentage number: 210 → « 2,1 », 2000 → « 20 », 0 → « 0 ». */
export function csvRate(rateBp: number): CsvCell {
  return { csv: String(rateBp / 100).replace('.', ',') };
}

/** The whole file: BOM, the header row, one row per record, every line ended by CRLF. */
export function csvDocument(header: string[], rows: CsvCell[][]): string {
  const line = (cells: CsvCell[]) => cells.map((c) => c.csv).join(CSV_SEPARATOR) + CSV_EOL;
  return CSV_BOM + line(header.map((h) => csvText(h))) + rows.map(line).join('');
}

/**
 * The answer that downloads a CSV: its file name (ASCII, no quote) in Content-Disposition, never
 * stored by a cache or the browser (the files hold personal data), never sniffed as anything else.
 */
export function csvResponse(csv: string, filename: string): Response {
  if (!/^[\w.-]+$/.test(filename)) throw new Error(`Not a safe file name: ${filename}`);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
