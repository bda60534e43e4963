/**
 * Lists that mix kinds of content (an author's page, a tag's page) show them grouped under a
 * heading per kind, so that cards of one shape sit together: stories (articles and émissions,
 * with 16:9 covers), brèves (no cover), podcast episodes (square covers). Pure, safe on both sides.
 */
import type { Teaser } from './corpus';

export type KindGroupId = 'stories' | 'breves' | 'episodes';

export interface KindGroup<T> {
  id: KindGroupId;
  /** The group's heading, in French. */
  label: string;
  items: T[];
}

const GROUP_OF: Record<Teaser['kind'], KindGroupId> = {
  articles: 'stories',
  emissions: 'stories',
  breves: 'breves',
  episode: 'episodes',
};
const ORDER: KindGroupId[] = ['stories', 'breves', 'episodes'];

function storiesLabel(kinds: Set<Teaser['kind']>): string {
  if (kinds.has('articles') && kinds.has('emissions')) return 'Articles et émissions';
  return kinds.has('emissions') ? 'Émissions' : 'Articles';
}

/** The non-empty groups, in a fixed order (stories, brèves, episodes); each keeps its items' order. */
export function groupByKind<T extends Pick<Teaser, 'kind'>>(items: T[]): KindGroup<T>[] {
  const byGroup = new Map<KindGroupId, T[]>();
  for (const item of items) {
    const id = GROUP_OF[item.kind];
    const list = byGroup.get(id);
    if (list) list.push(item);
    else byGroup.set(id, [item]);
  }
  return ORDER.flatMap((id) => {
    const list = byGroup.get(id);
    if (!list) return [];
    const label = id === 'stories' ? storiesLabel(new Set(list.map((t) => t.kind))) : id === 'breves' ? 'Brèves' : 'Épisodes de podcast';
    return [{ id, label, items: list }];
  });
}
