/**
 * The accountant's CSV, read back by a strict RFC 4180 parser with `;`: what French Excel gets
 * (BOM, CRLF, decimal comma), quoting of every awkward name, and formulas neutralised.
 */
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../tests/helpers/csv';
import { csvAmount, csvDocument, csvRate, csvText } from './csv';

describe('the accountant’s CSV', () => {
  it('amounts with a decimal comma and no thousands separator, negative for a credit note; rates as numbers', () => {
    expect([0, 5, 14, 686, 700, 123456, -686, -5].map((c) => csvAmount(c).csv)).toEqual(['0,00', '0,05', '0,14', '6,86', '7,00', '1234,56', '-6,86', '-0,05']);
    expect([210, 2000, 550, 0].map((r) => csvRate(r).csv)).toEqual(['2,1', '20', '5,5', '0']);
    expect(() => csvAmount(1.5)).toThrow();
  });

  it('a spreadsheet never runs a buyer’s name as a formula', () => {
    for (const evil of ['=HYPERLINK("http://x.example","clic")', '+33 1 23', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1']) {
      const [header, line] = parseCsv(csvDocument(['Acheteur'], [[csvText(evil)]]));
      expect(header).toEqual(['Acheteur']);
      expect(line![0]).toBe(`'${evil}`);
    }
    expect(csvText('Émile = Zola').csv).toBe('Émile = Zola');
  });

  it('separators, quotes, line breaks and edge spaces are quoted and read back as typed; UTF-8 with BOM and CRLF', () => {
    const names = [
      'Dupont; Fils',
      'Société "Le Port"',
      'Ligne 1\nLigne 2',
      'Retour\r\nchariot',
      ' espace',
      'fin ',
      'Lefèvre',
      'Œuvre – « coopérative »',
      '',
      '""',
    ];
    const file = csvDocument(
      ['Numéro', 'Acheteur', 'Montant TTC'],
      names.map((name, i) => [csvText(`F-00000${i}`), csvText(name), csvAmount(-686 * i)]),
    );
    expect(file.charCodeAt(0)).toBe(0xfeff);
    expect(file.endsWith('\r\n')).toBe(true);
    expect(Buffer.from(file, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parseCsv(file);
    expect(rows[0]).toEqual(['Numéro', 'Acheteur', 'Montant TTC']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(names);
    expect(rows.slice(1).map((r) => r[2])).toEqual(names.map((_, i) => csvAmount(-686 * i).csv));
    expect(rows.every((r) => r.length === 3)).toBe(true);
  });
});
