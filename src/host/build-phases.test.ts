import { describe, expect, it } from 'vitest';
import { BuildPhases, SUMMARY_PREFIX, isDetail, readSummary, seconds } from './build-phases.ts';

// Lines as Astro 7 prints them (colours included), from a 10,000-story incremental build.
const LOG = [
  '15:44:45 [content] Syncing content',
  '15:44:49 [types] Generated 5.52s',
  '15:44:55 \x1b[2m[vite]\x1b[22m \x1b[32m✓ built in 5.76s\x1b[39m',
  '15:45:01 [vite] ✓ built in 5.21s',
  '15:45:02 [vite] ✓ built in 771ms',
  '\x1b[42m\x1b[30m prerendering static routes \x1b[39m\x1b[49m',
  '15:45:13   \x1b[34m├─\x1b[39m \x1b[2m/abonnement/index.html\x1b[22m \x1b[2m(+114ms)\x1b[22m ',
  '15:45:13   ├─ /articles/2026/x/index.html (+9ms) ',
  '15:45:14   ├─ /articles/2025/y/index.html \x1b[32m(restored)\x1b[39m',
  '15:45:14   ├─ /articles/2025/z/index.html (cached)',
  '15:45:23 ✓ Completed in 21.76s.',
  ' generating optimized images ',
  '15:45:23   ▶ /_astro/foret.DrVlgHlu_1km34f.webp (before: 42kB, after: 15kB) (+62ms) (201/215)',
  '15:45:24 ✓ Completed in 120ms.',
  '15:45:24 [build] Rearranging server assets...',
  '15:45:24 [build] ✓ Completed in 34.09s.',
  '15:45:27 [contrechamp:pagefind] search index done in 3.7 s',
  '15:45:28 [contrechamp:sitemap-timing] written in 0.99 s',
];

describe('a build’s phases, read from its log', () => {
  it('times each phase and counts the pages rendered and reused', () => {
    const phases = new BuildPhases();
    for (const line of LOG) phases.read(line);
    expect(phases.summary()).toEqual({ content: 5.5, bundle: 11.7, pages: 21.8, images: 0.1, search: 3.7, sitemap: 1, rendered: 2, reused: 2 });
  });

  it('leaves the lines about single pages and images out of the editors’ log, and nothing else', () => {
    expect(LOG.filter(isDetail)).toHaveLength(5);
    expect(LOG.filter((line) => !isDetail(line)).some((line) => line.includes('Completed in 21.76s'))).toBe(true);
  });

  it('reads durations as Astro writes them', () => {
    expect(seconds('1m 4s')).toBe(64);
    expect(seconds('145ms')).toBeCloseTo(0.145);
    expect(seconds('0.5 s')).toBe(0.5);
  });

  it('finds the summary at the end of a log', () => {
    expect(readSummary(`x\n${SUMMARY_PREFIX}{"total":9.5}\n`)).toEqual({ total: 9.5 });
    expect(readSummary('no summary')).toBeNull();
  });
});
