/**
 * The Stripe adapter: Checkout for the first payment, Stripe Billing for the renewals (Stripe
 * charges each period itself and tells the site by webhook), the customer portal for changing the
 * saved method. The API version is the one the SDK is pinned to; none is set here.
 *
 * What the site must know about Stripe, and why this file looks the way it does:
 *
 * - Every POST carries the caller's idempotency key (or a key derived from it, one per call, when
 *   one change takes several calls): Stripe answers a replay with the first answer, and refuses
 *   the same key with other parameters — so each call below sends the same parameters for the
 *   same key, even when it is retried after a partial failure.
 * - Webhook payloads are never expanded: a subscription's first payment and its renewals are
 *   known by their invoice (`in_…`), not by a payment intent. `refund` therefore accepts an
 *   invoice (or a `cs:` Checkout reference) and finds the payment behind it; the refund carries
 *   the reference the site knows in its metadata, and `refund.updated` gives it back, so that the
 *   order is found again. `charge.refunded` covers payment intents and refunds made from the
 *   dashboard.
 * - Changing a subscription's billing interval (monthly ↔ yearly) on the subscription itself
 *   would reset its billing cycle and charge the new price at once; such a change goes through a
 *   subscription schedule whose next phase starts at the end of the paid period.
 *
 * The endpoint at Stripe must send at least the events in `STRIPE_WEBHOOK_EVENTS`.
 */
import Stripe from 'stripe';
import { z } from 'zod';
import { log } from '../core/log';
import { fail } from '../core/result';
import { type PaymentEvent, type PaymentProvider, ProviderError, type SubscriptionChange } from './provider';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where the reader is sent back: return and cancel URLs must be on this origin. */
  siteUrl: URL;
  /** A client built elsewhere (tests point one at a local fake of the API). */
  client?: Stripe;
}

/** The events the webhook endpoint must be subscribed to; anything else is recorded and ignored. */
export const STRIPE_WEBHOOK_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
  'charge.refunded',
  'refund.created',
  'refund.updated',
  'payment_method.attached',
] as const;

const UNAVAILABLE = 'Le service de paiement est indisponible, réessayez dans un instant.';
const BAD_SIGNATURE = 'Signature de notification invalide.';
const UNREADABLE = 'Notification illisible : ce n’est pas un événement Stripe (identifiant, type ou données manquants).';
const CURRENCY = 'eur';

// ---------------------------------------------------------------------------------------------
// What the site reads in a notification. The signature says Stripe sent it, not that it has the
// shape this code expects (an API version change, an object created from the dashboard): every
// field read is checked, and an event that does not fit is ignored and logged, never a crash.

/** A reference that Stripe gives either as an id or, when expanded, as the object. */
const ref = z
  .union([z.string().min(1), z.object({ id: z.string().min(1) })])
  .nullish()
  .transform((value) => (value == null ? null : typeof value === 'string' ? value : value.id));
const metadata = z.record(z.string(), z.string()).nullish();
const seconds = z.number().int().positive();

const invoicePayments = z
  .object({
    data: z.array(
      z.object({
        status: z.string(),
        payment: z.object({ type: z.string(), payment_intent: ref, charge: ref }),
      }),
    ),
  })
  .nullish();

const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  mode: z.string(),
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  metadata,
  payment_intent: ref,
  subscription: ref,
  // An id in a notification; the object when a caller expanded it.
  invoice: z.union([z.string().min(1), z.object({ id: z.string().min(1), payments: invoicePayments })]).nullish(),
  payment_method_types: z.array(z.string()).nullish(),
  allowed_payment_method_types: z.array(z.string()).nullish(),
});

