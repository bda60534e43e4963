/**
 * The writing policy (docs/writing.md) where a machine can check it: no word carries a gender
 * mark (« inscrit·e », « remboursé(e) ») in anything a reader, a sociétaire or an editor reads:
 * pages, islands, content, configuration, mails and PDFs (the server's sources).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SOURCES = ['src/pages', 'src/components', 'src/layouts', 'src/content', 'src/config', 'src/lib', 'src/server', 'src/stores'];
const EXTENSIONS = /\.(astro|tsx?|mdx?|ya?ml|json)$/;

/** « inscrit·e », « lecteur·rices »; « remboursé(e) », « inscrit(e)s ». */
const POINT_MEDIAN = /\p{L}·\p{L}/u;
const PARENTHESES = /\p{Ll}(?:é|i|t|u|s)\((?:e|es)\)/u;

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && EXTENSIONS.test(e.name) && !/\.test\.tsx?$/.test(e.name) && e.name !== 'CONTEXT.md')
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

describe('the writing policy', () => {
  it('marks no word with a gender sign, neither a point médian nor parentheses', () => {
    const found: string[] = [];
    for (const file of SOURCES.flatMap(files)) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // The wording of bulletins signed before the policy is kept word for word (their fingerprint covers it).
          if (file === 'src/server/shares/bulletins.ts' && /\blegacy\b/.test(line)) return;
          if (POINT_MEDIAN.test(line) || PARENTHESES.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('would see the marks it forbids', () => {
    for (const text of ['Vous êtes inscrit·e.', 'les lecteur·rices', 'Vous êtes remboursé(e).', 'Je soussigné(e)', 'inscrit(e)s']) {
      expect(POINT_MEDIAN.test(text) || PARENTHESES.test(text), text).toBe(true);
    }
    for (const text of ['dkimOf(e)', 'items.map((e) => e)', 'Déconnexion effectuée.', 'Σ w_c·pour_c']) {
      expect(POINT_MEDIAN.test(text) || PARENTHESES.test(text), text).toBe(text === 'Σ w_c·pour_c');
    }
  });
});
