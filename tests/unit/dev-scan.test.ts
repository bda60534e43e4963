/**
 * `npm run dev` pre-bundles dependencies after a scan that reads every `<script` text of an
 * `.astro` file as a script, comments of the front matter included. One such comment made the
 * scan fail with a PARSE_ERROR (and skip pre-bundling) on the first start of every contributor.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const astroFiles = execFileSync('git', ['ls-files', '-z', '--', '*.astro'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);

/** The front matter of an .astro file: between the first two `---` lines. */
const frontMatter = (text: string) => /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';

describe('sources that Vite’s dependency scan reads', () => {
  it('no .astro front matter writes out a script tag', () => {
    expect(astroFiles.length).toBeGreaterThan(50);
    const offenders = astroFiles.filter((file) => /<script/i.test(frontMatter(readFileSync(join(ROOT, file), 'utf8'))));
    expect(offenders).toEqual([]);
  });
});
