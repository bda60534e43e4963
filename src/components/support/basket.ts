/**
 * The reader's choice (basket) as the support pages read, show and pass it on. Parsing and
 * pricing are the catalog domain's (src/server/catalog/basket.ts); this only words it for
 * readers and carries it from one step to the next, in the address or in hidden fields.
 */
import { formatEuros, formatRate, intervalLabel, perMonthAndYear, type Interval } from '../../config/catalog';
import { basketQuery, parseBasket, priceBasket, sourceOf, type Basket, type PricedBasket } from '../../server/catalog/basket';
import type { Order } from '../../server/orders/public';
import { withSource } from './source';

export type BasketRead =
  { ok: true; basket: Basket; priced: PricedBasket; source: string | undefined; query: string } | { ok: false; status: number; message: string };

/** The basket of a form's fields or of an address's query, priced from the catalogue. */
export function readBasket(values: Record<string, string | undefined>): BasketRead {
  const parsed = parseBasket(values);
  if (!parsed.ok) return parsed;
  const source = sourceOf(values.source);
  return { ok: true, basket: parsed.basket, priced: priceBasket(parsed.basket), source, query: basketQuery(parsed.basket, source) };
}

export const basketFromUrl = (url: URL): BasketRead => readBasket(Object.fromEntries(url.searchParams));

/** The hidden fields that carry a basket through a form (the same names as the address). */
export const basketFields = (query: string): [string, string][] => [...new URLSearchParams(query)];

/** The basket an initial order was placed for, to try again or resume; undefined for anything else. */
export function basketOfOrder(order: Order): { basket: Basket; query: string } | undefined {
  if (order.reason !== 'initial') return undefined;
  const basket: Basket | undefined =
    order.purpose === 'subscription'
      ? { kind: 'plan', planId: order.offerId }
      : order.purpose === 'donation'
        ? { kind: 'donation', frequency: order.interval ? 'monthly' : 'once', amountCents: order.amountCents }
        : order.purpose === 'gift'
          ? { kind: 'gift', offerId: order.offerId }
          : undefined;
  if (!basket) return undefined;
  // The catalogue may have changed since: only a basket it still accepts is offered again.
  const again = readBasket(Object.fromEntries(new URLSearchParams(basketQuery(basket, order.source ?? undefined))));
  return again.ok ? { basket: again.basket, query: again.query } : undefined;
}

/** Where the offers of this kind of basket are, keeping the campaign. */
export function offersPath(basket: Basket | undefined, source: string | undefined): string {
  if (!basket) return withSource('/soutenir', source);
  return withSource(basket.kind === 'plan' ? '/soutenir/abonnement' : basket.kind === 'gift' ? '/soutenir/abonnement/offrir' : '/soutenir/dons', source);
}

/**
 * « Modifier mon choix »: the offers of this basket, with a donation's frequency and amount in
 * the address, so that the donation form comes back as the reader left it (donation-choice.ts).
 */
export function changeChoicePath(basket: Basket | undefined, source: string | undefined): string {
  const offers = offersPath(basket, source);
  if (basket?.kind !== 'donation') return offers;
  return `${offers}?${new URLSearchParams({ don: String(basket.amountCents), frequence: basket.frequency === 'monthly' ? 'mensuel' : 'unique' })}`;
}

/** "7 € par mois", "70 € par an", "20 €". */
export function priceText(amountCents: number, interval: Interval | null): string {
  return interval ? `${formatEuros(amountCents)} ${intervalLabel(interval)}` : formatEuros(amountCents);
}

/** "soit 84 € par an", "soit 5,83 € par mois"; nothing for a one-off payment. */
export function equivalentText(amountCents: number, interval: Interval | null): string {
  if (!interval) return '';
  const { monthCents, yearCents } = perMonthAndYear(amountCents, interval);
  return interval === 'month' ? `soit ${formatEuros(yearCents)} par an` : `soit ${formatEuros(monthCents)} par mois`;
}

/** "TVA 2,1 % incluse". */
export const vatIncludedText = (rateBp: number) => `TVA ${formatRate(rateBp)} incluse`;

/** What the reader commits to: renewal and how to stop, in the CGV's words. */
export function commitmentText(priced: Pick<PricedBasket, 'purpose' | 'interval'>): string[] {
  if (priced.purpose === 'gift') {
    return [
      'Un paiement unique : un abonnement offert n’est jamais reconduit.',
      'Vous recevez le code cadeau par e-mail, avec une carte à imprimer ; il est valable un an et ne sert qu’une fois.',
      'Vous pouvez vous rétracter tant que le code n’a pas été activé, dans les 14 jours qui suivent l’achat.',
    ];
  }
  if (priced.purpose === 'donation') {
    return priced.interval
      ? [
          'Votre don est prélevé chaque mois, jusqu’à ce que vous l’arrêtiez.',
          'Vous l’arrêtez ou en changez le montant à tout moment, en trois clics, depuis « Mes abonnements ».',
        ]
      : ['Un paiement unique, sans engagement.'];
  }
  const cancel = 'Résiliable à tout moment en trois clics depuis « Mes abonnements » : la résiliation prend effet à la fin de la période payée.';
  return priced.interval === 'year'
    ? [
        'L’abonnement est reconduit tacitement chaque année, au tarif en vigueur.',
        'Nous vous prévenons par e-mail entre trois mois et un mois avant chaque échéance (45 jours avant), pour que vous puissiez choisir de ne pas le reconduire.',
        cancel,
      ]
    : ['L’abonnement est reconduit tacitement chaque mois, au tarif en vigueur.', cancel];
}
