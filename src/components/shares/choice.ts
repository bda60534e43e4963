/**
 * The shares chosen before the account step (`?parts=3&college=lecteurs`): it travels in the
 * address, like the support path's basket, so that it survives a sign-in or an account created.
 * Only the number and the college: the identity and the signature come on the bulletin itself.
 */
import { colleges, findCollege, statutes, type College } from '../../config/statutes';

export type SharesChoice = { ok: true; parts: number; college: College; query: string } | { ok: false; message: string };

export function readChoice(params: URLSearchParams): SharesChoice | null {
  if (!params.has('parts') && !params.has('college')) return null;
  const parts = Number(params.get('parts'));
  const college = findCollege(params.get('college') ?? '');
  if (!college) return { ok: false, message: `Choisissez un collège parmi\u00a0: ${colleges.map((c) => c.label).join(', ')}.` };
  if (!Number.isSafeInteger(parts) || parts < college.minimumShares || parts > statutes.shares.maximumPerBulletin) {
    return { ok: false, message: `Le collège ${college.label} demande entre ${college.minimumShares} et ${statutes.shares.maximumPerBulletin} parts.` };
  }
  return { ok: true, parts, college, query: new URLSearchParams({ parts: String(parts), college: college.id }).toString() };
}
