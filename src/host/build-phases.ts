/**
 * The phases of a build, read from Astro's log as it goes: how long each took, and how many
 * pages were rendered or reused (incremental builds). src/host/build.ts prints them at the
 * end of every build's log; the publish benchmark reads them there.
 */

// eslint-disable-next-line no-control-regex
const COLOURS = /\x1b\[[0-9;]*m/g;

/** "1m 4s", "22.51s", "145ms", "0.5 s" → seconds. */
export function seconds(text: string | undefined): number {
  const m = /(?:(\d+)m\s*)?([\d.]+)\s*(ms|s)\b/.exec(text ?? '');
  if (!m) return NaN;
  return Number(m[1] ?? 0) * 60 + Number(m[2]) / (m[3] === 'ms' ? 1000 : 1);
}

/** Whether a line only lists one page or one image (thousands of them): left out of the log. */
export function isDetail(line: string): boolean {
  const text = line.replace(COLOURS, '');
  return /^\s*(\d\d:\d\d:\d\d\s+)?\s*(├─|└─|▶)/.test(text);
}

/** The phases a build's log is cut into, in seconds. */
export type Phase = 'content' | 'bundle' | 'pages' | 'images' | 'search' | 'sitemap';
/** The summary line: the phases, the pages rendered and reused; build.ts adds `move` and `total`. */
export type BuildSummary = Record<Phase, number> & { rendered: number; reused: number; move?: number; total?: number };

export class BuildPhases {
  #stage: '' | 'pages' | 'images' = '';
  phases: Record<Phase, number> = { content: 0, bundle: 0, pages: 0, images: 0, search: 0, sitemap: 0 };
  rendered = 0;
  reused = 0;

  /** Reads one line of Astro's output. */
  read(line: string): void {
    const text = line.replace(COLOURS, '');
    if (/├─|└─/.test(text) && !/▶/.test(text)) {
      if (/\((cached|restored)\)/.test(text)) this.reused += 1;
      else this.rendered += 1;
      return;
    }
    if (text.includes('[types] Generated')) this.phases.content = seconds(text.split('Generated')[1]);
    else if (text.includes('[vite] ✓ built in')) this.phases.bundle += seconds(text.split('built in')[1]);
    else if (/(prerendering|generating) static routes/.test(text)) this.#stage = 'pages';
    else if (text.includes('generating optimized images')) this.#stage = 'images';
    else if (text.includes('✓ Completed in') && this.#stage) {
      this.phases[this.#stage] = seconds(text.split('Completed in')[1]);
      this.#stage = '';
    } else if (text.includes('[contrechamp:pagefind]') && text.includes('search index done in')) this.phases.search = seconds(text.split(' in ').pop());
    else if (text.includes('[contrechamp:sitemap-timing]')) this.phases.sitemap = seconds(text.split(' in ').pop());
  }

  summary(): BuildSummary {
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      ...(Object.fromEntries(Object.entries(this.phases).map(([k, v]) => [k, round(v)])) as Record<Phase, number>),
      rendered: this.rendered,
      reused: this.reused,
    };
  }
}

/** The summary line build.ts prints last, and its reading. */
export const SUMMARY_PREFIX = '[build] phases ';
export function readSummary(log: string): BuildSummary | null {
  const line = log
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(SUMMARY_PREFIX));
  return line ? JSON.parse(line.slice(SUMMARY_PREFIX.length)) : null;
}
