/**
 * The withdrawal function (« Se rétracter du contrat ici », CGV art. 8 and 10; art. 11a of the
 * consumer rights directive as amended by Directive (EU) 2023/2673): for every contract
 * concluded on the site and still within its period, from the account or from the signed link
 * of its confirmation mail.
 *
 * Eligibility is computed here, from the records: a plan subscription's initial order paid less
 * than 14 days ago (to the end of the 14th Paris day after payment), refunded in full whether or
 * not the immediate start was asked, the subscription ending on the refund's event; a gift order
 * in the same period whose code is not activated; a share bulletin within its renunciation period
 * (the shares' rule and renunciation, `renounceBulletin`, do the rest). Donations are not
 * contracts with a withdrawal right: they never appear.
 *
 * Withdrawing records the withdrawal (one per contract: a second request answers with the first),
 * and in the same transaction schedules the acknowledgement mail and, for an order, the refund
 * job (the shared path, orders/refunds.ts, key `refund:{order}`). A gift's code is
 * stopped in that transaction too, so that it can no longer be activated.
 */
import { z } from 'zod';
import { formatEuros } from '../../config/catalog';
import { CONTACTS } from '../../config/publisher';
import { formatDate, formatDateTime } from '../../lib/dates';
import { findUser } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import type { Database, PaymentMethodKind } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { mailFor } from '../mail/layout';
import { SEND_MAIL } from '../mail/jobs';
import {
  findOrder,
  findUserOrder,
  orderEvents,
  type Order,
  orderRefundKey,
  REFUND_REQUESTED,
  refundState,
  requestOrderRefund,
  toOrder,
} from '../orders/public';
import { findBulletin, findUserBulletin, listUserBulletins, type ShareBulletin } from '../shares/bulletins';
import { canRenounce, renounceBulletin } from '../shares/service';
import { giftStateOfOrder, holdGiftForRefund } from '../gifts/public';
import type { Kysely } from 'kysely';
import { bulletinPeriod, contractOfToken, type ContractRef, orderPeriod, untilDay, WITHDRAWAL_DAYS } from './links';
import { acknowledgementMail } from './mails';
import { type ContractWithdrawal, findWithdrawal, insertWithdrawal, latestWithdrawals, userWithdrawals, withdrawalOf } from './repository';
import type { ContractKind, WithdrawalChannel } from './tables';
import type { Contract } from './contract';

export type WithdrawalDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs' | 'payments'>;
export type { ContractWithdrawal, ContractKind, WithdrawalChannel, ContractRef };
export { withdrawalBlocks, withdrawalLink, withdrawalToken, orderPeriod, bulletinPeriod, untilDay } from './links';

export const NOT_FOUND = 'Ce contrat est introuvable.';
/** What the mailed link's page says for a token that is not one (cut, altered, forged): a 404. */
export const LINK_NOT_VALID = `Ce lien de rétractation n’est pas valide : il a peut-être été coupé ou modifié. Copiez-le en entier depuis l’e-mail, ou retrouvez vos contrats dans votre compte, page «\u00a0Se rétracter d’un contrat\u00a0». Vous pouvez aussi nous écrire à ${CONTACTS.abonnements.email} (à ${CONTACTS.societaires.email} pour des parts sociales).`;

/** How a page names a contract in its address or form: `o.<uuid>` (an order) or `b.<uuid>` (a bulletin). */
export const contractParam = (ref: ContractRef): string => ('orderId' in ref ? `o.${ref.orderId}` : `b.${ref.bulletinId}`);
export function parseContractParam(value: string | null | undefined): ContractRef | null {
  const match = /^([ob])\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec((value ?? '').toLowerCase());
  if (!match) return null;
  return match[1] === 'o' ? { orderId: match[2]! } : { bulletinId: match[2]! };
}

export type { Contract };

const ORDER_MEANS: Record<PaymentMethodKind, string> = {
  card: 'sur la carte bancaire utilisée pour la commande',
  sepa_debit: 'sur le compte bancaire débité par le prélèvement SEPA',
};

/** The kind of contract an order is, if it is one with a withdrawal right (donations, renewals, shares orders are not). */
function orderKind(order: Order): ContractKind | null {
  if (order.purpose === 'subscription' && order.reason === 'initial') return 'subscription';
  if (order.purpose === 'gift') return 'gift';
  return null;
}

