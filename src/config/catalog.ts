/**
 * The catalogue (src/config/catalog.yaml), parsed and checked by zod when this module loads:
 * at build, where a prerendered offer page imports it, and at start, where the server does. An
 * invalid file stops both with a French message naming the field. The YAML is bundled into the
 * build, so a running site sells exactly what it was built with.
 *
 * Amounts are integer cents (EUR), all taxes included. The server prices every basket from
 * here (src/server/catalog); the browser only ever names an offer or a donation amount.
 */
import { load } from 'js-yaml';
import { z } from 'zod';
import raw from './catalog.yaml?raw';
import { statutes } from './statutes';

const cents = z.number().int('doit être un nombre entier de centimes').positive('doit être positif');
const id = z.string().regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'identifiant en minuscules, chiffres et tirets');

const planSchema = z
  .object({
    id,
    label: z.string().min(1),
    interval: z.enum(['month', 'year']),
    priceCents: cents,
    /** The tarif solidaire, for those who need it. */
    reduced: z.boolean().default(false),
    description: z.string().min(1),
    highlighted: z.boolean().default(false),
  })
  .strict();

const giftSchema = z
  .object({ id, label: z.string().min(1), months: z.number().int().min(1).max(36), priceCents: cents, description: z.string().min(1) })
  .strict();

export const catalogSchema = z
  .object({
    vat: z.object({ cppapRecognised: z.boolean() }).strict(),
    plans: z.array(planSchema).min(1),
    donations: z
      .object({
        presetsCents: z.array(cents).min(1).max(6),
        minimumCents: cents,
        maximumCents: cents,
        pressFundUrl: z
          .url({ protocol: /^https$/ })
          .or(z.literal(''))
          .default(''),
        pressFundName: z.string().default(''),
      })
      .strict()
      .refine((d) => d.minimumCents < d.maximumCents, 'le minimum doit être inférieur au maximum')
      .refine(
        (d) => d.presetsCents.every((p) => p >= d.minimumCents && p <= d.maximumCents),
        'chaque montant proposé doit être entre le minimum et le maximum',
      ),
    gifts: z.array(giftSchema),
  })
  .strict()
  .refine((c) => new Set(c.plans.map((p) => p.id)).size === c.plans.length, 'deux formules portent le même identifiant')
  .refine((c) => new Set(c.gifts.map((g) => g.id)).size === c.gifts.length, 'deux offres cadeau portent le même identifiant');

export type Catalog = z.output<typeof catalogSchema>;
export type Plan = Catalog['plans'][number];
export type GiftOffer = Catalog['gifts'][number];
export type Interval = Plan['interval'];

/** Parses and checks a catalogue file's text; throws a French message naming each problem. */
export function parseCatalog(text: string): Catalog {
  const parsed = catalogSchema.safeParse(load(text));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'catalogue'} : ${i.message}`).join(' ; ');
    throw new Error(`Catalogue invalide (src/config/catalog.yaml) : ${problems}`);
  }
  return parsed.data;
}

export const catalog: Catalog = parseCatalog(raw);

export const plans = catalog.plans;
export const giftOffers = catalog.gifts;
export const donationPresetsCents = catalog.donations.presetsCents;
export const donationMinimumCents = catalog.donations.minimumCents;
export const donationMaximumCents = catalog.donations.maximumCents;
/** The nominal value of one share, from the statutes (src/config/statutes.yaml). */
export const sharePriceCents = statutes.shares.nominalCents;

/** VAT on subscriptions, in basis points: 2.1 % (210) for CPPAP-recognised online press, else 20 % (2000). */
export const SUBSCRIPTION_VAT_BP = catalog.vat.cppapRecognised ? 210 : 2000;

export function findGiftOffer(offerId: string): GiftOffer | undefined {
  return giftOffers.find((g) => g.id === offerId);
}

export function findPlan(planId: string): Plan | undefined {
  return plans.find((p) => p.id === planId);
}

/**
 * The VAT inside an amount that includes it, rounded to the cent (the rest is the price before
 * tax): 7,00 € at 2.1 % holds 0,14 € of VAT.
 */
export function vatIncluded(amountCents: number, rateBp: number): number {
  return Math.round((amountCents * rateBp) / (10_000 + rateBp));
}

/** "7 €", "3,50 €", "2,1 %": the site's one way to write amounts and rates (src/lib/money.ts). */
export { formatEuros, formatRate } from '../lib/money';

export const intervalLabel = (interval: Interval) => (interval === 'month' ? 'par mois' : 'par an');

/** What a plan costs per month and per year, for "7 € par mois, soit 84 € par an". */
export function perMonthAndYear(priceCents: number, interval: Interval): { monthCents: number; yearCents: number } {
  return interval === 'month' ? { monthCents: priceCents, yearCents: priceCents * 12 } : { monthCents: Math.round(priceCents / 12), yearCents: priceCents };
}
