/**
 * The basket of the support path: what the reader chose, as names only — a plan id, or a
 * donation amount and frequency — never a price. It travels in the address
 * (`?formule=annuel&source=printemps`, `?don=2000&frequence=mensuel`), so that it survives a
 * sign-in, an account creation or a sign-in link opened later, and each step prices it again
 * from the catalogue.
 */
import { z } from 'zod';
import { countryField } from '../../lib/countries';
import {
  donationMaximumCents,
  donationMinimumCents,
  findGiftOffer,
  findPlan,
  formatEuros,
  SUBSCRIPTION_VAT_BP,
  vatIncluded,
  type Interval,
} from '../../config/catalog';
import { SOURCE_PATTERN } from '../../lib/campaign';
import { fail, type Result } from '../core/result';

export type Basket =
  { kind: 'plan'; planId: string } | { kind: 'donation'; frequency: 'once' | 'monthly'; amountCents: number } | { kind: 'gift'; offerId: string };

/** The basket priced from the catalogue: the only amounts the rest of the path uses. */
export interface PricedBasket {
  basket: Basket;
  purpose: 'subscription' | 'donation' | 'gift';
  offerId: string;
  /** "Abonnement Mensuel", "Don ponctuel", "Don mensuel". */
  description: string;
  amountCents: number;
  /** Null for a one-off payment. */
  interval: Interval | null;
  vatRateBp: number;
  vatCents: number;
  /** A subscription may be withdrawn from within 14 days; a donation has no withdrawal. */
  withdrawal: boolean;
}

const amountMessage = `Le montant d’un don va de ${formatEuros(donationMinimumCents)} à ${formatEuros(donationMaximumCents)}.`;

/** Euros as typed by a reader ("20", "12,50", "12.5 €") → cents, or NaN. */
export function parseEuros(typed: string): number {
  const cleaned = typed.replace(/\s|€/g, '').replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(cleaned)) return Number.NaN;
  return Math.round(Number(cleaned) * 100);
}

/**
 * The basket from the address or from an offer form: `formule` (a plan id), or `don` (cents) or
 * `montant` (euros typed by the reader, which wins over a preset) with `frequence`
 * (`unique` | `mensuel`).
 */
export function parseBasket(values: Record<string, string | undefined>): Result<{ basket: Basket }> {
  const giftId = values.cadeau?.trim();
  if (giftId) {
    if (!findGiftOffer(giftId)) return fail(422, 'Cette offre cadeau n’existe pas. Choisissez-en une parmi nos abonnements à offrir.');
    return { ok: true, basket: { kind: 'gift', offerId: giftId } };
  }
  const planId = values.formule?.trim();
  if (planId) {
    if (!findPlan(planId)) return fail(422, 'Cette formule d’abonnement n’existe pas. Choisissez-en une parmi nos offres.');
    return { ok: true, basket: { kind: 'plan', planId } };
  }
  const typed = values.montant?.trim();
  // A preset travels as cents, digits only: '1e3' or '0x10' are not amounts.
  const amountCents = typed ? parseEuros(typed) : /^\d{1,9}$/.test(values.don ?? '') ? Number(values.don) : Number.NaN;
  if (!typed && values.don === undefined) return fail(422, 'Choisissez une formule d’abonnement ou le montant de votre don.');
  if (!Number.isInteger(amountCents)) return fail(422, 'Le montant du don doit être un nombre d’euros, par exemple 20 ou 12,50.');
  if (amountCents < donationMinimumCents || amountCents > donationMaximumCents) return fail(422, amountMessage);
  const frequency = values.frequence === 'mensuel' ? 'monthly' : values.frequence === undefined || values.frequence === 'unique' ? 'once' : null;
  if (!frequency) return fail(422, 'Fréquence du don inconnue : choisissez « Une fois » ou « Tous les mois ».');
  return { ok: true, basket: { kind: 'donation', frequency, amountCents } };
}

