import { openSync, type Font } from 'fontkit';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web font in two files (assets/fonts/README.md): a `unicode-range` that lists a character
 * its file lacks sends that character to the fallback font after a download for nothing; one that
 * leaves out a character its file has sends it to the fallback at once. Either shows as letters
 * of another font in the middle of a word.
 */
const css = readFileSync(fileURLToPath(new URL('./fonts.css', import.meta.url)), 'utf8');
const layout = readFileSync(fileURLToPath(new URL('../layouts/BaseLayout.astro', import.meta.url)), 'utf8');

type Face = { file: string; weights: string; range: Set<number> };

const faces: Face[] = [...css.matchAll(/@font-face\s*{([^}]*)}/g)]
  .map(([, body]) => body!)
  .filter((body) => /font-family:\s*'Inter';/.test(body))
  .map((body) => ({
    file: /src:\s*url\('([^']+)'\)/.exec(body)![1]!,
    weights: /font-weight:\s*([^;]+);/.exec(body)![1]!.trim(),
    range: codePoints(/unicode-range:([^;]+);/.exec(body)![1]!),
  }));

function codePoints(range: string): Set<number> {
  const points = new Set<number>();
  for (const part of range.split(',').map((item) => item.trim())) {
    const [from, to = from] = part.replace(/^U\+/i, '').split('-') as [string, string?];
    for (let point = parseInt(from, 16); point <= parseInt(to, 16); point++) points.add(point);
  }
  return points;
}

const open = (file: string) => openSync(fileURLToPath(new URL(file, import.meta.url))) as Font;
const hex = (points: Iterable<number>) => [...points].map((point) => `U+${point.toString(16).toUpperCase().padStart(4, '0')}`);

describe('the web font', () => {
  it('is two files of Inter, each declared with exactly the characters it draws, every weight of the design in each', () => {
    expect(faces.map((face) => face.file.split('/').pop())).toEqual(['Inter-latin-fr-wght-400-800.woff2', 'Inter-latin-more-wght-400-800.woff2']);
    for (const face of faces) {
      const font = open(face.file);
      // U+FFFF is no character: it closes the last segment of a format 4 `cmap`.
      const drawn = new Set(font.characterSet.filter((point) => point !== 0xffff));
      expect(hex([...face.range].filter((point) => !drawn.has(point))), `${face.file}: declared, not drawn`).toEqual([]);
      expect(hex([...drawn].filter((point) => !face.range.has(point))), `${face.file}: drawn, not declared`).toEqual([]);
      expect(face.weights).toBe('400 800');
      expect(font.variationAxes['wght']).toMatchObject({ min: 400, max: 800 });
    }
    const [french, more] = faces as [Face, Face];
    expect(hex([...french.range].filter((point) => more.range.has(point))), 'in both files').toEqual([]);
  });

  it('sets French text from the preloaded file alone, kerned and with tabular figures', () => {
    const preloaded = /import \w+ from '\.\.\/\.\.\/assets\/fonts\/([^']+)\?url';/.exec(layout)?.[1];
    const french = faces.find((face) => face.file.endsWith(`/${preloaded}`));
    expect(french, 'the layout preloads one of the files').toBeDefined();
    const text = 'ÀÂÆÇÈÉÊËÎÏÔÙÛÜŒàâæçèéêëîïôùûüÿœ «\u00a0»’‘“”–—…€°©·•‹›';
    const ascii = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCodePoint(0x20 + i)).join('');
    const missing = [...new Set(text + ascii)].filter((char) => !french!.range.has(char.codePointAt(0)!));
    expect(missing).toEqual([]);

    const font = open(french!.file);
    // Kerning kept: « AVANT » is narrower set than its letters side by side.
    const kerned = font.layout('AVANT').positions.reduce((sum, position) => sum + position.xAdvance, 0);
    const plain = [...'AVANT'].reduce((sum, char) => sum + font.glyphForCodePoint(char.codePointAt(0)!).advanceWidth, 0);
    expect(kerned).toBeLessThan(plain);
    // Tabular figures: a 1 as wide as a 0 once asked for, narrower without.
    const width = (digits: string, features: string[] = []) => font.layout(digits, features).positions.reduce((sum, position) => sum + position.xAdvance, 0);
    expect(width('1')).toBeLessThan(width('0'));
    expect(width('1', ['tnum'])).toBe(width('0', ['tnum']));
  });
});
