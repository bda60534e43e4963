/**
 * The count of an assembly, pure and exact: quorum per college and overall, and each
 * resolution's weighted tally. Decisions are taken on exact fractions of big integers, never on
 * floating-point numbers; percentages are only for display.
 *
 * The rule (CONTEXT.md, « Dépouillement »): for each college, pour / (pour + contre) over its
 * votes cast (abstentions are not votes cast), times the college's weight; colleges where no
 * vote was cast are left out and the weights of the others rescaled to 100 %; the resolution
 * passes if that weighted share is more than (`more`) or at least (`atLeast`) the majority.
 */
import type { Fraction } from '../../config/statutes';
import type { BallotChoice } from '../db/database';

/** A non-negative exact fraction of big integers, kept reduced. */
export interface Ratio {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x;
};

export function ratio(n: bigint | number, d: bigint | number): Ratio {
  const nn = BigInt(n);
  const dd = BigInt(d);
  if (dd <= 0n) throw new Error('ratio: the denominator must be positive');
  const g = gcd(nn, dd) || 1n;
  return { n: nn / g, d: dd / g };
}

export const addRatio = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d + b.n * a.d, a.d * b.d);
export const mulRatio = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.n, a.d * b.d);
export const divRatio = (a: Ratio, b: Ratio): Ratio => ratio(a.n * b.d, a.d * b.n);
/** -1, 0 or 1. */
export const compareRatio = (a: Ratio, b: Ratio): number => {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
};

/** « 57,3 % » (rounded half up to a tenth, for display only). */
export function percentText(r: Ratio): string {
  const tenths = (r.n * 2000n + r.d) / (2n * r.d);
  return `${tenths / 10n},${tenths % 10n}\u00a0%`;
}

export const ratioText = (r: Ratio): string => `${r.n}/${r.d}`;

// ---------------------------------------------------------------------------------------------
// Rules

export interface CollegeRule {
  id: string;
  label: string;
  weightPercent: number;
}

export interface MajorityRule {
  share: Fraction;
  rule: 'more' | 'atLeast';
}

// ---------------------------------------------------------------------------------------------
// Quorum

export interface QuorumLine {
  collegeId: string;
  /** Members called. */
  members: number;
  present: number;
  represented: number;
  voted: number;
  /** Members counted once, whether present, represented or having voted. */
  participating: number;
  /** participating / members, for display. */
  rate: string;
}

export interface QuorumResult {
  fraction: string;
  colleges: QuorumLine[];
  overall: Omit<QuorumLine, 'collegeId'>;
  /** participating / members ≥ the call's fraction (an assembly with no member never meets a non-zero quorum). */
  met: boolean;
}

export interface RollMember {
  memberId: string;
  collegeId: string;
}

/**
 * Quorum of an assembly: the members present (declared present or remote), represented
 * (having given a standing proxy) or having voted (at least one ballot, direct or by proxy),
 * each counted once, over the members called.
 */
export function computeQuorum(
  roll: readonly RollMember[],
  sets: { present: ReadonlySet<string>; represented: ReadonlySet<string>; voted: ReadonlySet<string> },
  fraction: Fraction,
  colleges: readonly CollegeRule[],
): QuorumResult {
  const line = (members: readonly RollMember[]) => {
    const count = (set: ReadonlySet<string>) => members.filter((m) => set.has(m.memberId)).length;
    const participating = members.filter((m) => sets.present.has(m.memberId) || sets.represented.has(m.memberId) || sets.voted.has(m.memberId)).length;
    return {
      members: members.length,
      present: count(sets.present),
      represented: count(sets.represented),
      voted: count(sets.voted),
      participating,
      rate: members.length ? percentText(ratio(participating, members.length)) : '—',
    };
  };
  const overall = line(roll);
  const met = overall.members === 0 ? fraction.n === 0 : BigInt(overall.participating) * BigInt(fraction.d) >= BigInt(fraction.n) * BigInt(overall.members);
  return {
    fraction: `${fraction.n}/${fraction.d}`,
    colleges: colleges.map((c) => ({ collegeId: c.id, ...line(roll.filter((m) => m.collegeId === c.id)) })),
    overall,
    met,
  };
}

// ---------------------------------------------------------------------------------------------
// Weighted tally

export interface CollegeCount {
  collegeId: string;
  label: string;
  weightPercent: number;
  pour: number;
  contre: number;
  abstention: number;
  /** pour + contre. */
  cast: number;
  /** Weight after rescaling, as a fraction of 1 (0 for a college without votes cast). */
  effectiveWeight: string;
  /** pour / cast in this college, for display; null without votes cast. */
  pourRate: string | null;
}