export function priceBasket(basket: Basket): PricedBasket {
  if (basket.kind === 'gift') {
    const offer = findGiftOffer(basket.offerId);
    if (!offer) throw new Error(`Unknown gift offer ${basket.offerId}: parse the basket first`);
    // A gift is invoiced at the press rate when paid; it starts only when activated, so no
    // immediate-start request (the withdrawal right lasts until activation, CGV art. 8).
    return {
      basket,
      purpose: 'gift',
      offerId: offer.id,
      description: `Abonnement offert ${offer.label}`,
      amountCents: offer.priceCents,
      interval: null,
      vatRateBp: SUBSCRIPTION_VAT_BP,
      vatCents: vatIncluded(offer.priceCents, SUBSCRIPTION_VAT_BP),
      withdrawal: false,
    };
  }
  if (basket.kind === 'plan') {
    const plan = findPlan(basket.planId);
    if (!plan) throw new Error(`Unknown plan ${basket.planId}: parse the basket first`);
    return {
      basket,
      purpose: 'subscription',
      offerId: plan.id,
      description: `Abonnement ${plan.label}`,
      amountCents: plan.priceCents,
      interval: plan.interval,
      vatRateBp: SUBSCRIPTION_VAT_BP,
      vatCents: vatIncluded(plan.priceCents, SUBSCRIPTION_VAT_BP),
      withdrawal: true,
    };
  }
  // Checked again here, whoever built the basket: the only amount a browser may name.
  if (!Number.isInteger(basket.amountCents) || basket.amountCents < donationMinimumCents || basket.amountCents > donationMaximumCents) {
    throw new Error(`Donation amount out of bounds: ${basket.amountCents}; parse the basket first`);
  }
  const monthly = basket.frequency === 'monthly';
  return {
    basket,
    purpose: 'donation',
    offerId: 'don',
    description: monthly ? 'Don mensuel' : 'Don ponctuel',
    amountCents: basket.amountCents,
    interval: monthly ? 'month' : null,
    vatRateBp: 0,
    vatCents: 0,
    withdrawal: false,
  };
}

/** The basket (and source) as an address query, for the next step's link. */
export function basketQuery(basket: Basket, source: string | undefined): string {
  const params = new URLSearchParams();
  if (basket.kind === 'gift') params.set('cadeau', basket.offerId);
  else if (basket.kind === 'plan') params.set('formule', basket.planId);
  else {
    params.set('don', String(basket.amountCents));
    params.set('frequence', basket.frequency === 'monthly' ? 'mensuel' : 'unique');
  }
  if (source) params.set('source', source);
  return params.toString();
}

/** The campaign source from the address or a form: kept only if it is a clean slug. */
export function sourceOf(value: string | undefined | null): string | undefined {
  const v = value?.trim().toLowerCase();
  return v && SOURCE_PATTERN.test(v) ? v : undefined;
}

export const billingSchema = z.object({
  given_name: z.string().trim().min(1, 'Indiquez votre prénom.').max(100, 'Prénom : 100 caractères au plus.'),
  family_name: z.string().trim().min(1, 'Indiquez votre nom.').max(100, 'Nom : 100 caractères au plus.'),
  address_line1: z.string().trim().min(1, 'Indiquez votre adresse postale.').max(200, 'Adresse : 200 caractères au plus.'),
  address_line2: z.string().trim().max(200, 'Complément d’adresse : 200 caractères au plus.').default(''),
  postal_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 -]{3,10}$/, 'Indiquez un code postal valide.'),
  city: z.string().trim().min(1, 'Indiquez votre ville.').max(100, 'Ville : 100 caractères au plus.'),
  country: countryField.default('FR'),
  // An invoice in a business's name (Code de commerce L441-9): both, or neither.
  // (checked together by `businessOf`).
  company: z.string().trim().max(200, 'Raison sociale : 200 caractères au plus.').optional(),
  siren: z
    .string()
    .transform((v) => v.replace(/[\s.]/g, ''))
    .refine((v) => v === '' || isSiren(v), 'Numéro SIREN invalide : neuf chiffres, par exemple 912 345 678.')
    .optional(),
});

/** The business an invoice is made out to, if any: both fields or neither. */
export function businessOf(input: {
  company?: string | undefined;
  siren?: string | undefined;
}): Result<{ business: { company: string; siren: string } | null }> {
  const company = input.company?.trim() ?? '';
  const siren = input.siren ?? '';
  if (!company && !siren) return { ok: true, business: null };
  if (!company || !siren) return fail(422, 'Pour une facture au nom d’une entreprise, indiquez sa raison sociale et son numéro SIREN.');
  return { ok: true, business: { company, siren } };
}

/** A SIREN: nine digits whose Luhn sum is a multiple of ten. */
export function isSiren(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let digit = Number(value[8 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}
