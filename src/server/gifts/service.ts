/**
 * Gift subscriptions (abonnements offerts): bought on the support path like any order, with a
 * recipient, a message and a delivery day; a code issued when the payment is recorded; the
 * buyer's mail with the printable card; the recipient's mail on the chosen day; activation by
 * the recipient; the gift subscription, which never renews.
 *
 * Promises (CGV art. 2.2 and 8): the code is valid one year from purchase and serves once; the
 * subscription starts when the code is activated; a recipient who already pays a subscription
 * gets the gift's months added after the paid period (the next payment moves back by as much);
 * a gift is never renewed; a gift refunded before activation is revoked.
 *
 * Mails that carry the code are composed by their own job when it runs, from the sealed code:
 * no code sits in clear in the jobs table.
 */
import { addDays, addMonths, addYears } from 'date-fns';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { findGiftOffer } from '../../config/catalog';
import { formatDate } from '../../lib/dates';
import { giftAccountPath } from '../../lib/gift-links';
import { findUser } from '../auth/service';
import { issuedFor } from '../billing/documents';
import { renderGiftCardPdf } from '../billing/pdf/gift-card';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type Database, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { findOrder } from '../orders/public';
import type { RefundHold } from '../orders/public';
import type { Fulfilment } from '../orders/service';
import { limit, MINUTE, type RateLimitRule } from '../rate-limit/rate-limit';
import { groupCode, hashGiftCode, newGiftCode, parseGiftCode, sealGiftCode, unsealGiftCode } from './codes';
import { giftActivatedMail, giftBuyerMail, giftEndedMail, giftEndingMail, giftRecipientMail, giftTakenMail } from './mails';
import {
  findBuyerGift,
  findGift,
  findGiftByHash,
  findGiftOfOrder,
  type GiftDetails,
  type GiftRow,
  holdGiftForRefund,
  insertGift,
  listBuyerGifts,
  releaseGiftHold,
} from './repository';
import type { GiftActivationMode } from './tables';
import { SEND_MAIL } from '../mail/jobs';
import { orderPeriod, withdrawalBlocks } from '../contract-withdrawals/links';
import { mailFor } from '../mail/layout';
import {
  findSubscription,
  insertSubscription,
  insertSubscriptionEvent,
  liveGiftSubscription as liveGift,
  livePaidPlan,
  schedulePeriod,
  setGiftPeriod,
  type Subscription,
  updateSubscriptionIf,
} from '../subscriptions/public';

export type GiftDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs' | 'payments' | 'mailer'>;

/** A code is valid this long after purchase (CGV art. 2.2). */
export const GIFT_VALIDITY_YEARS = 1;
/** The recipient is invited to subscribe this many days before the gift ends. */
export const GIFT_ENDING_NOTICE_DAYS = 14;
/** The recipient's mail goes out at this hour (Paris) on the chosen day. */
const DELIVERY_HOUR = '08:00:00';
const PARIS = 'Europe/Paris';

