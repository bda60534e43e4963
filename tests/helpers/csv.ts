/** Reads back the CSV files the site writes (the accountant's export), strictly. */
import { CSV_BOM } from '../../src/server/http/csv';

/** RFC 4180 with `;` and CRLF; throws on anything malformed (a stray quote, a bare LF). */
export function parseCsv(file: string): string[][] {
  if (!file.startsWith(CSV_BOM)) throw new Error('no BOM');
  const text = file.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quote');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ';' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`stray quote at ${i}`);
        cell += text[i++];
      }
    }
    row.push(cell);
    if (text[i] === ';') {
      i++;
      continue;
    }
    if (text[i] === '\n') throw new Error(`bare LF at ${i}`);
    if (text[i] === '\r') {
      if (text[i + 1] !== '\n') throw new Error(`bare CR at ${i}`);
      i += 2;
      rows.push(row);
      row = [];
      if (i >= text.length) return rows;
      continue;
    }
    if (i >= text.length) throw new Error('last line without CRLF');
    throw new Error(`unexpected ${text[i]} at ${i}`);
  }
}
