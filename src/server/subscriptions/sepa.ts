/**
 * SEPA direct debit mandates, as the reader reads them: the référence unique de mandat (RUM)
 * beside the identifiant créancier SEPA (ICS) of the cooperative (config/publisher.ts), on the
 * payment's confirmation page and mail, in « Mes abonnements », and in the pre-notification of
 * each debit (CGV art. 5).
 *
 * A mandate's reference is stable and unique:
 * - signed at a payment (the first one of a subscription, or a one-off donation), it is derived
 *   from that order's reference, itself unique: `CTC-7KQ2M-X9P4R`. The subscription stores it
 *   when that payment goes through, so that it never changes afterwards;
 * - signed when a running subscription moves to SEPA at the provider (no order), it is new and
 *   random, in a shape of its own so that it never meets an order's: `CTC-M-7KQ2M-X9P4R`,
 *   and the unique index of `subscriptions.mandate_ref` keeps it apart from every other.
 */
import { SEPA_CREDITOR_ID } from '../../config/publisher';
import type { PaymentMethodKind } from '../db/database';
import { newOrderReference } from '../orders/references';

export interface SepaMandate {
  /** Référence unique de mandat (RUM). */
  reference: string;
  /** Identifiant créancier SEPA (ICS). */
  creditorId: string;
}

/** The mandate signed with the payment of this order (its first SEPA payment). */
export const mandateReferenceOf = (orderReference: string): string => `CTC-${orderReference}`;

/** A mandate signed outside any order (a running subscription moved to SEPA at the provider). */
export const newMandateReference = (): string => `CTC-M-${newOrderReference()}`;

const mandate = (reference: string): SepaMandate => ({ reference, creditorId: SEPA_CREDITOR_ID });

/** A subscription's mandate, while it is paid by SEPA debit. */
export const subscriptionMandate = (sub: { mandateRef: string | null }): SepaMandate | null => (sub.mandateRef ? mandate(sub.mandateRef) : null);

/**
 * The mandate an order is (or will be) debited under: its subscription's, or, for a first SEPA
 * payment whose subscription has not stored it yet (the debit is with the bank), or a one-off
 * payment, the one signed with the order. Null for a card.
 */
export function orderMandate(
  order: { reference: string; method: PaymentMethodKind | null; subscriptionId: string | null },
  subscription?: { mandateRef: string | null } | null,
): SepaMandate | null {
  if (subscription?.mandateRef && (order.method === 'sepa_debit' || order.method === null)) return mandate(subscription.mandateRef);
  if (order.method === 'sepa_debit') return mandate(mandateReferenceOf(order.reference));
  return null;
}

/** The rows a page or a mail prints for a mandate. */
export const mandateRows = (m: SepaMandate): [string, string][] => [
  ['Référence unique de mandat (RUM)', m.reference],
  ['Identifiant créancier SEPA (ICS)', m.creditorId],
];