/**
 * A contract whose account was deleted since (account/parts.ts detaches orders and bulletins, and
 * keeps them): the right stands for the whole period, but the function cannot acknowledge it on a
 * durable medium — there is no address to write to any more — so the reader is told to write to
 * the contact that handles it, with the reference, before the deadline. Nothing is recorded.
 */
const accountGone = (c: Pick<Contract, 'kind' | 'reference' | 'refundCents' | 'refundMeans' | 'lastDay' | 'endsAt'>) => {
  const contact = c.kind === 'shares' ? CONTACTS.societaires.email : CONTACTS.abonnements.email;
  const refund =
    c.refundCents > 0
      ? `nous vous remboursons alors ${formatEuros(c.refundCents)} dans un délai de 14 jours au plus`
      : 'rien n’a été payé : il n’y a rien à rembourser';
  return `Le compte avec lequel ce contrat a été conclu a été supprimé : la rétractation ne peut plus se faire en ligne, car nous n’aurions plus d’adresse où vous en envoyer l’accusé de réception. Votre droit reste entier ${deadlineOf(c)} : écrivez-nous avant cette date à ${contact}, en indiquant la référence ${c.reference} ; ${refund}. Rien n’a changé pour l’instant.`;
};

/**
 * « jusqu’au 11 décembre 2026 inclus » for an order (to the end of its last Paris day); « jusqu’au
 * 11 décembre 2026 à 10 h 32 (heure de Paris) » for a bulletin (14 × 24 hours after signing, to the minute).
 */
export const deadlineOf = (c: Pick<Contract, 'kind' | 'lastDay' | 'endsAt'>): string =>
  c.kind === 'shares' ? `jusqu’au ${formatDateTime(c.endsAt)} (heure de Paris)` : `${untilDay(c.lastDay)} inclus`;

const periodEnded = (lastDay: Date) =>
  `Le délai de rétractation de ce contrat a pris fin le ${formatDate(lastDay)} : votre demande n’a pas été enregistrée, et rien n’a changé. Pour toute question, écrivez à ${CONTACTS.abonnements.email}.`;

async function orderContract(deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>, order: Order): Promise<Contract | undefined> {
  const kind = orderKind(order);
  if (!kind || !order.paidAt) return undefined;
  const { lastDay, endsAt } = orderPeriod(order.paidAt);
  const withdrawal = (await withdrawalOf(deps.db, { orderId: order.id })) ?? null;
  let name = order.description;
  let refusal: Contract['refusal'] = null;
  const now = deps.clock.now();
  if (kind === 'gift') {
    const gift = await giftStateOfOrder(deps.db, order.id);
    if (gift) name = `${order.description} pour ${gift.recipientName}`;
    if (!withdrawal && gift?.activatedAt)
      refusal = {
        status: 409,
        message: `Ce cadeau a été activé le ${formatDate(gift.activatedAt)} : le droit de rétractation ne s’applique plus (CGV, article 8), et rien n’a changé.`,
      };
  }
  const refundCents = order.amountCents;
  const refundMeans = order.method ? ORDER_MEANS[order.method] : 'sur le moyen de paiement utilisé pour la commande';
  if (!withdrawal && !refusal) {
    if (now.getTime() >= endsAt.getTime()) refusal = { status: 409, message: periodEnded(lastDay) };
    else {
      const state = refundState(deps, order, await orderEvents(deps.db, order.id));
      if (!state.can)
        refusal = {
          status: 409,
          message:
            order.status === 'refunded' || ('requested' in state && state.requested)
              ? 'Cette commande a déjà été remboursée, ou son remboursement est en cours : il n’y a rien à faire de plus.'
              : `Cette commande ne peut pas être remboursée en ligne : écrivez à ${CONTACTS.abonnements.email}, nous nous en occupons.`,
        };
      else if (!order.userId) refusal = { status: 410, message: accountGone({ kind, reference: order.reference, refundCents, refundMeans, lastDay, endsAt }) };
    }
  }
  return {
    ref: { orderId: order.id },
    kind,
    userId: order.userId,
    name,
    reference: order.reference,
    concludedAt: order.paidAt,
    refundCents,
    refundMeans,
    lastDay,
    endsAt,
    refusal,
    withdrawal,
  };
}

const sharesName = (b: ShareBulletin) =>
  `${b.shares} part${b.shares > 1 ? 's' : ''} sociale${b.shares > 1 ? 's' : ''} de Contrechamp (bulletin de souscription)`;

