/**
 * The one source of every figure about the cooperative that a page shows: the register, read
 * live by /devenir-societaire/chiffres.json (src/server/shares/service.ts, `cooperativeFigures`)
 * and worded here for CooperativeFigures.astro, on /soutenir as on /devenir-societaire. No page
 * or content writes such a figure by hand (cooperative-figures.test.ts checks it): a number
 * typed once goes stale the day after.
 */
export const COOPERATIVE_FIGURES_URL = '/devenir-societaire/chiffres.json';

/** « Aujourd’hui, 14 sociétaires détiennent 52 parts de Contrechamp. »; null for anything unusable. */
export function cooperativeFiguresText(figures: unknown): string | null {
  if (!figures || typeof figures !== 'object') return null;
  const { members, shares } = figures as { members?: unknown; shares?: unknown };
  if (!Number.isInteger(members) || !Number.isInteger(shares)) return null;
  const m = members as number;
  const s = shares as number;
  if (m < 1 || s < 1) return null;
  const n = new Intl.NumberFormat('fr-FR');
  return m === 1
    ? `Aujourd’hui, 1 sociétaire détient ${n.format(s)} part${s > 1 ? 's' : ''} de Contrechamp.`
    : `Aujourd’hui, ${n.format(m)} sociétaires détiennent ${n.format(s)} parts de Contrechamp.`;
}
