import { describe, expect, it } from 'vitest';
import { groupByKind } from './kind-groups';
import type { Teaser } from './corpus';

const item = (kind: Teaser['kind'], n: number) => ({ kind, n });

describe('groupByKind', () => {
  it('puts stories, brèves and episodes each under their heading, in that order, keeping each one’s order', () => {
    const mixed = [item('episode', 1), item('articles', 2), item('breves', 3), item('emissions', 4), item('articles', 5), item('episode', 6)];
    const groups = groupByKind(mixed);
    expect(groups.map((g) => g.label)).toEqual(['Articles et émissions', 'Brèves', 'Épisodes de podcast']);
    expect(groups.map((g) => g.items.map((i) => i.n))).toEqual([[2, 4, 5], [3], [1, 6]]);
  });

  it('names the stories group after what it holds, and leaves out empty groups', () => {
    expect(groupByKind([item('articles', 1)]).map((g) => g.label)).toEqual(['Articles']);
    expect(groupByKind([item('emissions', 1), item('episode', 2)]).map((g) => g.label)).toEqual(['Émissions', 'Épisodes de podcast']);
    expect(groupByKind([])).toEqual([]);
  });
});
