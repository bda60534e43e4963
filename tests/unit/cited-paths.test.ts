/**
 * Every path that the README, the docs, a `CONTEXT.md` or a code comment cites exists: a
 * renamed or deleted file leaves no reader following a dead trail. Paths are read where a reader
 * would take them as paths: from the repository's root (`src/…`, `scripts/…`, `tests/…`,
 * `docs/…`, `deploy/…`, `public/…`, `.ci/…`) anywhere, and, in Markdown, a backticked relative
 * path (`subscriptions/queries.ts`) from the file's folder or from `src/server/`. An example that
 * is not a file says so with a placeholder (`<slug>`, `x`, `…`, a name cut before a `{variable}`) and is skipped.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const known = new Set(tracked);
for (const file of tracked) {
  const parts = file.split('/');
  for (let i = 1; i < parts.length; i++) known.add(parts.slice(0, i).join('/'));
}

const CODE = /\.(ts|tsx|mjs|cjs|js|astro|css)$/;
const ROOTED = /(?<![\w@./:~-])((?:\.\.?\/)*(?:src|scripts|tests|docs|deploy|public|\.ci)\/(?:[\w.-]|\[[\w.]+\])*(?:\/(?:[\w.-]|\[[\w.]+\])+)*)/g;
const RELATIVE = /`((?:[\w-]+\/)+[\w.-]+\.(?:ts|tsx|mjs|md|astro|yaml|css))`/g;
const EXTENSIONS = ['', '.ts', '.tsx', '.mjs', '.astro', '.md'];
/** Placeholders of examples, never files. */
const EXAMPLE = /(^|\/)(x|y|foo|example|exemple)(\.\w+)?$|<|…|\*|-$/;

/** The comment text of a code file, line by line (strings and imports are the compiler's business). */
function comments(text: string): string {
  const out: string[] = [];
  let block = false;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (block || t.startsWith('/*') || t.startsWith('{/*') || t.startsWith('<!--')) {
      out.push(line);
      block = !/\*\/|-->/.test(t.replace(/^\/\*+/, '')) || (block && !/\*\/|-->/.test(t));
      continue;
    }
    if (t.startsWith('//') || t.startsWith('#')) out.push(line);
    else if (/\s\/\/\s/.test(line) && !/['"`][^'"`]*\/\/[^'"`]*['"`]/.test(line)) out.push(line.slice(line.indexOf(' //')));
  }
  return out.join('\n');
}

function exists(path: string, from: string[]): boolean {
  return from.some((base) => EXTENSIONS.some((ext) => known.has(normalize(join(base, path)).replace(/\/$/, '') + ext)));
}

function deadCitations(): string[] {
  const dead: string[] = [];
  for (const file of tracked) {
    if (file.startsWith('src/content/') || file.startsWith('public/') || file === 'package-lock.json') continue;
    const markdown = file.endsWith('.md');
    if (!markdown && !CODE.test(file) && file !== '.ci/run') continue;
    const raw = readFileSync(join(ROOT, file), 'utf8');
    const text = markdown ? raw : comments(raw);
    const here = dirname(file);
    for (const match of text.matchAll(ROOTED)) {
      const path = match[1]!.replace(/[.]+$/, '');
      if (EXAMPLE.test(path)) continue;
      if (!exists(path, path.startsWith('.') ? [here, '.'] : ['.', here])) dead.push(`${file} : ${path}`);
    }
    if (!markdown) continue;
    for (const match of text.matchAll(RELATIVE)) {
      const path = match[1]!;
      if (EXAMPLE.test(path) || /^(src|scripts|tests|docs|deploy|public)\//.test(path)) continue;
      if (!exists(path, [here, 'src/server', 'src', '.'])) dead.push(`${file} : ${path}`);
    }
  }
  return dead;
}

describe('cited paths', () => {
  it('every path cited in the README, the docs, a CONTEXT.md or a comment exists', () => {
    expect(deadCitations()).toEqual([]);
  });

  it('would catch a dead one', () => {
    known.delete('docs/deploy.md');
    try {
      expect(deadCitations().some((line) => line.endsWith(': docs/deploy.md'))).toBe(true);
    } finally {
      known.add('docs/deploy.md');
    }
  });
});