async function bulletinContract(deps: Pick<ServerDeps, 'db' | 'clock'>, b: ShareBulletin): Promise<Contract | undefined> {
  // A bulletin not paid when its account was deleted was closed by the deletion (shares' detachUserShares): its link says so.
  const closedWithAccount = b.status === 'canceled' && !b.userId;
  if (!closedWithAccount && !['awaiting_payment', 'paid', 'admitted', 'renounced'].includes(b.status)) return undefined;
  const { lastDay, endsAt } = bulletinPeriod(b.acceptedAt);
  const withdrawal = (await withdrawalOf(deps.db, { bulletinId: b.id })) ?? null;
  const refundCents = b.paidAt ? Math.min(b.transferReceivedCents ?? b.amountCents, b.amountCents) : 0;
  const refundMeans = !b.paidAt
    ? 'rien n’a été payé : il n’y a rien à rembourser'
    : b.paymentMethod === 'transfer' || !b.orderId
      ? 'par virement, sur le compte dont vous indiquerez l’IBAN dans l’espace Sociétariat'
      : b.paymentMethod === 'sepa'
        ? ORDER_MEANS.sepa_debit
        : ORDER_MEANS.card;
  let refusal: Contract['refusal'] = null;
  if (!withdrawal) {
    if (closedWithAccount)
      refusal = {
        status: 410,
        message: `Cette souscription a été annulée avant d’être payée, avec la suppression de votre compte (ou faute de paiement) : il n’y a rien à rembourser, ni rien à faire. Si un paiement nous parvient encore pour elle, nous vous le rendons. Pour toute question, écrivez à ${CONTACTS.societaires.email} en indiquant le bulletin ${b.number}.`,
      };
    else if (b.status === 'renounced') refusal = { status: 409, message: 'Vous avez déjà renoncé à cette souscription : il n’y a rien à faire de plus.' };
    else if (!canRenounce(b, deps.clock.now()))
      refusal = {
        status: 409,
        message: `Le délai de renonciation de cette souscription a pris fin le ${formatDate(lastDay)} : votre demande n’a pas été enregistrée, et rien n’a changé. Pour quitter la coopérative, demandez le retrait de vos parts depuis l’espace Sociétariat.`,
      };
    else if (!b.userId) refusal = { status: 410, message: accountGone({ kind: 'shares', reference: b.number, refundCents, refundMeans, lastDay, endsAt }) };
  }
  return {
    ref: { bulletinId: b.id },
    kind: 'shares',
    userId: b.userId,
    name: sharesName(b),
    reference: b.number,
    concludedAt: b.acceptedAt,
    refundCents,
    refundMeans,
    lastDay,
    endsAt,
    refusal,
    withdrawal,
  };
}

/** The contract a reader names, reached through the session's user; undefined for anyone else's. */
export async function contractOfUser(deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>, userId: string, ref: ContractRef): Promise<Contract | undefined> {
  if ('orderId' in ref) {
    if (!z.uuid().safeParse(ref.orderId).success) return undefined;
    const order = await findUserOrder(deps.db, userId, ref.orderId);
    return order && orderContract(deps, order);
  }
  if (!z.uuid().safeParse(ref.bulletinId).success) return undefined;
  const bulletin = await findUserBulletin(deps.db, userId, ref.bulletinId);
  return bulletin && bulletinContract(deps, bulletin);
}

/**
 * The contract a mailed link names; undefined for a forged or altered token. A contract whose
 * account was deleted since is still shown: withdrawn, with its record; else with a 410 refusal
 * that says whom to write to (`accountGone`).
 */
export async function contractOfLink(deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>, token: string): Promise<Contract | undefined> {
  const ref = contractOfToken(token);
  if (!ref) return undefined;
  if ('orderId' in ref) {
    const order = await findOrder(deps.db, ref.orderId);
    return order && orderContract(deps, order);
  }
  const bulletin = await findBulletin(deps.db, ref.bulletinId);
  return bulletin && bulletinContract(deps, bulletin);
}

/** The user's contracts the function concerns: open ones, and the ones withdrawn, newest first. */
export async function contractsOfUser(deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>, userId: string): Promise<Contract[]> {
  const since = new Date(deps.clock.now().getTime() - (WITHDRAWAL_DAYS + 2) * 86_400_000).toISOString();
  const rows = await deps.db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', 'in', ['subscription', 'gift'])
    .where('reason', '=', 'initial')
    .where('paid_at', '>=', since)
    .execute();
  const withdrawn = new Set((await userWithdrawals(deps.db, userId)).map((w) => w.orderId ?? w.bulletinId));
  const contracts: Contract[] = [];
  for (const row of rows) {
    const c = await orderContract(deps, toOrder(row));
    if (c && (!c.refusal || withdrawn.has(row.id))) contracts.push(c);
  }
  for (const b of await listUserBulletins(deps.db, userId)) {
    const c = await bulletinContract(deps, b);
    if (c && (!c.refusal || withdrawn.has(b.id))) contracts.push(c);
  }
  return contracts.sort((a, b) => b.concludedAt.getTime() - a.concludedAt.getTime());
}

