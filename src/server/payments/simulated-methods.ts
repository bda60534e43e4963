/**
 * The test numbers of the simulated provider: the ones testers know from Stripe's test mode, so
 * that the same habits work on both. Nothing else is accepted: the simulated page is not a place
 * to type a real card.
 */
import type { PaymentMethodKind } from '../db/database';

/**
 * How a test method behaves:
 * - `succeed`: paid at once, renewals paid too;
 * - `challenge`: asks for 3-D Secure first (the tester passes or fails it), then like `succeed`;
 * - `decline`: refused with the given reason;
 * - `fail-renewals`: the first payment succeeds, every renewal is refused (to try past_due);
 * - `sepa-succeed` / `sepa-fail`: the debit is submitted, stays pending, then succeeds or fails.
 */
export type Behaviour = 'succeed' | 'challenge' | 'decline' | 'fail-renewals' | 'sepa-succeed' | 'sepa-fail';

export interface TestMethod {
  kind: PaymentMethodKind;
  number: string;
  behaviour: Behaviour;
  /** Shown in the tester's table. */
  summary: string;
  /** For `decline`: what the bank answered, as the reader reads it. */
  declineReason?: string;
}

export const TEST_CARDS: TestMethod[] = [
  { kind: 'card', number: '4242424242424242', behaviour: 'succeed', summary: 'Paiement accepté' },
  { kind: 'card', number: '4000002760003184', behaviour: 'challenge', summary: 'Authentification 3-D Secure demandée, à valider ou à refuser' },
  { kind: 'card', number: '4000000000000002', behaviour: 'decline', summary: 'Carte refusée', declineReason: 'Votre banque a refusé le paiement.' },
  {
    kind: 'card',
    number: '4000000000009995',
    behaviour: 'decline',
    summary: 'Provision insuffisante',
    declineReason: 'Votre banque a refusé le paiement : provision insuffisante.',
  },
  { kind: 'card', number: '4000000000000341', behaviour: 'fail-renewals', summary: 'Premier paiement accepté, échéances suivantes refusées' },
];

export const TEST_IBANS: TestMethod[] = [
  { kind: 'sepa_debit', number: 'FR1420041010050500013M02606', behaviour: 'sepa-succeed', summary: 'Prélèvement en attente, puis accepté' },
  { kind: 'sepa_debit', number: 'FR8420041010050500013M02607', behaviour: 'sepa-fail', summary: 'Prélèvement en attente, puis rejeté' },
];

const normalise = (value: string) => value.replace(/[\s-]/g, '').toUpperCase();

/** The test method typed, or undefined for anything else. */
export function findTestMethod(kind: PaymentMethodKind, typed: string): TestMethod | undefined {
  const wanted = normalise(typed);
  return (kind === 'card' ? TEST_CARDS : TEST_IBANS).find((m) => m.number === wanted);
}

/** "Carte •••• 4242", "Prélèvement SEPA •••• 2606". */
export function methodLabel(method: Pick<TestMethod, 'kind' | 'number'>): string {
  const last4 = method.number.slice(-4);
  return method.kind === 'card' ? `Carte •••• ${last4}` : `Prélèvement SEPA •••• ${last4}`;
}

/** "4242 4242 4242 4242", "FR14 2004 1010 …" for the tester's table. */
export const grouped = (number: string) => number.replace(/(.{4})/g, '$1 ').trim();
