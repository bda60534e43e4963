/**
 * The count, on random assemblies: the weighted tally and the quorum against a plain reference
 * computation (cross-multiplied big integers, no reduction, no floats), and the properties the
 * rule promises (abstentions and silent colleges change nothing, order changes nothing).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { colleges as statuteColleges, statutes } from '../../config/statutes';
import { type BallotLike, computeQuorum, type CollegeRule, type MajorityRule, passes, tallyResolution, weightedShare } from './tally';

const choice = fc.constantFrom('pour' as const, 'contre' as const, 'abstention' as const);

/** 1 to 5 colleges with positive weights, and ballots in them. */
const assemblyArb = fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 5 }).chain((weights) => {
  const colleges: CollegeRule[] = weights.map((w, i) => ({ id: `c${i}`, label: `Collège ${i}`, weightPercent: w }));
  const ballot = fc.record({ collegeId: fc.constantFrom(...colleges.map((c) => c.id)), choice });
  return fc.record({ colleges: fc.constant(colleges), ballots: fc.array(ballot, { maxLength: 120 }) });
});

const majorityArb: fc.Arbitrary<MajorityRule> = fc
  .record({ d: fc.integer({ min: 1, max: 12 }), n: fc.integer({ min: 0, max: 12 }), rule: fc.constantFrom('more' as const, 'atLeast' as const) })
  .map(({ n, d, rule }) => ({ share: { n: Math.min(n, d), d }, rule }));

/**
 * Reference: with t_c = pour_c + contre_c over the colleges where t_c > 0, W = Σ w_c,
 * share = Σ w_c·pour_c/t_c / W; compared with m = mn/md by cross-multiplying everything by
 * W·md·Π t_c.
 */
function referencePasses(colleges: readonly CollegeRule[], ballots: readonly BallotLike[], majority: MajorityRule): boolean {
  const lines = colleges
    .map((c) => {
      const mine = ballots.filter((b) => b.collegeId === c.id);
      return {
        w: BigInt(c.weightPercent),
        pour: BigInt(mine.filter((b) => b.choice === 'pour').length),
        total: BigInt(mine.filter((b) => b.choice !== 'abstention').length),
      };
    })
    .filter((l) => l.total > 0n);
  if (lines.length === 0) return false;
  const product = lines.reduce((p, l) => p * l.total, 1n);
  const weights = lines.reduce((s, l) => s + l.w, 0n);
  const left = lines.reduce((s, l) => s + l.w * l.pour * (product / l.total), 0n) * BigInt(majority.share.d);
  const right = BigInt(majority.share.n) * weights * product;
  return majority.rule === 'more' ? left > right : left >= right;
}

function floatShare(colleges: readonly CollegeRule[], ballots: readonly BallotLike[]): number | null {
  let sum = 0;
  let weights = 0;
  for (const c of colleges) {
    const mine = ballots.filter((b) => b.collegeId === c.id);
    const pour = mine.filter((b) => b.choice === 'pour').length;
    const total = mine.filter((b) => b.choice !== 'abstention').length;
    if (total === 0) continue;
    sum += (c.weightPercent * pour) / total;
    weights += c.weightPercent;
  }
  return weights === 0 ? null : sum / weights;
}