export interface ResolutionTally {
  colleges: CollegeCount[];
  /** The weighted share of « pour », exact (`n/d`); null when no vote was cast in any college. */
  share: string | null;
  sharePercent: string | null;
  majority: string;
  rule: 'more' | 'atLeast';
  /** Passed on the votes alone (the quorum is checked apart). */
  passed: boolean;
}

export interface BallotLike {
  collegeId: string;
  choice: BallotChoice;
}

/** The weighted share of « pour » over the colleges with votes cast, or null if there are none. */
export function weightedShare(counts: ReadonlyArray<{ weightPercent: number; pour: number; contre: number }>): Ratio | null {
  const withVotes = counts.filter((c) => c.pour + c.contre > 0);
  if (withVotes.length === 0) return null;
  const totalWeight = withVotes.reduce((sum, c) => sum + BigInt(c.weightPercent), 0n);
  let sum = ratio(0, 1);
  for (const c of withVotes) sum = addRatio(sum, ratio(BigInt(c.weightPercent) * BigInt(c.pour), BigInt(c.pour + c.contre)));
  return divRatio(sum, ratio(totalWeight, 1));
}

/** Whether a share passes the majority: strictly more than it (`more`) or at least it (`atLeast`). */
export function passes(share: Ratio | null, majority: MajorityRule): boolean {
  if (!share) return false;
  const cmp = compareRatio(share, ratio(majority.share.n, majority.share.d));
  return majority.rule === 'more' ? cmp > 0 : cmp >= 0;
}

export function tallyResolution(ballots: readonly BallotLike[], colleges: readonly CollegeRule[], majority: MajorityRule): ResolutionTally {
  const counts = colleges.map((c) => {
    const mine = ballots.filter((b) => b.collegeId === c.id);
    const pour = mine.filter((b) => b.choice === 'pour').length;
    const contre = mine.filter((b) => b.choice === 'contre').length;
    const abstention = mine.filter((b) => b.choice === 'abstention').length;
    return { collegeId: c.id, label: c.label, weightPercent: c.weightPercent, pour, contre, abstention, cast: pour + contre };
  });
  const unknown = ballots.find((b) => !colleges.some((c) => c.id === b.collegeId));
  if (unknown) throw new Error(`tally: a ballot of an unknown college (${unknown.collegeId})`);
  const share = weightedShare(counts);
  const weightWithVotes = counts.filter((c) => c.cast > 0).reduce((sum, c) => sum + c.weightPercent, 0);
  return {
    colleges: counts.map((c) => ({
      ...c,
      effectiveWeight: c.cast > 0 ? ratioText(ratio(c.weightPercent, weightWithVotes)) : '0/1',
      pourRate: c.cast > 0 ? percentText(ratio(c.pour, c.cast)) : null,
    })),
    share: share ? ratioText(share) : null,
    sharePercent: share ? percentText(share) : null,
    majority: `${majority.share.n}/${majority.share.d}`,
    rule: majority.rule,
    passed: passes(share, majority),
  };
}

// ---------------------------------------------------------------------------------------------
// Results of an assembly

export interface ResolutionResult extends ResolutionTally {
  resolutionId: string;
  position: number;
  title: string;
  ballots: number;
  /** Passed on the votes and the quorum was met. */
  adopted: boolean;
}

/**
 * What became of a resolution. Without the quorum the assembly could not deliberate: nothing was
 * decided, so a resolution is neither adopted nor rejected, whatever its votes.
 */
export type ResolutionOutcome = 'adopted' | 'rejected' | 'not_deliberated';

export function resolutionOutcome(quorumMet: boolean, resolution: Pick<ResolutionResult, 'adopted'>): ResolutionOutcome {
  if (!quorumMet) return 'not_deliberated';
  return resolution.adopted ? 'adopted' : 'rejected';
}

/** How a resolution's outcome is written for members, in mails, pages and the minutes. */
export const OUTCOME_LABEL: Readonly<Record<ResolutionOutcome, string>> = {
  adopted: 'adoptée',
  rejected: 'rejetée',
  not_deliberated: 'non délibérée, faute de quorum',
};

export interface AssemblyResults {
  assemblyId: string;
  closedAt: string;
  quorum: QuorumResult;
  resolutions: ResolutionResult[];
  /** Ballots in the box, all resolutions together. */
  ballots: number;
  /** sha-256 of the published list of ballots (shares/ballots.ts `ballotsDigest`). */
  ballotsDigest: string;
}
