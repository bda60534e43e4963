import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import raw from './statutes.yaml?raw';
import { fractionWords, parseStatutes, statutes } from './statutes';

const edit = (from: string, to: string) => raw.replace(from, to);

describe('the statutes’ rules', () => {
  it('load with three colleges weighing 100 %, and their PDF is served', () => {
    expect(statutes.colleges.map((c) => [c.id, c.weightPercent])).toEqual([
      ['salaries', 35],
      ['lecteurs', 45],
      ['partenaires', 20],
    ]);
    expect(statutes.assemblies.ordinary.quorumFirstCall).toEqual({ n: 1, d: 5 });
    expect(fractionWords(statutes.assemblies.extraordinary.majority.share)).toBe('les deux tiers');
    const pdf = resolve('public', statutes.statutes.pdf.slice(1));
    expect(existsSync(pdf)).toBe(true);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(existsSync(resolve(`src/content/statutes/statuts-${statutes.statutes.version}.md`))).toBe(true);
  });

  it('refuse, in French and naming the field, what the law forbids', () => {
    expect(() => parseStatutes(edit('weightPercent: 35', 'weightPercent: 55'))).toThrow(/au plus 50 %/);
    expect(() => parseStatutes(edit('weightPercent: 35', 'weightPercent: 30'))).toThrow(/100 % en tout/);
    expect(() => parseStatutes(edit('capitalFloor: "1/4"', 'capitalFloor: "1/5"'))).toThrow(/quart/);
    expect(() => parseStatutes(edit('repaymentWithinYears: 5', 'repaymentWithinYears: 6'))).toThrow(/cinq ans/);
    expect(() => parseStatutes(edit('quorumFirstCall: "1/5"', 'quorumFirstCall: "6/5"'))).toThrow(/assemblies\.ordinary\.quorumFirstCall/);
    expect(() => parseStatutes(edit('minimumShares: 4', 'minimumShares: 0'))).toThrow(/colleges\.2\.minimumShares/);
  });
});