const invoiceSchema = z.object({
  id: z.string().min(1),
  billing_reason: z.string().nullish(),
  amount_paid: z.number().int().nonnegative(),
  next_payment_attempt: z.number().int().nullish(),
  // Recent API versions: the subscription (and a copy of its metadata) is under `parent`; older ones: at the top.
  parent: z.object({ subscription_details: z.object({ subscription: ref, metadata }).nullish() }).nullish(),
  subscription: ref,
  subscription_details: z.object({ metadata }).nullish(),
  // Older API versions only; recent ones list payments (when expanded).
  payment_intent: ref,
  payments: invoicePayments,
  lines: z.object({
    data: z.array(
      z.object({
        period: z.object({ start: seconds, end: seconds }),
        parent: z.object({ type: z.string(), subscription_item_details: z.object({ proration: z.boolean() }).nullish() }).nullish(),
      }),
    ),
  }),
});

const chargeSchema = z.object({
  id: z.string().min(1),
  payment_intent: ref,
  // The payment intent's metadata, copied onto its charge when Stripe creates it.
  metadata,
  amount_refunded: z.number().int().nonnegative(),
  refunded: z.boolean(),
});

const refundSchema = z.object({
  id: z.string().min(1),
  amount: z.number().int().positive(),
  status: z.string().nullish(),
  payment_intent: ref,
  metadata,
});

const subscriptionSchema = z.object({ id: z.string().min(1), metadata });

const paymentMethodSchema = z.object({
  id: z.string().min(1),
  type: z.string(),
  customer: ref,
  card: z.object({ last4: z.string().regex(/^\d{4}$/) }).nullish(),
  sepa_debit: z
    .object({
      last4: z
        .string()
        .regex(/^\d{4}$/)
        .nullish(),
    })
    .nullish(),
});

/** A saved card or SEPA mandate as the reader sees it, named by its payment method; null for any other kind. */
function savedMethod(method: z.infer<typeof paymentMethodSchema>): { changeRef: string; methodLabel: string; method: 'card' | 'sepa_debit' } | null {
  if (method.type === 'card' && method.card) return { changeRef: method.id, methodLabel: `Carte •••• ${method.card.last4}`, method: 'card' };
  if (method.type === 'sepa_debit') {
    const last4 = method.sepa_debit?.last4;
    return { changeRef: method.id, methodLabel: last4 ? `Prélèvement SEPA •••• ${last4}` : 'Prélèvement SEPA', method: 'sepa_debit' };
  }
  return null;
}

/** What every event must have before its object is looked at. */
const eventEnvelope = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

type CheckoutSessionData = z.infer<typeof checkoutSessionSchema>;
type InvoiceData = z.infer<typeof invoiceSchema>;

const orderIdSchema = z.string().min(1).max(100);

