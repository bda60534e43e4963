/**
 * The cooperative's rules (src/config/statutes.yaml), parsed and checked by zod when this module
 * loads, at build and at start, like the catalogue: an invalid file stops both with a French
 * message naming the field. The share register, the subscription form, the assemblies' quorum
 * and tally, the withdrawals and the guide page all read them from here.
 *
 * Fractions are kept exact (numerator and denominator), never as floating-point shares.
 */
import { load } from 'js-yaml';
import { z } from 'zod';
import raw from './statutes.yaml?raw';

/** An exact fraction n/d, 0 ≤ n ≤ d. */
export interface Fraction {
  n: number;
  d: number;
}

const fraction = z
  .string()
  .regex(/^\d{1,3}\/[1-9]\d{0,2}$/, 'fraction attendue, par exemple "1/5"')
  .transform((text): Fraction => {
    const [n, d] = text.split('/').map(Number) as [number, number];
    return { n, d };
  })
  .refine((f) => f.n <= f.d, 'une fraction entre 0 et 1');

const id = z.string().regex(/^[a-z][a-z0-9-]{0,30}$/, 'identifiant en minuscules, chiffres et tirets');
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date attendue au format AAAA-MM-JJ');

const collegeSchema = z
  .object({
    id,
    label: z.string().min(1),
    /** Who belongs to it, as the form and the guide say it. */
    who: z.string().min(1),
    weightPercent: z.number().int().min(10, 'un collège pèse au moins 10 % des voix').max(50, 'un collège pèse au plus 50 % des voix'),
    minimumShares: z.number().int().min(1, 'au moins une part'),
    /** Natural persons subscribe in their own name; legal persons through a representative. */
    person: z.enum(['natural', 'legal', 'any']),
  })
  .strict();

const assemblyRules = z
  .object({
    quorumFirstCall: fraction,
    quorumSecondCall: fraction,
    majority: z.object({ share: fraction, rule: z.enum(['more', 'atLeast']) }).strict(),
  })
  .strict();

export const statutesSchema = z
  .object({
    statutes: z
      .object({ version: z.string().regex(/^[0-9A-Za-z.-]{1,20}$/), adoptedOn: isoDay, pdf: z.string().regex(/^\/documents\/[a-z0-9.-]+\.pdf$/) })
      .strict(),
    shares: z.object({ nominalCents: z.number().int().positive(), maximumPerBulletin: z.number().int().min(1).max(100_000) }).strict(),
    colleges: z.array(collegeSchema).min(3, 'au moins trois collèges'),
    assemblies: z
      .object({
        noticeDays: z.number().int().min(1).max(90),
        proxiesPerMember: z.number().int().min(0).max(50),
        /** Who chairs, who is secretary, how many scrutineers and who (the minutes print them, to be filled in by hand). */
        bureau: z
          .object({ chair: z.string().min(1), secretary: z.string().min(1), scrutineers: z.number().int().min(0).max(4), scrutineersWho: z.string().min(1) })
          .strict(),
        ordinary: assemblyRules,
        extraordinary: assemblyRules,
      })
      .strict(),
    withdrawal: z
      .object({
        financialYearEnds: z.string().regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'jour attendu au format MM-JJ'),
        repaymentWithinYears: z.number().int().min(0).max(5, 'la loi impose un remboursement dans les cinq ans'),
        capitalFloor: fraction.refine((f) => f.n * 4 >= f.d, 'le capital ne peut descendre sous le quart du plus haut capital atteint'),
      })
      .strict(),
  })
  .strict()
  .refine((s) => s.colleges.reduce((sum, c) => sum + c.weightPercent, 0) === 100, 'les poids des collèges doivent faire 100 % en tout')
  .refine((s) => new Set(s.colleges.map((c) => c.id)).size === s.colleges.length, 'deux collèges portent le même identifiant')
  .refine((s) => s.colleges.every((c) => c.minimumShares <= s.shares.maximumPerBulletin), 'le minimum d’un collège dépasse le maximum par bulletin');

export type Statutes = z.output<typeof statutesSchema>;
export type College = Statutes['colleges'][number];
export type AssemblyKind = 'ordinary' | 'extraordinary';

/** Parses and checks a statutes file's text; throws a French message naming each problem. */
export function parseStatutes(text: string): Statutes {
  const parsed = statutesSchema.safeParse(load(text));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'statuts'} : ${i.message}`).join(' ; ');
    throw new Error(`Règles des statuts invalides (src/config/statutes.yaml) : ${problems}`);
  }
  return parsed.data;
}

export const statutes: Statutes = parseStatutes(raw);
export const colleges = statutes.colleges;
export const findCollege = (collegeId: string): College | undefined => colleges.find((c) => c.id === collegeId);

/** « 1/5 » as readers say it: « un cinquième ». */
export function fractionWords(f: Fraction): string {
  if (f.n === 0) return 'aucun';
  const names: Record<string, string> = {
    '1/2': 'la moitié',
    '1/3': 'un tiers',
    '2/3': 'les deux tiers',
    '1/4': 'un quart',
    '3/4': 'les trois quarts',
    '1/5': 'un cinquième',
    '1/10': 'un dixième',
  };
  return names[`${f.n}/${f.d}`] ?? `${f.n}/${f.d}`;
}
