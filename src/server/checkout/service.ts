/**
 * The support path, composed: the payment step places an order priced from the catalogue and
 * sends the reader to the provider; the confirmation page reads the buyer's own order; the
 * webhook entry applies the provider's events with every purpose's fulfilment.
 *
 * Gifts and shares plug in here: their domain gives a `Fulfilment` for its purpose
 * (`fulfilments` below), and a `RefundHold` when something must stop before its order's money
 * leaves (`REFUND_HOLDS`: a gift's code), and places its orders with the same building blocks;
 * nothing in payments/ or orders/ changes for them.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { findUser, updateProfile } from '../auth/service';
import { withDocuments } from '../billing/service';
import { billingSchema, businessOf, type Basket, priceBasket } from '../catalog/basket';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import type { Database, OrderPurpose } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { applyOrderEvent, type Fulfilment, type Fulfilments, openCheckout, scheduleReconcile } from '../orders/service';
import { schedule } from '../jobs/schedule';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor } from '../mail/layout';
import { firstPaymentFailedMail } from './mails';
import { findUserOrder, insertOrder, type Order, type RefundHolds } from '../orders/public';
import type { PaymentEvent } from '../payments/provider';
import { receiveWebhook } from '../payments/webhooks';
import { applySubscriptionEvent, subscriptionFulfilment } from '../subscriptions/service';
import { checkGiftDetails, type GiftDetails, type GiftDetailsInput, giftFulfilment, giftRefundHold, insertGift } from '../gifts/public';
import { findSubscription, insertSubscription, type Subscription } from '../subscriptions/public';
import { statutes } from '../../config/statutes';
import { type BulletinInput, bulletinFingerprint, bulletinText, checkBulletin, insertBulletin } from '../shares/bulletins';
import { bulletinSigned, shareFulfilment } from '../shares/service';
import { limit, MINUTE, type RateLimitRule } from '../rate-limit/rate-limit';

/** Bulletins one account may sign in an hour: room for second thoughts, not for a flood that would bury the real ones. */
export const BULLETINS_BY_ACCOUNT: RateLimitRule = { name: 'shares:bulletin', limit: 10, windowMs: 60 * MINUTE };

const composed = new WeakMap<ServerDeps, Fulfilments>();

/**
 * Every purpose's fulfilment, each with its legal document issued first (billing). Built once per
 * composition (the process's `ServerDeps`, or a test's), then reused by every event.
 */
export function fulfilments(deps: ServerDeps): Fulfilments {
  let built = composed.get(deps);
  if (!built) composed.set(deps, (built = buildFulfilments(deps)));
  return built;
}

/**
 * Which domain fulfils an order of each purpose, once the `orders` route below has moved it (paid,
 * failed, refunded). A new purpose does not compile until it has its line.
 */
export const ORDER_PURPOSE_ROUTES: { readonly [P in OrderPurpose]: 'subscriptions' | 'gifts' | 'shares' } = {
  subscription: 'subscriptions',
  donation: 'subscriptions',
  gift: 'gifts',
  shares: 'shares',
};

/** One thing per purpose, from one per domain, by `ORDER_PURPOSE_ROUTES` (a domain without it: none). */
function byPurpose<T>(byDomain: { readonly [D in (typeof ORDER_PURPOSE_ROUTES)[OrderPurpose]]: T | undefined }): Partial<Record<OrderPurpose, T>> {
  const built: Partial<Record<OrderPurpose, T>> = {};
  for (const purpose of Object.keys(ORDER_PURPOSE_ROUTES) as OrderPurpose[]) {
    const given = byDomain[ORDER_PURPOSE_ROUTES[purpose]];
    if (given) built[purpose] = given;
  }
  return built;
}

function buildFulfilments(deps: ServerDeps): Fulfilments {
  // Each domain's fulfilment, with its legal document issued first. Shares have no invoice (a
  // contribution to capital is not a sale); the wrapper still sends the refund mail.
  return byPurpose({
    subscriptions: told(deps, withDocuments(deps, subscriptionFulfilment(deps))),
    gifts: told(deps, withDocuments(deps, giftFulfilment(deps))),
    shares: told(deps, withDocuments(deps, shareFulfilment(deps))),
  });
}

