import { describe, expect, it } from 'vitest';
import { countWords, formatReadingTime, readingMinutes, WORDS_PER_MINUTE } from './reading-time';

const words = (n: number) => Array.from({ length: n }, (_, i) => `mot${i}`).join(' ');

describe('countWords', () => {
  it('counts the words a reader reads, not the Markdown around them', () => {
    const body = [
      '## Pourquoi l’Arenh a disparu',
      '',
      'Le mécanisme était **critiqué** de toutes parts — voir [le rapport de la CRE](https://www.cre.fr/rapport-2025).',
      '',
      '> « L’Arenh était un compromis bancal »',
      '',
      '- rien ne bouge ;',
      '- tout change !',
      '',
      '![Des éoliennes sur une colline](./eoliennes.jpg)',
      '<aside class="note">Une note</aside>',
    ].join('\n');
    // Pourquoi l’Arenh a disparu (4) · Le mécanisme était critiqué de toutes parts voir le
    // rapport de la CRE (13) · L’Arenh était un compromis bancal (5) · rien ne bouge (3) ·
    // tout change (2) · Une note (2). Dashes, guillemets, list markers, the image and the
    // link's address are not words.
    expect(countWords(body)).toBe(29);
  });

  it('counts numbers as words and ignores front matter', () => {
    expect(countWords('---\ntitle: "Un titre"\n---\nEn 2026, 100 térawattheures.')).toBe(4);
  });

  it('is zero for an empty body', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  \n— « » : ;\n')).toBe(0);
  });
});

describe('readingMinutes', () => {
  it(`reads ${WORDS_PER_MINUTE} words a minute, rounded to the nearest minute`, () => {
    expect(readingMinutes(words(230 * 6))).toBe(6);
    expect(readingMinutes(words(230 * 6 + 114))).toBe(6);
    expect(readingMinutes(words(230 * 6 + 116))).toBe(7);
  });

  it('never says less than one minute', () => {
    expect(readingMinutes(words(20))).toBe(1);
    expect(readingMinutes('')).toBe(1);
  });
});

describe('formatReadingTime', () => {
  it('reads « 6 min de lecture », the number held to its unit', () => {
    expect(formatReadingTime(6)).toBe('6\u202fmin de lecture');
  });
});
