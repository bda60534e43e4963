/**
 * The payment provider, as the rest of the site sees it: one interface, two adapters
 * (`simulated`, the default, served by the site itself; `stripe`, when its keys are set), chosen
 * by configuration in `registry.ts`.
 *
 * The provider only moves money. What was bought, and what a payment does to it, belongs to the
 * orders and subscriptions domains: they hand the provider an amount they priced from the
 * catalogue, and learn the outcome from its webhooks, which each adapter turns into the
 * provider-neutral `PaymentEvent`s below. Gifts and shares are orders with another `purpose`;
 * nothing here changes for them.
 *
 * Every call that changes something at the provider carries an idempotency key, derived from the
 * order or subscription it is about: a retried request, a double click or a job run twice makes
 * one session, one charge, one refund.
 */
import type { BillingInterval, PaymentMethodKind, ProviderName } from '../db/database';
import type { Result } from '../core/result';

export type { PaymentMethodKind, ProviderName };

export interface CheckoutRequest {
  orderId: string;
  /** The provider's customer of the buyer (`ensureCustomer`). */
  customerRef: string;
  /** The line the payment page shows ("Abonnement Mensuel — Contrechamp"). */
  description: string;
  amountCents: number;
  /** Set for a subscription or a monthly donation: the provider saves the method for the next periods. */
  recurring: { interval: BillingInterval; subscriptionId: string } | null;
  method: PaymentMethodKind;
  /** Where the provider sends the reader back, paid or not (the confirmation page). */
  returnUrl: string;
  /** Where "Annuler" on the provider's page goes (the payment page, to try again). */
  cancelUrl: string;
  idempotencyKey: string;
}

export interface RenewalCharge {
  orderId: string;
  subscriptionId: string;
  customerRef: string;
  amountCents: number;
  description: string;
  idempotencyKey: string;
}

export interface SubscriptionChange {
  /** The provider's subscription (Stripe); providers that do not run renewals ignore changes. */
  subscriptionRef: string;
  cancelAtPeriodEnd?: boolean;
  /** The price from the next renewal on. */
  next?: { amountCents: number; interval: BillingInterval; description: string };
  idempotencyKey: string;
}

/**
 * What a provider tells the site, whatever the provider. Each carries the provider's event id
 * (`id`), the key of its deduplication. Events come late, twice and in any order: the handlers
 * in `orders/` and `subscriptions/` make each one idempotent and monotonic.
 */