/**
 * What stops before an order's money leaves, by purpose, for the one refund path of an order
 * (orders/refunds.ts `requestOrderRefund`, asked by the back-office): a gift's code stops working
 * first, and works again if the provider refuses. Subscriptions and shares hold nothing: their
 * fulfilment's `refunded` does their part once the refund is made.
 */
export const REFUND_HOLDS: RefundHolds = byPurpose({ subscriptions: undefined, gifts: giftRefundHold, shares: undefined });

/**
 * A first payment that fails is told to the reader who waited for it, whatever it paid for,
 * once per order, in the event's transaction (renewals have their own mails, with the retries).
 */
function told(deps: ServerDeps, inner: Fulfilment): Fulfilment {
  return {
    ...inner,
    async failed(trx, order, context) {
      await inner.failed?.(trx, order, context);
      if (order.reason !== 'initial' || !order.userId) return;
      const owner = await findUser(trx, order.userId);
      if (!owner) return;
      const mail = firstPaymentFailedMail({
        siteUrl: deps.siteUrl,
        purpose: order.purpose,
        description: order.description,
        amountCents: order.amountCents,
        reason: context.reason,
      });
      await schedule(deps, trx, SEND_MAIL, mailFor(owner, mail), { uniqueKey: `checkout.first-payment-failed:${order.id}` });
    },
  };
}

/**
 * Which domain applies each kind of provider event. A new kind of event does not compile until it
 * has its line: nothing is routed by falling through.
 * - orders: an order's payment and its refund, then the order's purpose's fulfilment, by
 *   `ORDER_PURPOSE_ROUTES` (a gift order's to gifts, src/server/gifts);
 * - subscriptions: what the provider does by itself to a running subscription (Stripe's renewals,
 *   its end, a saved method's change);
 * - none: verified, recorded (so that a replay is recognised), of no interest to the site.
 */
export const PAYMENT_EVENT_ROUTES: { readonly [T in PaymentEvent['type']]: 'orders' | 'subscriptions' | 'none' } = {
  'payment.succeeded': 'orders',
  'payment.processing': 'orders',
  'payment.failed': 'orders',
  'refund.succeeded': 'orders',
  'renewal.succeeded': 'subscriptions',
  'renewal.failed': 'subscriptions',
  'subscription.ended': 'subscriptions',
  'payment_method.updated': 'subscriptions',
  ignored: 'none',
};

/** Applies one verified provider event (inside the transaction that records its id). */
export async function applyPaymentEvent(deps: ServerDeps, trx: Kysely<Database>, event: PaymentEvent): Promise<void> {
  const now = deps.clock.now();
  switch (PAYMENT_EVENT_ROUTES[event.type]) {
    case 'orders':
      await applyOrderEvent(trx, event, fulfilments(deps), now);
      return;
    case 'subscriptions':
      await applySubscriptionEvent(deps, trx, event, now, fulfilments(deps));
      return;
    case 'none':
      return;
  }
}

/** `/api/payments/webhooks/{provider}`: only the configured provider has an address. */
export async function handlePaymentWebhook(
  deps: ServerDeps,
  provider: string,
  rawBody: Uint8Array,
  headers: Headers,
): Promise<Result<{ applied: number; replayed: number }>> {
  if (provider !== deps.payments.name) return fail(404, 'Prestataire de paiement inconnu.');
  return receiveWebhook(deps, deps.payments, rawBody, headers, (trx, event) => applyPaymentEvent(deps, trx, event));
}

export const checkoutInput = billingSchema.extend({
  methode: z.enum(['card', 'sepa_debit'], { error: 'Choisissez un moyen de paiement : carte bancaire ou prélèvement SEPA.' }),
  cgv: z.literal(true, { error: 'Pour payer, acceptez les conditions générales de vente.' }),
  demarrage_immediat: z.boolean(),
  tentative: z.uuid({ error: 'Formulaire expiré : rechargez la page de paiement.' }),
});
export type CheckoutInput = z.infer<typeof checkoutInput>;