/** The open contract of an order (for the account's pages: « Se rétracter du contrat ici » … jusqu’au …), or undefined. */
export async function openContractOfOrder(deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>, userId: string, orderId: string): Promise<Contract | undefined> {
  const c = await contractOfUser(deps, userId, { orderId });
  return c && !c.refusal && !c.withdrawal ? c : undefined;
}

/** The open contract of a subscription (its initial order), for its page. */
export async function openContractOfSubscription(
  deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>,
  userId: string,
  subscriptionId: string,
): Promise<Contract | undefined> {
  const row = await deps.db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('subscription_id', '=', subscriptionId)
    .where('purpose', '=', 'subscription')
    .where('reason', '=', 'initial')
    .where('status', '=', 'paid')
    .executeTakeFirst();
  return row ? openContractOfOrder(deps, userId, row.id) : undefined;
}

/** A bulletin's contract as the Sociétariat page shows it: open (the function), or withdrawn (its record); else undefined. */
export async function shownContractOfBulletin(
  deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>,
  userId: string,
  bulletinId: string,
): Promise<Contract | undefined> {
  const c = await contractOfUser(deps, userId, { bulletinId });
  return c && (c.withdrawal || !c.refusal) ? c : undefined;
}

/** The refund an order's withdrawal asks, as a durable job (the provider may be away for a while). */
export const WITHDRAWAL_REFUND = jobType({ kind: 'contract-withdrawals.refund', schema: z.object({ withdrawalId: z.string() }), maxAttempts: 20 });

const CHANNEL_LABELS: Record<WithdrawalChannel, string> = { account: 'depuis le compte', mailed_link: 'par le lien de l’e-mail de confirmation' };
export { CHANNEL_LABELS };

async function refundWithdrawal(deps: WithdrawalDeps, withdrawalId: string): Promise<void> {
  const w = await findWithdrawal(deps.db, withdrawalId);
  if (!w?.orderId) return;
  const order = await findOrder(deps.db, w.orderId);
  if (!order) return;
  const asked = await requestOrderRefund(deps, order, await orderEvents(deps.db, order.id), {
    cause: `${REFUND_REQUESTED} : rétractation du contrat (« Se rétracter du contrat ici », ${CHANNEL_LABELS[w.channel]})`,
    // Nothing held here: a gift's code was stopped with the withdrawal's record (`withdraw`), and
    // stays stopped even if the provider refuses for now (the job asks again).
    holds: {},
    logEvent: 'contract_withdrawals.refund_refused',
  });
  if (asked.ok) return;
  // The provider away: the job tries again. Anything else (refunded meanwhile by the back-office) is settled.
  if (asked.status === 503) throw new Error('Remboursement refusé par le prestataire pour le moment.');
  log.warn('contract_withdrawals.refund_not_asked', { withdrawalId, orderId: order.id, status: asked.status });
}

export const contractWithdrawalJobs = (deps: WithdrawalDeps) => [handle(WITHDRAWAL_REFUND, ({ payload }) => refundWithdrawal(deps, payload.withdrawalId))];

class GiftActivated extends Error {
  readonly at: Date;
  constructor(at: Date) {
    super('gift activated');
    this.at = at;
  }
}

async function acknowledge(deps: WithdrawalDeps, trx: Kysely<Database>, contract: Contract, w: ContractWithdrawal, refundByTransfer?: string): Promise<void> {
  if (!w.userId) return;
  const user = await findUser(trx, w.userId);
  if (!user) return;
  const { to, mail } = mailFor(user, acknowledgementMail({ siteUrl: deps.siteUrl, contract, withdrawnAt: w.withdrawnAt, refundByTransfer }));
  await schedule(deps, trx, SEND_MAIL, { to, mail }, { uniqueKey: `contract-withdrawals.acknowledgement:${w.id}` });
}

/**
 * Withdraws from `contract` (already reached through the session's user or a valid link). A
 * contract withdrawn before answers with that withdrawal (`already`), and nothing is asked twice.
 */