export type PaymentEvent =
  /**
   * `amountCents` and `currency`, when the provider says what it collected: an order moves to paid
   * only if they match it (a payment opened elsewhere, for less, names no order of ours).
   */
  | {
      id: string;
      type: 'payment.succeeded';
      orderId: string;
      paymentRef: string;
      methodLabel: string;
      subscriptionRef?: string;
      periodEnd?: Date;
      amountCents?: number;
      currency?: string;
    }
  /** A SEPA debit submitted to the bank: the money comes (or not) days later. */
  | { id: string; type: 'payment.processing'; orderId: string; methodLabel: string }
  | { id: string; type: 'payment.failed'; orderId: string; reason: string; final: boolean }
  /**
   * A period paid that the provider renewed by itself (Stripe): the site learns of it here.
   * `subscriptionId` (on the three subscription events) is the site's subscription, when the
   * provider's payload carries it (the metadata the site gave its checkout): an event about a
   * subscription whose checkout has not been told yet is then known to be early, not foreign.
   */
  | {
      id: string;
      type: 'renewal.succeeded';
      subscriptionRef: string;
      subscriptionId?: string;
      invoiceRef: string;
      paymentRef: string;
      amountCents: number;
      periodStart: Date;
      periodEnd: Date;
    }
  | { id: string; type: 'renewal.failed'; subscriptionRef: string; subscriptionId?: string; invoiceRef: string; reason: string; nextAttemptAt: Date | null }
  | { id: string; type: 'subscription.ended'; subscriptionRef: string; subscriptionId?: string }
  /** `orderId`, when the payload names the order it paid (its metadata): a refund ahead of its payment is then known to be early. */
  | { id: string; type: 'refund.succeeded'; paymentRef: string; amountCents: number; orderId?: string }
  /**
   * A saved method changed. `changeRef` names the one change (the simulated setup session, Stripe's
   * payment method): the reader's return reads the same (`paymentMethodChange`), so that whichever
   * comes first applies it and the other finds it done. `method`, when the provider says it.
   */
  | {
      id: string;
      type: 'payment_method.updated';
      customerRef: string;
      subscriptionRef?: string;
      methodLabel: string;
      changeRef?: string;
      method?: PaymentMethodKind;
    }
  /** Verified but of no interest to the site; still recorded, so that its replay is recognised. */
  | { id: string; type: 'ignored'; providerType: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  /**
   * True when the provider charges each period by itself (Stripe subscriptions) and tells the site
   * by `renewal.*` events; false when the site schedules renewals and asks for each charge
   * (`chargeRenewal`).
   */
  readonly runsRenewals: boolean;
  /** The provider's customer for this user, created once (the key makes a retry return the same). */
  ensureCustomer(user: { id: string; email: string; name: string }, idempotencyKey: string): Promise<string>;
  /** Opens the provider's payment page for an order; the reader is sent to `url`. */
  startCheckout(request: CheckoutRequest): Promise<{ checkoutRef: string; url: string }>;
  /** Where an open checkout stands, for an order left pending (a closed tab, a crash). */
  checkoutStatus(checkoutRef: string): Promise<'open' | 'complete' | 'expired'>;
  /** Charges the saved method for one period; the outcome comes as a `payment.*` event. */
  chargeRenewal(charge: RenewalCharge): Promise<void>;
  updateSubscription(change: SubscriptionChange): Promise<void>;
  /**
   * Moves the next charge of the provider's subscription to `until` without charging for the
   * time between (a gift's months added after the paid period). Providers whose renewals the
   * site runs have nothing to do: the site's own renewal job moves.
   */
  postponeRenewal(change: { subscriptionRef: string; until: Date; idempotencyKey: string }): Promise<void>;
  /** Ends the provider's subscription now (an administrator's cancellation, an account deleted). */
  cancelSubscriptionNow(subscriptionRef: string, idempotencyKey: string): Promise<void>;
  /** Refunds a payment in full; the outcome comes as a `refund.succeeded` event. */
  refund(payment: { paymentRef: string; amountCents: number; idempotencyKey: string }): Promise<void>;
  /** A page of the provider where the reader changes the saved payment method. */
  paymentMethodUrl(request: {
    customerRef: string;
    subscriptionId: string;
    subscriptionRef: string | null;
    returnUrl: string;
    idempotencyKey: string;
  }): Promise<string>;
  /**
   * The method a change made on that page saved, read when the reader comes back to `returnUrl`
   * (its notification may come later): `changeRef` is what the provider added to the return
   * address (`changement`), if anything. Null when nothing was saved (the reader gave up).
   */
  paymentMethodChange(request: {
    customerRef: string;
    changeRef: string | null;
  }): Promise<{ changeRef: string; methodLabel: string; method: PaymentMethodKind } | null>;
  /**
   * Checks the signature over the raw body (never a re-serialised JSON) and turns the payload
   * into events. A bad or missing signature, or a stale timestamp, is a 400 and nothing else.
   */
  parseWebhook(rawBody: Uint8Array, headers: Headers): Result<{ events: PaymentEvent[] }>;
}

/** A provider call that failed: the reader is told to try again; nothing was recorded as paid. */
export class ProviderError extends Error {
  override readonly cause?: unknown;
  constructor(message: string, cause?: unknown) {
    super(message);
    this.cause = cause;
    this.name = 'ProviderError';
  }
}
