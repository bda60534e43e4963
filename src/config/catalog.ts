/**
 * What readers can buy or give: plans, gifts, donation presets and the share price.
 * Amounts are integer cents (EUR). The revenue work moves this into the catalog domain,
 * editable without code; pages read it from here until then.
 */
export interface Plan {
  id: string;
  label: string;
  interval: 'month' | 'year';
  priceCents: number;
  /** The tarif solidaire, for those who need it. */
  reduced?: boolean;
  description: string;
  highlighted?: boolean;
}

export const plans: Plan[] = [
  { id: 'mensuel', label: 'Mensuel', interval: 'month', priceCents: 700, description: 'Sans engagement, résiliable en trois clics.' },
  { id: 'annuel', label: 'Annuel', interval: 'year', priceCents: 7000, description: 'Deux mois offerts par rapport au mensuel.', highlighted: true },
  { id: 'solidaire', label: 'Solidaire', interval: 'month', priceCents: 300, reduced: true, description: 'Pour les étudiants, les chômeurs et les petits revenus, sur l’honneur.' },
];

export interface GiftOffer { id: string; label: string; months: number; priceCents: number; description: string }

export const giftOffers: GiftOffer[] = [
  { id: 'cadeau-6-mois', label: '6 mois', months: 6, priceCents: 4000, description: 'Un code cadeau à offrir, valable six mois d’abonnement.' },
  { id: 'cadeau-1-an', label: '1 an', months: 12, priceCents: 7000, description: 'Un an d’abonnement, à offrir par e-mail ou à imprimer.' },
];

/** One-off and monthly donation presets; any amount from the minimum is accepted. */
export const donationPresetsCents = [2000, 5000, 10000, 25000];
export const donationMinimumCents = 500;
/** Share of a donation deductible from income tax (when the organisation is eligible). */
export const donationTaxReductionRate = 0.66;

/** Nominal value of one part sociale, set by the statutes. */
export const sharePriceCents = 5000;

const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR', minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** "7 €", "3,50 €" — amounts as French readers write them. */
export function formatEuros(cents: number): string {
  return euros.format(cents / 100);
}

export const intervalLabel = (interval: Plan['interval']) => (interval === 'month' ? 'par mois' : 'par an');