describe('weighted tally', () => {
  it('decides as the reference computation on random assemblies, and its share is the float one', () => {
    fc.assert(
      fc.property(assemblyArb, majorityArb, ({ colleges, ballots }, majority) => {
        const tally = tallyResolution(ballots, colleges, majority);
        expect(tally.passed).toBe(referencePasses(colleges, ballots, majority));
        const f = floatShare(colleges, ballots);
        if (f === null) expect(tally.share).toBeNull();
        else {
          const [n, d] = tally.share!.split('/').map(Number) as [number, number];
          expect(Math.abs(n / d - f)).toBeLessThan(1e-9);
        }
        // Counts per college add up to the ballots.
        expect(tally.colleges.reduce((s, c) => s + c.pour + c.contre + c.abstention, 0)).toBe(ballots.length);
      }),
      { numRuns: 500 },
    );
  });

  it('abstentions are not votes cast: adding some changes neither the share nor the decision', () => {
    fc.assert(
      fc.property(assemblyArb, majorityArb, fc.array(fc.nat(), { maxLength: 30 }), ({ colleges, ballots }, majority, extra) => {
        const more = [...ballots, ...extra.map((i) => ({ collegeId: colleges[i % colleges.length]!.id, choice: 'abstention' as const }))];
        const a = tallyResolution(ballots, colleges, majority);
        const b = tallyResolution(more, colleges, majority);
        expect([b.share, b.passed]).toEqual([a.share, a.passed]);
      }),
    );
  });

  it('a college without votes cast is left out and the other weights rescaled: the same as if it did not exist', () => {
    fc.assert(
      fc.property(assemblyArb, majorityArb, fc.integer({ min: 1, max: 60 }), fc.nat({ max: 5 }), ({ colleges, ballots }, majority, weight, abstentions) => {
        const silent: CollegeRule = { id: 'silent', label: 'Muet', weightPercent: weight };
        const withSilent = [...ballots, ...Array.from({ length: abstentions }, () => ({ collegeId: 'silent', choice: 'abstention' as const }))];
        const a = tallyResolution(ballots, colleges, majority);
        const b = tallyResolution(withSilent, [...colleges, silent], majority);
        expect([b.share, b.passed]).toEqual([a.share, a.passed]);
        expect(b.colleges.find((c) => c.collegeId === 'silent')!.effectiveWeight).toBe('0/1');
      }),
    );
  });

  it('the order of the ballots changes nothing', () => {
    fc.assert(
      fc.property(assemblyArb, majorityArb, fc.nat(), ({ colleges, ballots }, majority, seed) => {
        const shuffled = [...ballots].sort((x, y) => ((ballots.indexOf(x) * 7919 + seed) % 101) - ((ballots.indexOf(y) * 7919 + seed) % 101));
        expect(tallyResolution(shuffled, colleges, majority)).toEqual(tallyResolution(ballots, colleges, majority));
      }),
    );
  });

  it('a share exactly at the majority passes « at least » and fails « more than »', () => {
    const colleges = statuteColleges.map((c) => ({ id: c.id, label: c.label, weightPercent: c.weightPercent }));
    const half = colleges.flatMap((c) => [
      { collegeId: c.id, choice: 'pour' as const },
      { collegeId: c.id, choice: 'contre' as const },
    ]);
    expect(tallyResolution(half, colleges, statutes.assemblies.ordinary.majority)).toMatchObject({ share: '1/2', passed: false });
    expect(tallyResolution(half, colleges, { share: { n: 1, d: 2 }, rule: 'atLeast' }).passed).toBe(true);
    const twoThirds = colleges.flatMap((c) => [
      { collegeId: c.id, choice: 'pour' as const },
      { collegeId: c.id, choice: 'pour' as const },
      { collegeId: c.id, choice: 'contre' as const },
    ]);
    expect(tallyResolution(twoThirds, colleges, statutes.assemblies.extraordinary.majority)).toMatchObject({ share: '2/3', passed: true });
    expect(tallyResolution(twoThirds, colleges, { share: { n: 2, d: 3 }, rule: 'more' }).passed).toBe(false);
  });

  it('rescales the weights of the colleges that voted: 35 % pour and 45 % contre give 35/80', () => {
    const colleges = statuteColleges.map((c) => ({ id: c.id, label: c.label, weightPercent: c.weightPercent }));
    const tally = tallyResolution(
      [
        { collegeId: 'salaries', choice: 'pour' },
        { collegeId: 'lecteurs', choice: 'contre' },
        { collegeId: 'lecteurs', choice: 'contre' },
        { collegeId: 'partenaires', choice: 'abstention' },
      ],
      colleges,
      statutes.assemblies.ordinary.majority,
    );
    expect(tally).toMatchObject({ share: '7/16', sharePercent: '43,8\u00a0%', passed: false });
    expect(tally.colleges.map((c) => c.effectiveWeight)).toEqual(['7/16', '9/16', '0/1']);
    // One vote pour in a small college outweighs many against in a big one, by design.
    const small = tallyResolution(
      [{ collegeId: 'salaries', choice: 'pour' }, ...Array.from({ length: 9 }, () => ({ collegeId: 'partenaires', choice: 'contre' as const }))],
      colleges,
      statutes.assemblies.ordinary.majority,
    );
    expect(small).toMatchObject({ share: '7/11', passed: true });
  });

  it('no vote cast anywhere: no share, not passed', () => {
    expect(weightedShare([])).toBeNull();
    expect(passes(null, { share: { n: 0, d: 1 }, rule: 'atLeast' })).toBe(false);
  });
});