async function withdraw(
  deps: WithdrawalDeps,
  contract: Contract,
  channel: WithdrawalChannel,
): Promise<Result<{ withdrawal: ContractWithdrawal; contract: Contract; already: boolean; refundByTransfer?: string }>> {
  if (contract.withdrawal) return { ok: true, withdrawal: contract.withdrawal, contract, already: true };
  if (contract.refusal) return fail(contract.refusal.status, contract.refusal.message);
  const now = deps.clock.now();
  if ('bulletinId' in contract.ref) {
    // The shares' renunciation refunds (card/SEPA through the provider, a transfer by a refund by
    // transfer) and updates the register; the record and its acknowledgement are written in its
    // transaction, the renunciation's one mail (the shares send none): one renunciation, one record, one mail.
    const bulletin = await findBulletin(deps.db, contract.ref.bulletinId);
    const box: { recorded?: { withdrawal: ContractWithdrawal; created: boolean } } = {};
    const renounced = await renounceBulletin(deps, contract.userId!, contract.ref.bulletinId, async (trx, outcome) => {
      const providerKey = outcome.refund === 'provider' && bulletin?.orderId ? orderRefundKey(bulletin.orderId) : '';
      const r = await insertWithdrawal(
        trx,
        { ref: contract.ref, kind: 'shares', userId: contract.userId, channel, refundCents: contract.refundCents, refundKey: providerKey },
        now,
      );
      if (r.created) await acknowledge(deps, trx, contract, r.withdrawal, outcome.refundByTransfer);
      box.recorded = r;
    });
    const recorded = box.recorded;
    if (!renounced.ok || !recorded) {
      const again = await withdrawalOf(deps.db, contract.ref);
      if (again) return { ok: true, withdrawal: again, contract, already: true };
      return renounced.ok ? fail(409, 'Ce bulletin vient de changer : rechargez la page.') : renounced;
    }
    log.info('contract_withdrawals.recorded', { withdrawalId: recorded.withdrawal.id, kind: 'shares', channel });
    return {
      ok: true,
      withdrawal: recorded.withdrawal,
      contract,
      already: !recorded.created,
      ...(renounced.refundByTransfer ? { refundByTransfer: renounced.refundByTransfer } : {}),
    };
  }
  const orderId = contract.ref.orderId;
  try {
    const recorded = await writeTransaction(deps.db, async (trx) => {
      if (contract.kind === 'gift') {
        // The code stops working with the record: an activation at the same moment and this withdrawal cannot both win.
        const hold = await holdGiftForRefund(trx, orderId, now);
        if (hold.state === 'activated') throw new GiftActivated(hold.at);
      }
      const r = await insertWithdrawal(
        trx,
        { ref: contract.ref, kind: contract.kind, userId: contract.userId, channel, refundCents: contract.refundCents, refundKey: orderRefundKey(orderId) },
        now,
      );
      if (r.created) {
        await acknowledge(deps, trx, contract, r.withdrawal);
        await schedule(deps, trx, WITHDRAWAL_REFUND, { withdrawalId: r.withdrawal.id }, { uniqueKey: `contract-withdrawals.refund:${r.withdrawal.id}` });
      }
      return r;
    });
    deps.jobs.wake();
    if (recorded.created) log.info('contract_withdrawals.recorded', { withdrawalId: recorded.withdrawal.id, kind: contract.kind, channel });
    return { ok: true, withdrawal: recorded.withdrawal, contract, already: !recorded.created };
  } catch (error) {
    if (error instanceof GiftActivated)
      return fail(409, `Ce cadeau a été activé le ${formatDate(error.at)} : le droit de rétractation ne s’applique plus (CGV, article 8), et rien n’a changé.`);
    throw error;
  }
}

/** From the account: the contract must be the session's user's (another's, or none: 404). */
export async function withdrawForUser(
  deps: WithdrawalDeps,
  userId: string,
  ref: ContractRef,
): Promise<Result<{ withdrawal: ContractWithdrawal; contract: Contract; already: boolean; refundByTransfer?: string }>> {
  const contract = await contractOfUser(deps, userId, ref);
  if (!contract) return fail(404, NOT_FOUND);
  return withdraw(deps, contract, 'account');
}

/** From the mailed link: a forged or altered token is a 404. */
export async function withdrawByLink(
  deps: WithdrawalDeps,
  token: string,
): Promise<Result<{ withdrawal: ContractWithdrawal; contract: Contract; already: boolean; refundByTransfer?: string }>> {
  const contract = await contractOfLink(deps, token);
  if (!contract) return fail(404, NOT_FOUND);
  return withdraw(deps, contract, 'mailed_link');
}