/** A site's id written in metadata by the site itself (see startCheckout), when it is there and fits. */
function siteId(value: string | undefined): string | undefined {
  const parsed = orderIdSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The site's subscription an event names in its metadata, as an optional field of the event. */
const subscriptionIdField = (meta: Record<string, string> | null | undefined) => {
  const subscriptionId = siteId(meta?.subscriptionId);
  return subscriptionId ? { subscriptionId } : {};
};

function methodLabelOf(session: CheckoutSessionData): string {
  const type = session.payment_method_types?.[0] ?? session.allowed_payment_method_types?.[0];
  if (type === 'card') return 'Carte';
  if (type === 'sepa_debit') return 'Prélèvement SEPA';
  return '';
}

function orderIdOf(session: CheckoutSessionData): string | null {
  // Only the metadata the site wrote: a Payment Link lets its payer choose client_reference_id.
  const parsed = orderIdSchema.safeParse(session.metadata?.orderId);
  return parsed.success ? parsed.data : null;
}

/** The payment intent of an invoice, when the payload carries it (expanded, or an old API version). */
function paymentIntentOfInvoice(invoice: { payment_intent?: string | null; payments?: z.infer<typeof invoicePayments> }): string | null {
  const paid = invoice.payments?.data.find((p) => p.status === 'paid' && p.payment.payment_intent);
  return paid?.payment.payment_intent ?? invoice.payment_intent ?? null;
}

/**
 * What the site records as the payment of a Checkout Session: the payment intent (one-off
 * payments), else the subscription's first invoice (what `refund` knows how to find), else the
 * session itself.
 */
function paymentRefOf(session: CheckoutSessionData): string {
  if (session.payment_intent) return session.payment_intent;
  const invoice = session.invoice;
  if (typeof invoice === 'string') return invoice;
  if (invoice) return paymentIntentOfInvoice(invoice) ?? invoice.id;
  return `cs:${session.id}`;
}

const subscriptionOfInvoice = (invoice: InvoiceData): string | null => invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;

/**
 * The line that says which period a subscription invoice pays. A renewal ("subscription_cycle")
 * bills the new period; a change of billing interval that a schedule applies at the end of the
 * period is billed as a "subscription_update" with a full, non-prorated period, and is a renewal
 * too. Prorations (an update made from the dashboard) are not periods: no line, not a renewal.
 * The invoice's own period_start/period_end are the previous period, not the one paid.
 */
function renewalLineOf(invoice: InvoiceData): InvoiceData['lines']['data'][number] | null {
  const full = invoice.lines.data.find(
    (line) => line.parent?.type === 'subscription_item_details' && line.parent.subscription_item_details?.proration === false,
  );
  if (invoice.billing_reason === 'subscription_cycle') return full ?? invoice.lines.data[0] ?? null;
  if (invoice.billing_reason === 'subscription_update') return full ?? null;
  return null;
}

const fromSeconds = (value: number) => new Date(value * 1000);

/** Turns one verified Stripe event into the site's event (one for one: the id is Stripe's). */
export function mapStripeEvent(event: { id: string; type: string; data: { object: unknown } }): PaymentEvent {
  const id = event.id;
  const ignored: PaymentEvent = { id, type: 'ignored', providerType: event.type };
  const read = <T extends z.ZodType>(schema: T): z.infer<T> | null => {
    const parsed = schema.safeParse(event.data.object);
    if (parsed.success) return parsed.data;
    log.warn('payments.stripe_unreadable_event', { eventId: id, type: event.type, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`) });
    return null;
  };

  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = read(checkoutSessionSchema);
      if (!session || (session.mode !== 'payment' && session.mode !== 'subscription')) return ignored;
      const orderId = orderIdOf(session);
      // A session the site did not open (a payment link, the dashboard): nothing to apply it to.
      if (!orderId) return ignored;
      if (event.type === 'checkout.session.expired') return { id, type: 'payment.failed', orderId, reason: 'La session de paiement a expiré.', final: true };
      if (event.type === 'checkout.session.async_payment_failed') {
        return { id, type: 'payment.failed', orderId, reason: 'Le prélèvement SEPA a été refusé par votre banque.', final: true };
      }
      const methodLabel = methodLabelOf(session);
      if (session.payment_status === 'paid') {
        return {
          id,
          type: 'payment.succeeded',
          orderId,
          paymentRef: paymentRefOf(session),
          methodLabel,
          ...(typeof session.amount_total === 'number' ? { amountCents: session.amount_total } : {}),
          ...(session.currency ? { currency: session.currency } : {}),
          ...(session.subscription ? { subscriptionRef: session.subscription } : {}),
        };
      }
      // A SEPA debit: the session is complete, the money comes (or not) days later.
      if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') return { id, type: 'payment.processing', orderId, methodLabel };
      return ignored;
    }

    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = read(invoiceSchema);
      if (!invoice) return ignored;
      const subscriptionRef = subscriptionOfInvoice(invoice);
      // The first invoice of a subscription is the Checkout payment, told by checkout.session.*.
      const line = renewalLineOf(invoice);
      if (!subscriptionRef || !line) return ignored;
      const named = subscriptionIdField(invoice.parent?.subscription_details?.metadata ?? invoice.subscription_details?.metadata);
      if (event.type === 'invoice.paid') {
        return {
          id,
          type: 'renewal.succeeded',
          subscriptionRef,
          ...named,
          invoiceRef: invoice.id,
          paymentRef: paymentIntentOfInvoice(invoice) ?? invoice.id,
          amountCents: invoice.amount_paid,
          periodStart: fromSeconds(line.period.start),
          periodEnd: fromSeconds(line.period.end),
        };
      }
      return {
        id,
        type: 'renewal.failed',
        subscriptionRef,
        ...named,
        invoiceRef: invoice.id,
        reason: 'Votre banque a refusé le paiement de l’échéance.',
        nextAttemptAt: invoice.next_payment_attempt ? fromSeconds(invoice.next_payment_attempt) : null,
      };
    }

    case 'customer.subscription.deleted': {
      const subscription = read(subscriptionSchema);
      return subscription ? { id, type: 'subscription.ended', subscriptionRef: subscription.id, ...subscriptionIdField(subscription.metadata) } : ignored;
    }

    case 'charge.refunded': {
      const charge = read(chargeSchema);
      // Partial refunds (from the dashboard) do not refund the order: only a full one does.
      if (!charge || !charge.refunded || !charge.payment_intent) return ignored;
      const orderId = siteId(charge.metadata?.orderId);
      return { id, type: 'refund.succeeded', paymentRef: charge.payment_intent, amountCents: charge.amount_refunded, ...(orderId ? { orderId } : {}) };
    }

    case 'refund.created':
    case 'refund.updated': {
      const refund = read(refundSchema);
      // Only the site's refunds carry the reference it knows (see `refund`); the others are told
      // by charge.refunded. A SEPA refund is pending first, then updated to succeeded.
      const paymentRef = refund?.metadata?.paymentRef;
      if (!refund || refund.status !== 'succeeded' || !paymentRef) return ignored;
      return { id, type: 'refund.succeeded', paymentRef, amountCents: refund.amount };
    }

    case 'payment_method.attached': {
      // The portal attaches the new method before making it the default: the label is what the
      // reader sees on their subscription, and the new method is the one they just chose.
      const method = read(paymentMethodSchema);
      if (!method?.customer) return ignored;
      // The payment method's id names the change: the reader's return reads the same one.
      const saved = savedMethod(method);
      return saved ? { id, type: 'payment_method.updated', customerRef: method.customer, ...saved } : ignored;
    }

    default:
      return ignored;
  }
}

// ---------------------------------------------------------------------------------------------

type NextPrice = NonNullable<SubscriptionChange['next']>;

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe =
    options.client ??
    new Stripe(options.secretKey, {
      // Retries are safe: every call that changes something carries an idempotency key.
      maxNetworkRetries: 2,
      // A reader waits on the checkout call: fail early rather than after the SDK's 80 s.
      timeout: 20_000,
      appInfo: { name: 'Contrechamp' },
    });

  /** A failed SDK call as the site sees it: the reader is told to try again; the log keeps why. */
  function providerError(what: string, error: unknown): ProviderError {
    if (error instanceof ProviderError) return error;
    const detail =
      error instanceof Stripe.errors.StripeError ? { type: error.type, code: error.code, status: error.statusCode, requestId: error.requestId } : { error };
    log.warn('payments.stripe_call_failed', { what, ...detail });
    return new ProviderError(UNAVAILABLE, error);
  }

  /** Runs one SDK call; any failure becomes a ProviderError. */
  async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw providerError(what, error);
    }
  }

  /** The site's own pages only: a URL built from a forwarded Host would send the reader away. */
  function onSite(url: string): string {
    if (new URL(url).origin !== options.siteUrl.origin) throw new Error(`stripe: ${url} is not on the site (${options.siteUrl.origin})`);
    return url;
  }

  /** What `refunds.create` needs for a payment the site knows by one of its references. */
  async function refundTarget(paymentRef: string): Promise<{ payment_intent: string } | { charge: string }> {
    if (paymentRef.startsWith('ch_') || paymentRef.startsWith('py_')) return { charge: paymentRef };
    if (paymentRef.startsWith('in_')) return invoiceTarget(paymentRef);
    if (paymentRef.startsWith('cs:')) {
      const session = await call('checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(paymentRef.slice(3)));
      const intent = idOf(session.payment_intent);
      if (intent) return { payment_intent: intent };
      const invoice = idOf(session.invoice);
      if (invoice) return invoiceTarget(invoice);
      throw notRefundable(paymentRef);
    }
    return { payment_intent: paymentRef };
  }

  async function invoiceTarget(invoiceId: string): Promise<{ payment_intent: string } | { charge: string }> {
    const invoice = await call('invoices.retrieve', () => stripe.invoices.retrieve(invoiceId, { expand: ['payments'] }));
    for (const payment of invoice.payments?.data ?? []) {
      if (payment.status !== 'paid') continue;
      const intent = idOf(payment.payment.payment_intent);
      if (intent) return { payment_intent: intent };
      const charge = idOf(payment.payment.charge);
      if (charge) return { charge };
    }
    throw notRefundable(invoiceId);
  }

  function notRefundable(reference: string): ProviderError {
    log.warn('payments.stripe_refund_target_missing', { reference });
    return new ProviderError('Ce paiement est introuvable chez le prestataire : il ne peut pas être remboursé.');
  }

  const recurringPrice = (product: string, next: NextPrice) => ({
    currency: CURRENCY,
    product,
    unit_amount: next.amountCents,
    recurring: { interval: next.interval },
  });

  /** The one item of a subscription the site opened, and the product its prices belong to. */
  function itemOf(sub: Stripe.Subscription): { item: Stripe.SubscriptionItem; product: string } {
    const [item, ...others] = sub.items.data;
    const product = idOf(item?.price.product);
    if (!item || !product || others.length > 0) {
      throw providerError(
        'subscriptions.retrieve',
        new Error(`stripe: subscription ${sub.id} has ${sub.items.data.length} items (expected one, with a product)`),
      );
    }
    return { item, product };
  }

  /**
   * A change of billing interval, from the end of the paid period: the subscription's current
   * phase is kept as it is and a second phase with the new price follows it, after which the
   * schedule releases the subscription (which goes on at the new price). A schedule attached by
   * an earlier change has its pending phase replaced. Returns the schedule's id.
   */
  async function scheduleNextPrice(sub: Stripe.Subscription, scheduleId: string | null, next: NextPrice, key: string): Promise<string> {
    const { product } = itemOf(sub);
    const schedule = scheduleId
      ? await call('subscriptionSchedules.retrieve', () => stripe.subscriptionSchedules.retrieve(scheduleId))
      : await call('subscriptionSchedules.create', () =>
          stripe.subscriptionSchedules.create({ from_subscription: sub.id }, { idempotencyKey: `${key}:schedule` }),
        );
    const current = schedule.phases.find((phase) => phase.start_date === schedule.current_phase?.start_date) ?? schedule.phases[0];
    if (!current) throw providerError('subscriptionSchedules.retrieve', new Error(`stripe: schedule ${schedule.id} has no current phase`));
    await call('subscriptionSchedules.update', () =>
      stripe.subscriptionSchedules.update(
        schedule.id,
        {
          end_behavior: 'release',
          proration_behavior: 'none',
          phases: [
            {
              items: current.items.map((it) => ({ price: idOf(it.price)!, ...(it.quantity === undefined ? {} : { quantity: it.quantity }) })),
              start_date: current.start_date,
              end_date: current.end_date,
              proration_behavior: 'none',
            },
            {
              items: [{ price_data: recurringPrice(product, next), quantity: 1 }],
              duration: { interval: next.interval, interval_count: 1 },
              proration_behavior: 'none',
            },
          ],
        },
        { idempotencyKey: `${key}:phases` },
      ),
    );
    return schedule.id;
  }

  return {
    name: 'stripe',
    runsRenewals: true,

    async ensureCustomer(user, idempotencyKey) {
      const customer = await call('customers.create', () =>
        stripe.customers.create(
          // Stripe's receipts and mails to the reader in French.
          { email: user.email, ...(user.name ? { name: user.name } : {}), metadata: { userId: user.id }, preferred_locales: ['fr'] },
          { idempotencyKey },
        ),
      );
      return customer.id;
    },

    async startCheckout(request) {
      const { orderId, recurring } = request;
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: recurring ? 'subscription' : 'payment',
        customer: request.customerRef,
        client_reference_id: orderId,
        metadata: { orderId },
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: CURRENCY,
              unit_amount: request.amountCents,
              product_data: { name: request.description },
              ...(recurring ? { recurring: { interval: recurring.interval } } : {}),
            },
          },
        ],
        // `payment_method_types` is gone from this API version's create parameters.
        allowed_payment_method_types: [request.method],
        success_url: onSite(request.returnUrl),
        cancel_url: onSite(request.cancelUrl),
        locale: 'fr',
        // The payment intent (one-off) or the subscription (recurring) carries the order too, so
        // that what Stripe shows in its dashboard can be traced back.
        ...(recurring
          ? { subscription_data: { metadata: { orderId, subscriptionId: recurring.subscriptionId } } }
          : { payment_intent_data: { metadata: { orderId } } }),
      };
      const session = await call('checkout.sessions.create', () => stripe.checkout.sessions.create(params, { idempotencyKey: request.idempotencyKey }));
      if (!session.url) throw new ProviderError('Le service de paiement n’a pas ouvert de page de paiement, réessayez dans un instant.');
      return { checkoutRef: session.id, url: session.url };
    },

    async checkoutStatus(checkoutRef) {
      const session = await call('checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(checkoutRef));
      if (session.status === 'complete') return 'complete';
      if (session.status === 'expired') return 'expired';
      // Open, or a status this code does not know: the order keeps waiting until it is abandoned.
      return 'open';
    },

    async chargeRenewal() {
      // runsRenewals is true: Stripe charges each period itself and the site learns of it by the
      // invoice.* webhooks. A call here is a bug in the caller, not a payment to make.
      throw new Error('stripe: renewals are charged by Stripe Billing itself; chargeRenewal must not be called for this provider (runsRenewals is true)');
    },

    async updateSubscription({ subscriptionRef, cancelAtPeriodEnd, next, idempotencyKey: key }) {
      if (cancelAtPeriodEnd === undefined && !next) return;
      const sub = await call('subscriptions.retrieve', () => stripe.subscriptions.retrieve(subscriptionRef));
      let scheduleId = idOf(sub.schedule);
      if (next) {
        const { item, product } = itemOf(sub);
        if (!scheduleId && item.price.recurring?.interval === next.interval) {
          // The same interval: the item's price is replaced without proration, and Stripe bills
          // it from the next renewal on. One call, the cancellation included when there is one.
          await call('subscriptions.update', () =>
            stripe.subscriptions.update(
              subscriptionRef,
              {
                items: [{ id: item.id, price_data: recurringPrice(product, next) }],
                proration_behavior: 'none',
                ...(cancelAtPeriodEnd === undefined ? {} : { cancel_at_period_end: cancelAtPeriodEnd }),
              },
              { idempotencyKey: key },
            ),
          );
          return;
        }
        // Another interval: on the subscription itself it would reset the cycle and charge now.
        scheduleId = await scheduleNextPrice(sub, scheduleId, next, key);
      }
      if (cancelAtPeriodEnd === undefined) return;
      // A subscription run by a schedule refuses a cancellation set on it directly: the schedule
      // (a pending change of interval) is released first; a subscription that ends has no next
      // price anyway.
      if (scheduleId && cancelAtPeriodEnd) {
        const id = scheduleId;
        await call('subscriptionSchedules.release', () => stripe.subscriptionSchedules.release(id, {}, { idempotencyKey: `${key}:release` }));
      }
      await call('subscriptions.update', () =>
        stripe.subscriptions.update(subscriptionRef, { cancel_at_period_end: cancelAtPeriodEnd }, { idempotencyKey: next ? `${key}:cancel` : key }),
      );
    },

    async postponeRenewal({ subscriptionRef, until, idempotencyKey }) {
      // A trial until then: no charge before it, no proration for the time given.
      await call('subscriptions.update', () =>
        stripe.subscriptions.update(subscriptionRef, { trial_end: Math.floor(until.getTime() / 1000), proration_behavior: 'none' }, { idempotencyKey }),
      );
    },

    async cancelSubscriptionNow(subscriptionRef, idempotencyKey) {
      try {
        await stripe.subscriptions.cancel(subscriptionRef, {}, { idempotencyKey });
      } catch (error) {
        // Already over at Stripe (ended unpaid, canceled from the dashboard, its notification
        // not yet here): the wanted outcome is there, the administrator's action goes on.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          const sub = await call('subscriptions.retrieve', () => stripe.subscriptions.retrieve(subscriptionRef));
          if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return;
        }
        throw providerError('subscriptions.cancel', error);
      }
    },

    async refund({ paymentRef, amountCents, idempotencyKey }) {
      const target = await refundTarget(paymentRef);
      // The reference the site knows comes back in refund.updated (see mapStripeEvent).
      await call('refunds.create', () => stripe.refunds.create({ ...target, amount: amountCents, metadata: { paymentRef } }, { idempotencyKey }));
    },

    async paymentMethodUrl({ customerRef, returnUrl, idempotencyKey }) {
      const back = onSite(returnUrl);
      const session = await call('billingPortal.sessions.create', () =>
        stripe.billingPortal.sessions.create(
          {
            customer: customerRef,
            return_url: back,
            locale: 'fr',
            // Straight to the method form, and back to the subscription once it is saved.
            flow_data: { type: 'payment_method_update', after_completion: { type: 'redirect', redirect: { return_url: back } } },
          },
          { idempotencyKey },
        ),
      );
      return session.url;
    },

    async paymentMethodChange({ customerRef }) {
      // The portal's return carries nothing: the customer's default method is the one just saved.
      const customer = await call('customers.retrieve', () => stripe.customers.retrieve(customerRef, { expand: ['invoice_settings.default_payment_method'] }));
      if (customer.deleted) return null;
      const parsed = paymentMethodSchema.safeParse(customer.invoice_settings?.default_payment_method);
      return parsed.success ? savedMethod(parsed.data) : null;
    },

    parseWebhook(rawBody, headers) {
      const signature = headers.get('stripe-signature');
      if (!signature) return fail(400, BAD_SIGNATURE);
      let payload: unknown;
      try {
        // On the raw bytes, with the SDK's default tolerance (300 s) against replays.
        payload = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) return fail(400, BAD_SIGNATURE);
        // Signed, but not JSON (or a thin v2 notification, which this endpoint is not for). The
        // name only: a parser's message quotes the body, which may hold a reader's address.
        log.warn('payments.stripe_unreadable_payload', { error: error instanceof Error ? error.name : typeof error });
        return fail(400, UNREADABLE);
      }
      // Signed is not well formed: without an id nothing can be recorded, without data nothing applied.
      const event = eventEnvelope.safeParse(payload);
      if (!event.success) {
        log.warn('payments.stripe_unreadable_payload', { issues: event.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`) });
        return fail(400, UNREADABLE);
      }
      return { ok: true, events: [mapStripeEvent(event.data)] };
    },
  };
}