export const GIFT_LIMITS = {
  /** Code lookups from one client: a household activating its gifts, not a guesser. */
  lookupByClient: { name: 'gift:client', limit: 20, windowMs: 60 * MINUTE },
  /** Code lookups by one account. */
  lookupByAccount: { name: 'gift:account', limit: 10, windowMs: 60 * MINUTE },
  /** Mails resent to recipients by one buyer. */
  resendByAccount: { name: 'gift:resend', limit: 5, windowMs: 60 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;

/** Mails to one gift's recipient in all (the first and three resends), at least a day apart. */
export const GIFT_MAX_SENDS = 4;
const DAY_MS = 24 * 60 * MINUTE;

const parisDay = (date: Date): string => formatInTimeZone(date, PARIS, 'yyyy-MM-dd');

// ---------------------------------------------------------------------------------------------
// Buying

/** The gift's details, as the payment page's fields name them. */
export const giftDetailsForm = z.object({
  destinataire_nom: z
    .string()
    .trim()
    .min(1, 'Indiquez le nom de la personne à qui vous offrez l’abonnement.')
    .max(100, 'Nom de la personne\u00a0: 100 caractères au plus.'),
  remise: z.enum(['email', 'moi-meme'], { error: 'Choisissez comment le cadeau est remis\u00a0: par e-mail, ou par vous-même.' }),
  destinataire_email: z.string().trim().toLowerCase().max(254, 'Adresse e-mail trop longue.').optional(),
  message: z.string().trim().max(500, 'Le message\u00a0: 500 caractères au plus.').optional(),
  date_envoi: z.string().trim().optional(),
});
export type GiftDetailsInput = z.infer<typeof giftDetailsForm>;

export type { GiftDetails };

/** The details checked against today: an e-mail when it is sent by us, a day from today to a year ahead. */
export function checkGiftDetails(input: GiftDetailsInput, now: Date): Result<{ details: GiftDetails }> {
  const today = parisDay(now);
  let recipientEmail: string | null = null;
  if (input.remise === 'email') {
    const email = z.email().safeParse(input.destinataire_email ?? '');
    if (!email.success) return fail(422, 'Indiquez l’adresse e-mail de la personne à qui envoyer le cadeau, ou choisissez de le remettre vous-même.');
    recipientEmail = email.data;
  }
  // Handed over by the buyer: nothing is sent, so the day does not matter (nor a stale one in the form).
  const day = (input.remise === 'email' && input.date_envoi?.trim()) || today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(new Date(`${day}T12:00:00Z`).getTime()) || parisDay(new Date(`${day}T12:00:00Z`)) !== day) {
    return fail(422, 'Date d’envoi invalide\u00a0: choisissez un jour, par exemple le 24 décembre.');
  }
  if (day < today) return fail(422, 'La date d’envoi est passée\u00a0: choisissez aujourd’hui ou un jour à venir.');
  // Before the code's first anniversary (it is valid a year from purchase), so the mail never carries an expired code.
  if (day >= parisDay(addYears(now, GIFT_VALIDITY_YEARS))) return fail(422, 'La date d’envoi doit tomber dans l’année qui vient.');
  const deliverAt = day === today ? now : fromZonedTime(`${day}T${DELIVERY_HOUR}`, PARIS);
  return { ok: true, details: { recipientName: input.destinataire_nom, recipientEmail, message: input.message ?? '', deliverOn: day, deliverAt } };
}

// ---------------------------------------------------------------------------------------------
// Jobs

export const GIFT_BUYER_MAIL = jobType({ kind: 'gifts.buyer-mail', schema: z.object({ giftId: z.string() }), maxAttempts: 8 });
export const GIFT_DELIVER = jobType({
  kind: 'gifts.deliver',
  schema: z.object({ giftId: z.string(), resend: z.number().int().min(0).default(0) }),
  maxAttempts: 8,
});
export const GIFT_ENDING = jobType({ kind: 'gifts.ending', schema: z.object({ subscriptionId: z.string(), periodEnd: z.string() }) });
export const GIFT_END = jobType({ kind: 'gifts.end', schema: z.object({ subscriptionId: z.string(), periodEnd: z.string() }) });

/** The gift order's fulfilment: the code when paid, the revocation when refunded before activation. */
export function giftFulfilment(deps: GiftDeps): Fulfilment {
  return {
    async paid(trx, order, { now, document }) {
      const gift = await findGiftOfOrder(trx, order.id);
      if (!gift || gift.issued_at) return;
      const code = newGiftCode();
      const issued = await trx
        .updateTable('gifts')
        .set({
          code_hash: hashGiftCode(code),
          code_sealed: sealGiftCode(code),
          code_hint: code.slice(-4),
          issued_at: toTimestamp(now),
          expires_at: toTimestamp(addYears(now, GIFT_VALIDITY_YEARS)),
          updated_at: toTimestamp(now),
        })
        .where('id', '=', gift.id)
        .where('issued_at', 'is', null)
        .executeTakeFirst();
      if (issued.numUpdatedRows === 0n) return;
      await schedule(deps, trx, GIFT_BUYER_MAIL, { giftId: gift.id }, { uniqueKey: `gifts.buyer-mail:${gift.id}` });
      if (gift.recipient_email) {
        const due = new Date(gift.deliver_at) > now ? new Date(gift.deliver_at) : now;
        await schedule(deps, trx, GIFT_DELIVER, { giftId: gift.id, resend: 0 }, { runAt: due, uniqueKey: `gifts.deliver:${gift.id}:0` });
      }
      if (document) log.info('gifts.issued', { giftId: gift.id, invoice: document.label });
    },
    async refunded(trx, order, { now }) {
      const revoked = await trx
        .updateTable('gifts')
        .set({ revoked_at: toTimestamp(now), updated_at: toTimestamp(now) })
        .where('order_id', '=', order.id)
        .where('activated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (revoked.numUpdatedRows > 0n) return;
      // Held already when the refund was asked (giftRefundHold below); an activated one is the team's to settle.
      const gift = await trx.selectFrom('gifts').select(['activated_at', 'revoked_at']).where('order_id', '=', order.id).executeTakeFirst();
      if (gift?.activated_at && !gift.revoked_at) log.warn('gifts.refund_after_activation', { orderId: order.id });
    },
  };
}

/**
 * A gift's part in its order's refund (orders/refunds.ts, composed by checkout's `REFUND_HOLDS`):
 * the code stops working before the provider is asked, so that the money never leaves for a code
 * still usable; the recipient was first (activated): nothing is refunded. The provider refused:
 * the code works again.
 */
export const giftRefundHold: RefundHold = {
  async hold(db, order, at) {
    const hold = await holdGiftForRefund(db, order.id, at);
    if (hold.state === 'activated')
      return fail(
        409,
        `Ce cadeau a été activé le ${formatDate(hold.at)} : le délai de rétractation ne s’applique plus (CGV, art. 8), et l’abonnement offert court. Rien n’a été remboursé.`,
      );
    return { ok: true };
  },
  release: (db, order, heldAt, now) => releaseGiftHold(db, order.id, heldAt, now),
};

const codeOf = (gift: GiftRow): string => groupCode(unsealGiftCode(gift.code_sealed!));
const durationOf = (months: number): string => (months % 12 === 0 ? `${months / 12} an${months >= 24 ? 's' : ''}` : `${months} mois`);

async function buyerName(deps: Pick<ServerDeps, 'db'>, gift: GiftRow): Promise<string> {
  const order = await findOrder(deps.db, gift.order_id);
  return order?.billingName || 'Une lectrice ou un lecteur de Contrechamp';
}

/**
 * The card of a gift, as a PDF (rendered from the sealed code; never stored). Its link is the
 * recipient's mail's: with their address when the buyer gave one (a prefilled account form,
 * lib/gift-links.ts), without it for a gift handed over with none.
 */
async function cardPdf(deps: Pick<ServerDeps, 'db' | 'siteUrl'>, gift: GiftRow): Promise<Uint8Array> {
  const code = codeOf(gift);
  return renderGiftCardPdf({
    offerLabel: findGiftOffer(gift.offer_id)?.label ?? durationOf(gift.months),
    months: gift.months,
    recipientName: gift.recipient_name,
    buyerName: await buyerName(deps, gift),
    message: gift.message,
    code,
    expiresAt: gift.expires_at!,
    activateUrl: new URL(giftAccountPath(code, gift.recipient_email), deps.siteUrl).href,
    siteHost: deps.siteUrl.host,
  });
}

async function sendBuyerMail(deps: GiftDeps, giftId: string): Promise<void> {
  const gift = await findGift(deps.db, giftId);
  if (!gift?.code_sealed || !gift.buyer_id || gift.revoked_at) return;
  const buyer = await findUser(deps.db, gift.buyer_id);
  if (!buyer) return;
  const invoice = await issuedFor(deps.db, `invoice:${gift.order_id}`);
  const pdf = await cardPdf(deps, gift);
  // The withdrawal function's signed link (contract-withdrawals), while its period runs.
  const paid = await findOrder(deps.db, gift.order_id);
  const period = paid?.paidAt ? orderPeriod(paid.paidAt) : undefined;
  const withdrawal = period && deps.clock.now() < period.endsAt ? withdrawalBlocks(deps.siteUrl, { orderId: gift.order_id }, period.lastDay) : [];
  const mail = giftBuyerMail({
    withdrawal,
    siteUrl: deps.siteUrl,
    code: codeOf(gift),
    duration: durationOf(gift.months),
    recipientName: gift.recipient_name,
    recipientEmail: gift.recipient_email,
    deliverOn: gift.deliver_on,
    expiresAt: new Date(gift.expires_at!),
    invoice: invoice ? { id: invoice.id, label: invoice.label } : null,
  });
  await deps.mailer.send({
    to: buyer.email,
    ...mail,
    attachments: [{ filename: 'carte-cadeau-contrechamp.pdf', contentType: 'application/pdf', content: pdf }],
  });
}

/**
 * The recipient's mail, on the chosen day or resent by the buyer. Sent, then recorded: a crash
 * in between sends it once more at the retry, never zero times.
 */
async function deliver(deps: GiftDeps, giftId: string, resend: number): Promise<void> {
  const gift = await findGift(deps.db, giftId);
  if (!gift?.code_sealed || !gift.recipient_email || gift.revoked_at || gift.activated_at) return;
  if (resend === 0 && gift.delivered_at) return;
  const now = deps.clock.now();
  if (gift.expires_at && new Date(gift.expires_at) <= now) return;
  const code = codeOf(gift);
  const mail = giftRecipientMail({
    siteUrl: deps.siteUrl,
    code,
    duration: durationOf(gift.months),
    recipientName: gift.recipient_name,
    recipientEmail: gift.recipient_email,
    buyerName: await buyerName(deps, gift),
    message: gift.message,
    expiresAt: new Date(gift.expires_at!),
  });
  await deps.mailer.send({ to: gift.recipient_email, ...mail });
  await deps.db
    .updateTable('gifts')
    .set((eb) => ({
      delivered_at: gift.delivered_at ?? toTimestamp(now),
      last_sent_at: toTimestamp(now),
      sent_count: eb('sent_count', '+', 1),
      updated_at: toTimestamp(now),
    }))
    .where('id', '=', gift.id)
    .execute();
}

/** Before a gift subscription ends: the invitation to subscribe. At its end: it expires. */
async function giftEnding(deps: GiftDeps, subscriptionId: string, periodEnd: string, ends: boolean): Promise<void> {
  const sub = await findSubscription(deps.db, subscriptionId);
  if (!sub || sub.kind !== 'gift' || sub.status !== 'active' || !sub.currentPeriodEnd || toTimestamp(sub.currentPeriodEnd) !== periodEnd || !sub.userId) return;
  await writeTransaction(deps.db, async (trx) => {
    const owner = await findUser(trx, sub.userId!);
    if (ends) {
      const ended = await updateSubscriptionIf(
        trx,
        sub,
        { set: { status: 'expired', ended_at: periodEnd }, type: 'ended', detail: 'Fin de l’abonnement offert' },
        deps.clock.now(),
      );
      if (ended && owner)
        await schedule(deps, trx, SEND_MAIL, mailFor(owner, giftEndedMail({ siteUrl: deps.siteUrl })), {
          uniqueKey: `gifts.ended-mail:${sub.id}:${periodEnd}`,
        });
    } else if (owner) {
      await schedule(deps, trx, SEND_MAIL, mailFor(owner, giftEndingMail({ siteUrl: deps.siteUrl, endsAt: sub.currentPeriodEnd! })), {
        uniqueKey: `gifts.ending-mail:${sub.id}:${periodEnd}`,
      });
    }
  });
  deps.jobs.wake();
}

/** What the end of a gift period needs: the invitation 14 days before, the expiry at the end. */
async function scheduleGiftEnd(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, subscriptionId: string, periodEnd: Date): Promise<void> {
  const end = toTimestamp(periodEnd);
  const noticeAt = addDays(periodEnd, -GIFT_ENDING_NOTICE_DAYS);
  if (noticeAt > deps.clock.now())
    await schedule(deps, trx, GIFT_ENDING, { subscriptionId, periodEnd: end }, { runAt: noticeAt, uniqueKey: `gifts.ending:${subscriptionId}:${end}` });
  await schedule(deps, trx, GIFT_END, { subscriptionId, periodEnd: end }, { runAt: periodEnd, uniqueKey: `gifts.end:${subscriptionId}:${end}` });
}

export const POSTPONE_AT_PROVIDER = jobType({
  kind: 'gifts.postpone-at-provider',
  schema: z.object({ subscriptionId: z.string(), until: z.string() }),
  maxAttempts: 20,
});

export const giftJobs = (deps: GiftDeps) => [
  handle(GIFT_BUYER_MAIL, ({ payload }) => sendBuyerMail(deps, payload.giftId)),
  handle(GIFT_DELIVER, ({ payload }) => deliver(deps, payload.giftId, payload.resend)),
  handle(GIFT_ENDING, ({ payload }) => giftEnding(deps, payload.subscriptionId, payload.periodEnd, false)),
  handle(GIFT_END, ({ payload }) => giftEnding(deps, payload.subscriptionId, payload.periodEnd, true)),
  handle(POSTPONE_AT_PROVIDER, async ({ payload }) => {
    const sub = await findSubscription(deps.db, payload.subscriptionId);
    if (!sub?.providerRef || sub.status !== 'active') return;
    await deps.payments.postponeRenewal({
      subscriptionRef: sub.providerRef,
      until: new Date(payload.until),
      idempotencyKey: `gift-postpone:${sub.id}:${payload.until}`,
    });
  }),
];

// ---------------------------------------------------------------------------------------------
// Activation

export interface GiftPreview {
  giftId: string;
  duration: string;
  months: number;
  recipientName: string;
  expiresAt: Date;
  /** What activating does for this account. */
  plan:
    | { mode: 'new'; startsAt: Date; endsAt: Date }
    /** `ending`: its cancellation was asked; it now ends at `endsAt`, with no payment (`nextPaymentAt` null). */
    | { mode: 'after_paid'; paidUntil: Date; endsAt: Date; nextPaymentAt: Date | null; ending: boolean; label: string }
    | { mode: 'extended'; endsAt: Date };
}

async function findByCode(db: Kysely<Database>, code: string): Promise<GiftRow | undefined> {
  return findGiftByHash(db, hashGiftCode(code));
}

/** Why a found gift cannot be activated now, in French; null when it can. */
function unusable(gift: GiftRow, now: Date): Result | null {
  if (!gift.issued_at) return fail(409, 'Ce cadeau n’est pas encore payé\u00a0: son code sera valable dès que le paiement sera confirmé.');
  if (gift.revoked_at) return fail(409, 'Ce code cadeau a été annulé (l’achat a été remboursé)\u00a0: il ne peut plus être utilisé.');
  if (gift.activated_at)
    return fail(409, `Ce code cadeau a déjà été utilisé, le ${formatDate(new Date(gift.activated_at))}\u00a0: un code ne sert qu’une fois.`);
  if (gift.expires_at && new Date(gift.expires_at) <= now)
    return fail(409, `Ce code cadeau a expiré le ${formatDate(new Date(gift.expires_at))}\u00a0: il était valable un an à compter de l’achat.`);
  return null;
}

/** A typed code checked, then looked up (counted against the guessing limits). */
async function lookUp(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  typed: string,
  who: { client: string; userId?: string | undefined },
): Promise<Result<{ gift: GiftRow; code: string }>> {
  const parsed = parseGiftCode(typed);
  if (!parsed.ok) return fail(422, parsed.message);
  const checks: [RateLimitRule, string][] = [[GIFT_LIMITS.lookupByClient, who.client]];
  if (who.userId) checks.push([GIFT_LIMITS.lookupByAccount, who.userId]);
  const limited = await limit(deps, checks, 'Trop de codes essayés.');
  if (limited) return limited;
  const gift = await findByCode(deps.db, parsed.code);
  if (!gift) return fail(404, 'Ce code cadeau n’existe pas. Vérifiez-le sur votre carte ou dans l’e-mail reçu.');
  return { ok: true, gift, code: parsed.code };
}

async function planFor(db: Kysely<Database>, userId: string, months: number, now: Date): Promise<GiftPreview['plan']> {
  const paid = await livePaidPlan(db, userId, now);
  if (paid?.currentPeriodEnd) {
    const endsAt = addMonths(paid.currentPeriodEnd, months);
    return {
      mode: 'after_paid',
      paidUntil: paid.currentPeriodEnd,
      endsAt,
      nextPaymentAt: paid.cancelAtPeriodEnd ? null : endsAt,
      ending: paid.cancelAtPeriodEnd,
      label: paid.planId ?? '',
    };
  }
  const gift = await liveGift(db, userId);
  if (gift?.currentPeriodEnd) return { mode: 'extended', endsAt: addMonths(gift.currentPeriodEnd, months) };
  return { mode: 'new', startsAt: now, endsAt: addMonths(now, months) };
}

/** What activating this code would do for this account (or, without an account, what the gift is). */
export async function previewGift(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  typed: string,
  who: { client: string; userId?: string | undefined },
): Promise<Result<{ preview: GiftPreview; code: string }>> {
  const found = await lookUp(deps, typed, who);
  if (!found.ok) return found;
  const now = deps.clock.now();
  const refusal = unusable(found.gift, now);
  if (refusal && !refusal.ok) return refusal;
  const gift = found.gift;
  const plan = who.userId ? await planFor(deps.db, who.userId, gift.months, now) : { mode: 'new' as const, startsAt: now, endsAt: addMonths(now, gift.months) };
  return {
    ok: true,
    code: found.code,
    preview: {
      giftId: gift.id,
      duration: durationOf(gift.months),
      months: gift.months,
      recipientName: gift.recipient_name,
      expiresAt: new Date(gift.expires_at!),
      plan,
    },
  };
}

/** The subscription a gift was about to change moved meanwhile (a renewal, another gift): try again. */
class SubscriptionMoved extends Error {}

export interface GiftActivation {
  mode: GiftActivationMode;
  /** When the gift's months end (for a paid plan, the end of its period moved back). */
  endsAt: Date;
  /** The next payment of a paid plan the months were added to; null when nothing is due. */
  nextPaymentAt: Date | null;
  subscriptionId: string;
}

/**
 * Activates a code for an account. One conditional update claims the code: of two activations
 * at the same moment (two tabs, two people, two processes), exactly one changes the row; the
 * other finds it used. The subscription starts or is extended in the same transaction.
 */
export async function activateGift(deps: GiftDeps, userId: string, typed: string, client: string): Promise<Result<GiftActivation>> {
  const found = await lookUp(deps, typed, { client, userId });
  if (!found.ok) return found;
  const now = deps.clock.now();
  const refusal = unusable(found.gift, now);
  if (refusal && !refusal.ok) return refusal;
  const gift = found.gift;
  let outcome: GiftActivation | undefined;
  // The claim and the subscription's change commit together; a subscription that moved between
  // its read and its conditional update (PostgreSQL, READ COMMITTED) rolls both back: read again.
  for (let attempt = 1; ; attempt++) {
    try {
      outcome = await writeTransaction(deps.db, (trx) => claimAndApply(deps, trx, gift, userId, now));
      break;
    } catch (error) {
      if (!(error instanceof SubscriptionMoved) || attempt >= 3) throw error;
    }
  }
  deps.jobs.wake();
  if (!outcome) {
    const again = await findByCode(deps.db, found.code);
    const why = again ? unusable(again, now) : null;
    return why && !why.ok ? why : fail(409, 'Ce code cadeau vient d’être utilisé\u00a0: un code ne sert qu’une fois.');
  }
  return { ok: true, ...outcome };
}

async function claimAndApply(deps: GiftDeps, trx: Kysely<Database>, gift: GiftRow, userId: string, now: Date): Promise<GiftActivation | undefined> {
  const claimed = await trx
    .updateTable('gifts')
    .set({ activated_at: toTimestamp(now), activated_by: userId, updated_at: toTimestamp(now) })
    .where('id', '=', gift.id)
    .where('activated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('issued_at', 'is not', null)
    .where('expires_at', '>', toTimestamp(now))
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) return undefined;
  const detail = `Abonnement offert de ${durationOf(gift.months)} activé`;
  let outcome: GiftActivation;
  const paid = await livePaidPlan(trx, userId, now);
  if (paid?.currentPeriodEnd) {
    // After the paid period: the next payment moves back by the gift's months (or, for a plan
    // whose cancellation was asked, it ends that much later, with no payment).
    const endsAt = addMonths(paid.currentPeriodEnd, gift.months);
    const what = paid.cancelAtPeriodEnd ? `fin reportée au ${formatDate(endsAt)}` : `prochain paiement reporté au ${formatDate(endsAt)}`;
    const moved = await updateSubscriptionIf(
      trx,
      paid,
      { set: { current_period_end: toTimestamp(endsAt) }, type: 'gift-added', detail: `${detail}\u00a0: ${what}` },
      now,
    );
    if (!moved) throw new SubscriptionMoved();
    await rescheduleRenewal(deps, trx, paid, endsAt);
    outcome = { mode: 'after_paid', endsAt, nextPaymentAt: paid.cancelAtPeriodEnd ? null : endsAt, subscriptionId: paid.id };
  } else {
    const current = await liveGift(trx, userId);
    let subscriptionId: string;
    let endsAt: Date;
    if (current?.currentPeriodEnd) {
      endsAt = addMonths(current.currentPeriodEnd, gift.months);
      const extended = await updateSubscriptionIf(
        trx,
        current,
        { set: { current_period_end: toTimestamp(endsAt) }, type: 'gift-added', detail: `${detail}\u00a0: prolongé jusqu’au ${formatDate(endsAt)}` },
        now,
      );
      if (!extended) throw new SubscriptionMoved();
      subscriptionId = current.id;
    } else {
      endsAt = addMonths(now, gift.months);
      subscriptionId = await insertSubscription(
        trx,
        { userId, kind: 'gift', planId: null, amountCents: 0, interval: 'month', vatRateBp: 0, provider: deps.payments.name, source: null, status: 'active' },
        now,
      );
      await setGiftPeriod(trx, subscriptionId, now, endsAt);
      await insertSubscriptionEvent(trx, { subscriptionId, type: 'started', from: 'active', to: 'active', detail }, now);
    }
    // Keyed on the new end: the jobs of the end before an extension do nothing.
    await scheduleGiftEnd(deps, trx, subscriptionId, endsAt);
    outcome = { mode: 'new', endsAt, nextPaymentAt: null, subscriptionId };
  }
  await trx.updateTable('gifts').set({ subscription_id: outcome.subscriptionId, activation_mode: outcome.mode }).where('id', '=', gift.id).execute();
  await scheduleActivationMails(deps, trx, gift, userId, outcome, now);
  return outcome;
}

/**
 * With the activation, in its transaction: the account that took the code gets the gift's dates;
 * the buyer, if still a member and someone else, a word that the gift was taken (the name they
 * gave the recipient, nothing else of the recipient's). Once per gift.
 */
async function scheduleActivationMails(
  deps: GiftDeps,
  trx: Kysely<Database>,
  gift: GiftRow,
  userId: string,
  outcome: GiftActivation,
  now: Date,
): Promise<void> {
  const duration = durationOf(gift.months);
  const recipient = await findUser(trx, userId);
  if (recipient) {
    const mail = giftActivatedMail({
      siteUrl: deps.siteUrl,
      duration,
      buyerName: await buyerName({ db: trx }, gift),
      startsAt: now,
      endsAt: outcome.endsAt,
      nextPaymentAt: outcome.nextPaymentAt,
      afterPaid: outcome.mode === 'after_paid',
    });
    await schedule(deps, trx, SEND_MAIL, mailFor(recipient, mail), { uniqueKey: `gifts.activated-mail:${gift.id}` });
  }
  const buyer = gift.buyer_id && gift.buyer_id !== userId ? await findUser(trx, gift.buyer_id) : undefined;
  if (buyer) {
    const mail = giftTakenMail({ siteUrl: deps.siteUrl, duration, recipientName: gift.recipient_name, activatedAt: now });
    await schedule(deps, trx, SEND_MAIL, mailFor(buyer, mail), { uniqueKey: `gifts.taken-mail:${gift.id}` });
  }
}

/** A paid subscription's renewal moved to its new period end. */
async function rescheduleRenewal(deps: GiftDeps, trx: Kysely<Database>, sub: Subscription, until: Date): Promise<void> {
  // The site's own renewal job carries the old period end, so it does nothing; a new one is due at the new end.
  await schedulePeriod(deps, trx, sub, until);
  if (deps.payments.runsRenewals && sub.providerRef) {
    await schedule(
      deps,
      trx,
      POSTPONE_AT_PROVIDER,
      { subscriptionId: sub.id, until: toTimestamp(until) },
      { uniqueKey: `gifts.postpone:${sub.id}:${toTimestamp(until)}` },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The buyer's gifts

export interface BoughtGift {
  id: string;
  duration: string;
  recipientName: string;
  recipientEmail: string | null;
  deliverOn: string;
  paid: boolean;
  codeHint: string | null;
  deliveredAt: Date | null;
  activatedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** « En attente du paiement », « Envoi prévu le … », « Envoyé le … », « Activé le … », « Expiré », « Annulé ». */
  state: string;
  canResend: boolean;
  orderId: string;
}

function describe(gift: GiftRow, now: Date): { state: string; canResend: boolean } {
  const expired = gift.expires_at !== null && new Date(gift.expires_at) <= now;
  if (!gift.issued_at) return { state: 'En attente du paiement', canResend: false };
  if (gift.revoked_at) return { state: `Annulé (remboursé) le ${formatDate(new Date(gift.revoked_at))}`, canResend: false };
  if (gift.activated_at) return { state: `Activé le ${formatDate(new Date(gift.activated_at))}`, canResend: false };
  if (expired) return { state: `Expiré le ${formatDate(new Date(gift.expires_at!))}, sans avoir été activé`, canResend: false };
  if (!gift.recipient_email) return { state: 'À remettre par vous-même\u00a0: pas encore activé', canResend: false };
  if (!gift.delivered_at) return { state: `Envoi prévu le ${formatDate(new Date(gift.deliver_at))}`, canResend: false };
  return { state: `Envoyé le ${formatDate(new Date(gift.delivered_at))}\u00a0: pas encore activé`, canResend: true };
}

export async function listBoughtGifts(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<BoughtGift[]> {
  const rows = await listBuyerGifts(deps.db, userId);
  const now = deps.clock.now();
  return rows
    .filter((g) => g.issued_at !== null || new Date(g.created_at) > addDays(now, -1))
    .map((g) => ({
      id: g.id,
      duration: durationOf(g.months),
      recipientName: g.recipient_name,
      recipientEmail: g.recipient_email,
      deliverOn: g.deliver_on,
      paid: g.issued_at !== null,
      codeHint: g.code_hint,
      deliveredAt: g.delivered_at ? new Date(g.delivered_at) : null,
      activatedAt: g.activated_at ? new Date(g.activated_at) : null,
      expiresAt: g.expires_at ? new Date(g.expires_at) : null,
      revokedAt: g.revoked_at ? new Date(g.revoked_at) : null,
      orderId: g.order_id,
      ...describe(g, now),
    }));
}

/** The buyer's card of their own paid gift; undefined for any other id. */
export async function boughtGiftCard(deps: Pick<ServerDeps, 'db' | 'siteUrl'>, userId: string, giftId: string): Promise<Uint8Array | undefined> {
  const gift = await findBuyerGift(deps.db, userId, giftId);
  if (!gift?.code_sealed || gift.revoked_at) return undefined;
  return cardPdf(deps, gift);
}

/** Sends the recipient's mail again, now. */
export async function resendGift(deps: GiftDeps, userId: string, giftId: string): Promise<Result<{ to: string }>> {
  const gift = await findBuyerGift(deps.db, userId, giftId);
  if (!gift) return fail(404, 'Ce cadeau est introuvable.');
  const { canResend } = describe(gift, deps.clock.now());
  if (!canResend || !gift.recipient_email)
    return fail(409, 'Ce cadeau ne peut pas être renvoyé\u00a0: il n’a pas encore été envoyé, a déjà été activé, a expiré ou a été annulé.');
  // Per gift, so that nobody's mailbox can be filled with one gift's mail: a few sends in all, a day apart.
  if (gift.sent_count >= GIFT_MAX_SENDS)
    return fail(
      409,
      `Ce cadeau a déjà été envoyé ${gift.sent_count} fois : il ne peut plus être renvoyé. Imprimez la carte cadeau ou transmettez le code vous-même.`,
    );
  const lastSent = gift.last_sent_at ? new Date(gift.last_sent_at) : null;
  if (lastSent && deps.clock.now().getTime() - lastSent.getTime() < DAY_MS) {
    return fail(
      429,
      `Ce cadeau a été envoyé le ${formatDate(lastSent)} à ${formatInTimeZone(lastSent, PARIS, "HH' h 'mm")} : vous pourrez le renvoyer 24 heures plus tard. D’ici là, vous pouvez imprimer la carte cadeau.`,
    );
  }
  const limited = await limit(deps, [[GIFT_LIMITS.resendByAccount, userId]], 'Trop de renvois.');
  if (limited) return limited;
  await schedule(deps, deps.db, GIFT_DELIVER, { giftId: gift.id, resend: gift.sent_count }, { uniqueKey: `gifts.deliver:${gift.id}:${gift.sent_count}` });
  deps.jobs.wake();
  return { ok: true, to: gift.recipient_email };
}

// ---------------------------------------------------------------------------------------------
// Demo data

/** The demo gift's code, printed in the README to try activation. */
export const DEMO_GIFT_CODE = 'CHMP-7K26-AB3D-EMQ8';

/**
 * Demo mode only: a six-month gift the demo subscriber bought three weeks ago for Louis Lecteur,
 * paid (with its invoice, issued like any other), delivered, not activated. Once.
 */
export async function seedDemoGift(
  deps: GiftDeps,
  buyer: { id: string; name: string; address: { line1: string; line2: string; postalCode: string; city: string; country: string } },
  recipient: { name: string; email: string },
  issue: (trx: Kysely<Database>, orderId: string, paidAt: Date) => Promise<void>,
): Promise<void> {
  const code = parseGiftCode(DEMO_GIFT_CODE);
  if (!code.ok) throw new Error('The demo gift code does not pass its check');
  if (await findByCode(deps.db, code.code)) return;
  const offer = findGiftOffer('cadeau-6-mois');
  if (!offer) return;
  const paidAt = addDays(deps.clock.now(), -21);
  const { insertOrder } = await import('../orders/public');
  const { vatIncluded, SUBSCRIPTION_VAT_BP } = await import('../../config/catalog');
  await writeTransaction(deps.db, async (trx) => {
    const { order } = await insertOrder(
      trx,
      {
        userId: buyer.id,
        purpose: 'gift',
        reason: 'initial',
        offerId: offer.id,
        description: `Abonnement offert ${offer.label}`,
        interval: null,
        amountCents: offer.priceCents,
        vatRateBp: SUBSCRIPTION_VAT_BP,
        vatCents: vatIncluded(offer.priceCents, SUBSCRIPTION_VAT_BP),
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: `demo:gift:${buyer.id}`,
        billingName: buyer.name,
        billingAddress: buyer.address,
        termsAcceptedAt: paidAt,
        status: 'paid',
        paymentRef: `ch_sim_demo_gift_${buyer.id}`,
        paidAt,
      },
      paidAt,
    );
    await insertGift(
      trx,
      {
        orderId: order.id,
        buyerId: buyer.id,
        offerId: offer.id,
        details: {
          recipientName: recipient.name,
          recipientEmail: recipient.email,
          message: 'Pour que tu lises enfin des journalistes qui prennent le temps. Bonne lecture\u00a0!',
          deliverOn: parisDay(paidAt),
          deliverAt: paidAt,
        },
      },
      paidAt,
    );
    await trx
      .updateTable('gifts')
      .set({
        code_hash: hashGiftCode(code.code),
        code_sealed: sealGiftCode(code.code),
        code_hint: code.code.slice(-4),
        issued_at: toTimestamp(paidAt),
        expires_at: toTimestamp(addYears(paidAt, GIFT_VALIDITY_YEARS)),
        delivered_at: toTimestamp(paidAt),
        last_sent_at: toTimestamp(paidAt),
        sent_count: 1,
      })
      .where('order_id', '=', order.id)
      .execute();
    await issue(trx, order.id, paidAt);
  });
}