/**
 * The waiver of the 14-day withdrawal right (CGV art. 8) is a choice, never a condition of the
 * sale. Decision: a subscription starts at once (at the payment) either way. A reader who ticks
 * the box asks for that immediate start and gives up the legal right once it has started
 * (art. L. 221-28 of the Code de la consommation): the order records the request with its time
 * (`immediateStartAt`). A reader who does not keeps the legal right (`immediateStartAt` null).
 * Both are refunded in full on a withdrawal within 14 days: by law for the one, by our promise
 * (CGV art. 8) for the other, so the choice never costs a reader anything.
 */
export const waivesWithdrawal = (withdrawal: boolean, input: Pick<CheckoutInput, 'demarrage_immediat'>): boolean => withdrawal && input.demarrage_immediat;

class DuplicateAttempt extends Error {
  readonly orderId: string;
  constructor(orderId: string) {
    super('duplicate checkout attempt');
    this.orderId = orderId;
  }
}

/**
 * Places the order and opens the provider's page. The same form sent twice (same `tentative`)
 * finds the order of the first and the same provider session: one order, one charge.
 */
export async function placeOrder(
  deps: ServerDeps,
  userId: string,
  basket: Basket,
  source: string | undefined,
  input: CheckoutInput,
  giftInput?: GiftDetailsInput,
): Promise<Result<{ url: string; orderId: string }>> {
  const priced = priceBasket(basket);
  let gift: GiftDetails | null = null;
  if (basket.kind === 'gift') {
    if (!giftInput) return fail(422, 'Indiquez à qui vous offrez l’abonnement.');
    const checked = checkGiftDetails(giftInput, deps.clock.now());
    if (!checked.ok) return checked;
    gift = checked.details;
  }
  const user = await findUser(deps.db, userId);
  if (!user) return fail(404, 'Compte introuvable.');
  const business = businessOf(input);
  if (!business.ok) return business;
  const now = deps.clock.now();
  const attemptKey = `checkout:${user.id}:${input.tentative}`;
  const address = { line1: input.address_line1, line2: input.address_line2, postalCode: input.postal_code, city: input.city, country: input.country };
  // The business, if any, is the invoice's (kept on the order), not the profile's.
  const billingAddress = business.business ? { ...address, ...business.business } : address;

  const existing = await deps.db.selectFrom('orders').select('id').where('attempt_key', '=', attemptKey).executeTakeFirst();
  const order = existing
    ? await findUserOrder(deps.db, user.id, existing.id)
    : await writeTransaction(deps.db, async (trx) => {
        // The billing identity given here is the profile's from now on (prefilled next time).
        await updateProfile(trx, { userId: user.id, givenName: input.given_name, familyName: input.family_name, address, now });
        const subscriptionId = priced.interval
          ? await insertSubscription(
              trx,
              {
                userId: user.id,
                kind: priced.purpose === 'subscription' ? 'plan' : 'donation',
                planId: basket.kind === 'plan' ? basket.planId : null,
                amountCents: priced.amountCents,
                interval: priced.interval,
                vatRateBp: priced.vatRateBp,
                provider: deps.payments.name,
                source: source ?? null,
              },
              now,
            )
          : null;
        const { order: placed, created } = await insertOrder(
          trx,
          {
            userId: user.id,
            purpose: priced.purpose,
            reason: 'initial',
            offerId: priced.offerId,
            description: priced.description,
            interval: priced.interval,
            amountCents: priced.amountCents,
            vatRateBp: priced.vatRateBp,
            vatCents: priced.vatCents,
            source: source ?? null,
            method: input.methode,
            provider: deps.payments.name,
            subscriptionId,
            attemptKey,
            billingName: `${input.given_name} ${input.family_name}`,
            billingAddress,
            termsAcceptedAt: now,
            immediateStartAt: waivesWithdrawal(priced.withdrawal, input) ? now : null,
          },
          now,
        );
        // Lost a race with the same form on another connection: undo this one, keep theirs.
        if (!created) throw new DuplicateAttempt(placed.id);
        if (gift && basket.kind === 'gift') await insertGift(trx, { orderId: placed.id, buyerId: user.id, offerId: basket.offerId, details: gift }, now);
        await scheduleReconcile(deps, trx, placed.id);
        return placed;
      }).catch(async (error: unknown) => {
        if (error instanceof DuplicateAttempt) return findUserOrder(deps.db, user.id, error.orderId);
        throw error;
      });
  if (!order) return fail(404, 'Commande introuvable.');
  if (order.status !== 'pending' || order.submittedAt) return { ok: true, orderId: order.id, url: `/soutenir/confirmation/${order.id}` };
  const opened = await openCheckout(deps, order, { id: user.id, email: user.email, name: `${input.given_name} ${input.family_name}` });
  return opened.ok ? { ok: true, orderId: order.id, url: opened.url } : opened;
}

