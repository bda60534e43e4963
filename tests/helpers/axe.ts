/**
 * The axe rules every spec runs: WCAG 2.0, 2.1 and 2.2 at levels A and AA (RGAA 4.1 rests on
 * 2.1; 2.2 adds target size, `target-size`), and axe's best practices. One list, used everywhere;
 * a module of its own so that a spec can take it without the database helpers.
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
