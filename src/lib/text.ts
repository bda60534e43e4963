/** French text helpers, safe on both sides. */

/** "0 contenu", "1 épisode", "12 épisodes": in French, 0 and 1 take the singular. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('fr-FR')} ${Math.abs(count) < 2 ? singular : plural}`;
}