export type ConfirmationState = 'paid' | 'processing' | 'awaiting' | 'failed' | 'canceled' | 'refunded';

export interface Confirmation {
  order: Order;
  state: ConfirmationState;
  subscription: Subscription | undefined;
}

/** The buyer's own order and where it stands; any other id is unknown. */
export async function confirmation(deps: Pick<ServerDeps, 'db'>, userId: string, orderId: string): Promise<Confirmation | undefined> {
  if (!z.uuid().safeParse(orderId).success) return undefined;
  const order = await findUserOrder(deps.db, userId, orderId);
  if (!order) return undefined;
  const state: ConfirmationState = order.status === 'pending' ? (order.submittedAt ? 'processing' : 'awaiting') : order.status;
  const subscription = order.subscriptionId ? await findSubscription(deps.db, order.subscriptionId) : undefined;
  return { order, state, subscription };
}

/**
 * One thank-you per donation: the confirmation page sends a paid first donation on to its
 * thank-you page (which has the next steps) rather than thank it twice; undefined otherwise.
 * A SEPA debit stays on the confirmation page, which shows its mandate (RUM, ICS), and thanks
 * there once, with the next steps.
 */
export function donationThanksPath(order: Pick<Order, 'id' | 'purpose' | 'reason' | 'method'>, state: ConfirmationState): string | undefined {
  if (order.purpose !== 'donation' || order.reason !== 'initial' || state !== 'paid' || order.method === 'sepa_debit') return undefined;
  return `/soutenir/dons/merci?commande=${encodeURIComponent(order.id)}`;
}

/**
 * What the donation thank-you page may say of an order: thanks only for the reader's own
 * donation once paid, or once its SEPA debit is with the bank (`pending`, the page says so);
 * the reader's donation in any other state (payment unfinished, refused, cancelled, refunded)
 * belongs on its confirmation page, which says where it stands; anything else is unknown.
 */
export type DonationThanks = { kind: 'paid' | 'pending'; order: Order } | { kind: 'elsewhere'; orderId: string } | { kind: 'unknown' };

export async function donationThanks(deps: Pick<ServerDeps, 'db'>, userId: string, orderId: string | null): Promise<DonationThanks> {
  if (!orderId || !z.uuid().safeParse(orderId).success) return { kind: 'unknown' };
  const order = await findUserOrder(deps.db, userId, orderId);
  if (!order || order.purpose !== 'donation' || order.reason !== 'initial') return { kind: 'unknown' };
  if (order.status === 'paid') return { kind: 'paid', order };
  if (order.status === 'pending' && order.submittedAt) return { kind: 'pending', order };
  return { kind: 'elsewhere', orderId: order.id };
}

/**
 * `/devenir-societaire/souscrire`: the signed bulletin, with its order when paid online (card or
 * SEPA, through the same provider path as any order), or alone for a bank transfer (confirmed
 * later in the back-office). `tentative` is the form's own nonce: the same form sent twice
 * (a double click, a retried request) signs one bulletin.
 */