describe('quorum', () => {
  const rollArb = fc.array(fc.record({ college: fc.nat({ max: 2 }), present: fc.boolean(), represented: fc.boolean(), voted: fc.boolean() }), {
    maxLength: 80,
  });
  const fractionArb = fc.record({ d: fc.integer({ min: 1, max: 10 }), n: fc.integer({ min: 0, max: 10 }) }).map(({ n, d }) => ({ n: Math.min(n, d), d }));
  const colleges: CollegeRule[] = [0, 1, 2].map((i) => ({ id: `c${i}`, label: `C${i}`, weightPercent: [35, 45, 20][i]! }));

  it('counts each member once, present, represented or having voted, and compares with the fraction as the reference does', () => {
    fc.assert(
      fc.property(rollArb, fractionArb, (members, fraction) => {
        const roll = members.map((m, i) => ({ memberId: `m${i}`, collegeId: `c${m.college}` }));
        const sets = {
          present: new Set(members.flatMap((m, i) => (m.present ? [`m${i}`] : []))),
          represented: new Set(members.flatMap((m, i) => (m.represented ? [`m${i}`] : []))),
          voted: new Set(members.flatMap((m, i) => (m.voted ? [`m${i}`] : []))),
        };
        const q = computeQuorum(roll, sets, fraction, colleges);
        let participating = 0;
        for (const m of members) if (m.present || m.represented || m.voted) participating++;
        expect(q.overall.participating).toBe(participating);
        expect(q.overall.members).toBe(members.length);
        // Reference: participating/members ≥ n/d; an empty roll meets only a zero quorum.
        const reference = members.length === 0 ? fraction.n === 0 : participating * fraction.d >= fraction.n * members.length;
        expect(q.met).toBe(reference);
        expect(q.colleges.reduce((s, c) => s + c.participating, 0)).toBe(participating);
        expect(q.colleges.reduce((s, c) => s + c.members, 0)).toBe(members.length);
      }),
      { numRuns: 500 },
    );
  });

  it('one fifth exactly meets the ordinary first call; the second call needs nobody', () => {
    const roll = Array.from({ length: 10 }, (_, i) => ({ memberId: `m${i}`, collegeId: 'c0' }));
    const empty = new Set<string>();
    expect(
      computeQuorum(roll, { present: new Set(['m1']), represented: new Set(['m2']), voted: empty }, statutes.assemblies.ordinary.quorumFirstCall, colleges).met,
    ).toBe(true);
    expect(
      computeQuorum(
        roll,
        { present: new Set(['m1']), represented: new Set(['m1']), voted: new Set(['m1']) },
        statutes.assemblies.ordinary.quorumFirstCall,
        colleges,
      ).met,
    ).toBe(false);
    expect(computeQuorum(roll, { present: empty, represented: empty, voted: empty }, statutes.assemblies.ordinary.quorumSecondCall, colleges).met).toBe(true);
  });
});