/** « 27 novembre 2026 à 11 h 00 » */
export { formatDateTime } from '../../lib/dates';
export const refundLine = (c: Contract): string => (c.refundCents > 0 ? `${formatEuros(c.refundCents)}, ${c.refundMeans}` : c.refundMeans);

// ---------------------------------------------------------------------------------------------
// The back-office

export interface AdminWithdrawal {
  withdrawal: ContractWithdrawal;
  email: string | null;
  name: string;
  reference: string;
  /** « Remboursée », « Remboursement demandé », « À rembourser par virement (RBT-…) », … */
  refund: string;
}

/** Each withdrawal, newest first, for an administrator (undefined for anyone else). */
export async function withdrawalsForAdmin(
  deps: Pick<ServerDeps, 'db' | 'clock' | 'payments'>,
  adminUserId: string,
  limit = 200,
): Promise<AdminWithdrawal[] | undefined> {
  // Checked here again (the page answers 404 to anyone else): a page that forgot its guard still shows nothing.
  if ((await findUser(deps.db, adminUserId))?.role !== 'admin') return undefined;
  const list = await latestWithdrawals(deps.db, limit);
  const out: AdminWithdrawal[] = [];
  for (const w of list) {
    const user = w.userId ? await findUser(deps.db, w.userId) : undefined;
    let name = '';
    let reference = '';
    let refund = '';
    if (w.orderId) {
      const order = await findOrder(deps.db, w.orderId);
      name = order?.description ?? '';
      reference = order?.reference ?? '';
      if (order?.status === 'refunded') refund = `Remboursée (${formatEuros(w.refundCents)})`;
      else {
        const events = order ? await orderEvents(deps.db, order.id) : [];
        refund = events.some((e) => e.cause.startsWith(REFUND_REQUESTED))
          ? `Remboursement demandé (${formatEuros(w.refundCents)}), en attente du prestataire`
          : `Remboursement à demander (${formatEuros(w.refundCents)}) : tâche en cours ou en échec`;
      }
    } else if (w.bulletinId) {
      const b = await findBulletin(deps.db, w.bulletinId);
      name = b ? sharesName(b) : '';
      reference = b?.number ?? '';
      if (w.refundCents === 0) refund = 'Rien à rembourser';
      else if (w.refundKey) {
        const order = b?.orderId ? await findOrder(deps.db, b.orderId) : undefined;
        refund = order?.status === 'refunded' ? `Remboursée (${formatEuros(w.refundCents)})` : `Remboursement demandé (${formatEuros(w.refundCents)})`;
      } else {
        const transfer = await deps.db
          .selectFrom('share_refund_transfers')
          .select(['reference', 'status'])
          .where('bulletin_id', '=', w.bulletinId)
          .where('cause', '=', 'renunciation')
          .executeTakeFirst();
        refund = transfer
          ? `Par virement ${transfer.reference} : ${transfer.status === 'made' ? 'fait' : transfer.status === 'to_make' ? 'à faire' : 'IBAN attendu'}`
          : `Par virement (${formatEuros(w.refundCents)})`;
      }
    }
    out.push({ withdrawal: w, email: user?.email ?? null, name, reference, refund });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The account's data (RGPD): export and deletion (account/parts.ts)

export const WITHDRAWALS_RETENTION_NOTE =
  'Chaque rétractation est conservée comme preuve de la date et de l’heure auxquelles elle a été faite, et du remboursement dû (Code de la consommation, articles L. 221-21 et L. 221-24) : à la suppression du compte, elle n’y est plus rattachée, mais elle n’est pas effacée.';

/** The user's withdrawals, for the export of their data. */
export async function exportUserWithdrawals(db: Kysely<Database>, userId: string) {
  const list = await userWithdrawals(db, userId);
  return {
    note: WITHDRAWALS_RETENTION_NOTE,
    withdrawals: list.map((w) => ({
      id: w.id,
      contract_kind: w.kind,
      order_id: w.orderId,
      bulletin_id: w.bulletinId,
      channel: w.channel,
      refund_cents: w.refundCents,
      withdrawn_at: w.withdrawnAt.toISOString(),
    })),
  };
}

/** An account deleted: its withdrawals stay as records, no longer linked to it. */
export async function detachUserWithdrawals(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('contract_withdrawals').set({ user_id: null }).where('user_id', '=', userId).execute();
}