export async function subscribeShares(
  deps: ServerDeps,
  userId: string,
  input: BulletinInput & { tentative: string },
  client: string,
): Promise<Result<{ url: string; bulletinId: string }>> {
  const checked = checkBulletin(input);
  if (!checked.ok) return checked;
  const b = checked.bulletin;
  const user = await findUser(deps.db, userId);
  if (!user) return fail(404, 'Compte introuvable.');
  const limited = await limit(deps, [[BULLETINS_BY_ACCOUNT, user.id]], 'Trop de bulletins signés.');
  if (limited) return limited;
  const now = deps.clock.now();
  const attemptKey = `shares:${user.id}:${input.tentative}`;
  const address = { line1: input.address_line1, line2: input.address_line2, postalCode: input.postal_code, city: input.city, country: input.country };
  const online = b.paymentMethod !== 'transfer';
  const existing = online ? await deps.db.selectFrom('orders').select('id').where('attempt_key', '=', attemptKey).executeTakeFirst() : undefined;
  if (!online) {
    // A transfer has no order to carry the nonce: the same bulletin signed again within ten minutes is the same one.
    const recent = await deps.db
      .selectFrom('share_bulletins')
      .select('id')
      .where('user_id', '=', user.id)
      .where('fingerprint', '=', bulletinFingerprint(bulletinText(b, statutes.statutes.version), statutes.statutes.version))
      .where('status', '=', 'awaiting_payment')
      .where('created_at', '>', new Date(now.getTime() - 10 * 60_000).toISOString())
      .executeTakeFirst();
    if (recent) return { ok: true, bulletinId: recent.id, url: `/devenir-societaire/confirmation/${recent.id}` };
  }
  let bulletinId: string;
  let order: Order | undefined;
  if (existing) {
    order = await findUserOrder(deps.db, user.id, existing.id);
    const row = await deps.db.selectFrom('share_bulletins').select('id').where('order_id', '=', existing.id).executeTakeFirst();
    if (!order || !row) return fail(404, 'Souscription introuvable.');
    bulletinId = row.id;
  } else {
    const signed = await writeTransaction(deps.db, async (trx) => {
      await updateProfile(trx, { userId: user.id, givenName: input.given_name, familyName: input.family_name, address, now });
      let placed: Order | undefined;
      if (online) {
        const college = b.college.label;
        const result = await insertOrder(
          trx,
          {
            userId: user.id,
            purpose: 'shares',
            reason: 'initial',
            offerId: `parts-${b.college.id}`,
            description: `${b.shares} part${b.shares > 1 ? 's' : ''} sociale${b.shares > 1 ? 's' : ''} (collège ${college})`,
            interval: null,
            amountCents: b.amountCents,
            vatRateBp: 0,
            vatCents: 0,
            source: null,
            method: b.paymentMethod === 'sepa' ? 'sepa_debit' : 'card',
            provider: deps.payments.name,
            subscriptionId: null,
            attemptKey,
            billingName: b.identity.name,
            billingAddress: address,
            termsAcceptedAt: now,
            immediateStartAt: null,
          },
          now,
        );
        if (!result.created) throw new DuplicateAttempt(result.order.id);
        placed = result.order;
        await scheduleReconcile(deps, trx, placed.id);
      }
      const bulletin = await insertBulletin(trx, b, { userId: user.id, client, orderId: placed?.id ?? null }, now);
      await bulletinSigned(deps, trx, bulletin);
      return { bulletinId: bulletin.id, order: placed };
    }).catch(async (error: unknown) => {
      if (!(error instanceof DuplicateAttempt)) throw error;
      const row = await deps.db.selectFrom('share_bulletins').select('id').where('order_id', '=', error.orderId).executeTakeFirst();
      return row ? { bulletinId: row.id, order: await findUserOrder(deps.db, user.id, error.orderId) } : undefined;
    });
    if (!signed) return fail(404, 'Souscription introuvable.');
    bulletinId = signed.bulletinId;
    order = signed.order;
  }
  deps.jobs.wake();
  const confirmation = `/devenir-societaire/confirmation/${bulletinId}`;
  if (!order || order.status !== 'pending' || order.submittedAt) return { ok: true, bulletinId, url: confirmation };
  const opened = await openCheckout(deps, order, { id: user.id, email: user.email, name: b.identity.name });
  return opened.ok ? { ok: true, bulletinId, url: opened.url } : opened;
}
