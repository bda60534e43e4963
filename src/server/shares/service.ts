/**
 * The cooperative's subscription path and the sociétaire's view:
 *
 * - `shareFulfilment`: what a payment does to its bulletin (paid online: the bulletin waits for
 *   the cooperative's decision; failed: cancelled), composed by checkout like every purpose;
 * - the back-office decisions (admin/shares.ts checks the role, then calls these): a transfer
 *   received, an admission (register entry and certificate), a refusal (refunded);
 * - the subscriber's renunciation within 14 days (CGV art. 10), refunded;
 * - the member's view: holding, certificates, bulletins; their PDFs, owner only.
 *
 * A bulletin moves first (one conditional update), and its refund is scheduled in the same
 * transaction as the durable `orders.refund-unwanted` job, under the key `refund:{order}` (the
 * same key as a back-office refund of the order): a decision racing it makes one outcome, and the
 * provider is never called inside a transaction.
 */
import { fromZonedTime } from 'date-fns-tz';
import type { Kysely } from 'kysely';
import { formatEuros } from '../../config/catalog';
import { findCollege, statutes } from '../../config/statutes';
import { formatDate } from '../../lib/dates';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { type Database, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { z } from 'zod';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor, type MailContent } from '../mail/layout';
import { type Fulfilment, scheduleUnwantedRefund } from '../orders/service';
import { findUser } from '../auth/service';
import {
  addRegisterEntry,
  capitalOf,
  deriveHoldings,
  type Holding,
  holdingOfUser,
  lockRegister,
  memberMap,
  registerEntries,
  type RegisterEntry,
} from './register';
import { bulletinPeriod } from '../contract-withdrawals/links';
import {
  admitInTransaction,
  bulletinOfOrder,
  findBulletin,
  findUserBulletin,
  listUserBulletins,
  moveBulletin,
  parisDay,
  RENUNCIATION_DAYS,
  type ShareBulletin,
} from './bulletins';
import { admittedMail, bulletinReceivedMail, collegeChangedMail, refusedMail } from './mails';
import { overpaymentMail, refusedByTransferMail } from './refund-mails';
import { memberRefunds, openRefundTransfer, refundsOwedTo } from './refunds';
import { type Countersignature, renderBulletinPdf, renderCertificatePdf } from './pdf';
import { CONTACTS } from '../../config/publisher';

export type SharesDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs' | 'payments'>;

/**
 * The subscriber's copy of the bulletin, by mail with its PDF attached (CGV art. 10): when it is
 * received (paid, or signed for a transfer) and once countersigned at the admission. Rendered
 * when the job runs, from the bulletin and the register, which never change.
 */
export const BULLETIN_MAIL = jobType({
  kind: 'shares.bulletin-mail',
  schema: z.object({ bulletinId: z.string(), event: z.enum(['received', 'admitted']) }),
  maxAttempts: 8,
});

async function sendBulletinMail(deps: Pick<ServerDeps, 'db' | 'mailer' | 'siteUrl'>, bulletinId: string, event: 'received' | 'admitted'): Promise<void> {
  const bulletin = await findBulletin(deps.db, bulletinId);
  if (!bulletin?.userId) return;
  const user = await findUser(deps.db, bulletin.userId);
  if (!user) return;
  const countersigned = await countersignatureOf(deps.db, bulletin);
  let mail: MailContent;
  if (event === 'admitted') {
    if (!countersigned) return log.warn('shares.admitted_mail_without_admission', { bulletinId });
    mail = admittedMail({ siteUrl: deps.siteUrl, bulletin, certificateNumber: countersigned.certificateNumber, memberNumber: countersigned.memberNumber });
  } else {
    mail = bulletinReceivedMail({ siteUrl: deps.siteUrl, bulletin });
  }
  const pdf = await renderBulletinPdf(bulletin, event === 'admitted' ? countersigned : null);
  await deps.mailer.send({
    to: user.email,
    ...mail,
    attachments: [
      {
        filename: event === 'admitted' ? 'bulletin-contresigne-contrechamp.pdf' : 'bulletin-de-souscription-contrechamp.pdf',
        contentType: 'application/pdf',
        content: pdf,
      },
    ],
  });
}

const bulletinMail = (deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, bulletin: ShareBulletin, event: 'received' | 'admitted') =>
  schedule(deps, trx, BULLETIN_MAIL, { bulletinId: bulletin.id, event }, { uniqueKey: `shares.bulletin-mail:${bulletin.id}:${event}` });

export const shareJobs = (deps: Pick<ServerDeps, 'db' | 'mailer' | 'siteUrl'>) => [
  handle(BULLETIN_MAIL, ({ payload }) => sendBulletinMail(deps, payload.bulletinId, payload.event)),
];

async function mailTo(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, userId: string | null, mail: MailContent, uniqueKey: string): Promise<void> {
  if (!userId) return;
  const user = await findUser(trx, userId);
  if (user) await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), { uniqueKey });
}

/** What a payment does to the bulletin it pays. */
export function shareFulfilment(deps: SharesDeps): Fulfilment {
  return {
    async paid(trx, order, { now }) {
      const bulletin = await bulletinOfOrder(trx, order.id);
      if (!bulletin) return log.warn('shares.paid_without_bulletin', { orderId: order.id });
      if (!(await moveBulletin(trx, bulletin.id, 'awaiting_payment', 'paid', { paidAt: now }, now))) {
        // Renounced, refused or cancelled before the payment landed (a SEPA debit takes days): the money goes back.
        // Read again: the first read may predate a renunciation that committed while this waited on the row.
        const status = (await bulletinOfOrder(trx, order.id))?.status;
        if (status === 'renounced' || status === 'canceled' || status === 'refused') {
          log.warn('shares.paid_after_close', { bulletinId: bulletin.id, orderId: order.id, status });
          await scheduleUnwantedRefund(deps, trx, order.id, 'paiement reçu pour une souscription de parts close (renonciation, refus ou abandon)');
        }
        return;
      }
      await bulletinMail(deps, trx, bulletin, 'received');
    },
    async failed(trx, order, { now }) {
      const bulletin = await bulletinOfOrder(trx, order.id);
      if (bulletin) await moveBulletin(trx, bulletin.id, 'awaiting_payment', 'canceled', {}, now);
    },
    /**
     * A refund the shares path did not ask for (the back-office's « Rembourser », the provider's
     * dashboard): a bulletin still waiting for its decision is closed as refused, so that it can
     * no longer be admitted; an admitted one is the team's to correct in the register.
     */
    async refunded(trx, order, { now }) {
      const bulletin = await bulletinOfOrder(trx, order.id);
      if (!bulletin) return;
      if (await moveBulletin(trx, bulletin.id, 'paid', 'refused', { decidedBy: null, note: 'Souscription remboursée' }, now)) return;
      if ((await bulletinOfOrder(trx, order.id))?.status === 'admitted')
        log.warn('shares.refund_of_admitted_bulletin', { bulletinId: bulletin.id, orderId: order.id });
    },
  };
}

/** A bulletin paid by transfer, written at signing: its mail with the reference. Run in the signing transaction. */
export async function bulletinSigned(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, bulletin: ShareBulletin): Promise<void> {
  if (bulletin.paymentMethod !== 'transfer') return;
  await bulletinMail(deps, trx, bulletin, 'received');
}

// ---------------------------------------------------------------------------------------------
// The cooperative's decisions (the caller has checked the administrator's role)

/** What the treasurer saw arrive on the bank account for a bulletin paid by transfer. */
export interface TransferReceived {
  amountCents: number;
  /** YYYY-MM-DD, the day the transfer reached the account. */
  receivedOn: string;
  /** The amount differs from the bulletin's and the back-office records it anyway. */
  override?: boolean;
}

/**
 * A transfer received: the bulletin is paid on the day the money arrived, with the amount seen.
 * A day in the future or before the signature, or an amount other than the bulletin's, is
 * refused (nothing changes); a different amount is recorded only with an explicit override,
 * and the decisions list shows the difference.
 */
export async function confirmTransfer(deps: SharesDeps, bulletinId: string, adminId: string, received: TransferReceived): Promise<Result> {
  const bulletin = await findBulletin(deps.db, bulletinId);
  if (!bulletin) return fail(404, 'Ce bulletin n’existe pas.');
  if (bulletin.paymentMethod !== 'transfer') return fail(409, 'Ce bulletin n’est pas payé par virement.');
  const now = deps.clock.now();
  if (!Number.isSafeInteger(received.amountCents) || received.amountCents <= 0) return fail(422, 'Indiquez le montant reçu, en euros.');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(received.receivedOn) || Number.isNaN(Date.parse(`${received.receivedOn}T12:00:00Z`)))
    return fail(422, 'Indiquez la date de réception du virement.');
  if (received.receivedOn > parisDay(now)) return fail(422, 'La date de réception du virement ne peut pas être dans le futur.');
  if (received.receivedOn < parisDay(bulletin.acceptedAt))
    return fail(422, `Le virement ne peut pas être reçu avant la signature du bulletin, le ${formatDate(bulletin.acceptedAt)}.`);
  if (received.amountCents !== bulletin.amountCents && !received.override) {
    return fail(
      422,
      `Le montant reçu (${formatEuros(received.amountCents)}) ne correspond pas au montant du bulletin (${formatEuros(bulletin.amountCents)}). Vérifiez le virement ; pour l’enregistrer malgré l’écart, cochez « Enregistrer malgré l’écart ».`,
    );
  }
  const paidAt = fromZonedTime(`${received.receivedOn}T12:00:00`, 'Europe/Paris');
  const moved = await writeTransaction(deps.db, async (trx) => {
    // The transfer's mail went at signing (with the reference): the payment is told at the admission.
    if (!(await moveBulletin(trx, bulletin.id, 'awaiting_payment', 'paid', { paidAt, receivedCents: received.amountCents, decidedBy: adminId }, now)))
      return false;
    // More than the bulletin (a transfer made twice): the difference is owed back, by transfer (refunds.ts).
    const over = received.amountCents - bulletin.amountCents;
    if (over > 0) {
      const refund = await openRefundTransfer(
        trx,
        { cause: 'overpayment', sourceId: bulletin.id, userId: bulletin.userId, bulletinId: bulletin.id, amountCents: over },
        now,
      );
      await mailTo(
        deps,
        trx,
        bulletin.userId,
        overpaymentMail({ siteUrl: deps.siteUrl, bulletin, receivedCents: received.amountCents, refund }),
        `shares.overpayment:${bulletin.id}`,
      );
    }
    return true;
  });
  if (!moved) return fail(409, 'Ce bulletin n’attend plus de virement\u00a0: rechargez la page.');
  if (received.amountCents !== bulletin.amountCents)
    log.warn('shares.transfer_mismatch_recorded', { bulletinId: bulletin.id, adminId, expected: bulletin.amountCents, received: received.amountCents });
  deps.jobs.wake();
  return { ok: true };
}

export async function admitBulletin(
  deps: SharesDeps,
  bulletinId: string,
  adminId: string,
): Promise<Result<{ certificateNumber: number; memberNumber: number }>> {
  const bulletin = await findBulletin(deps.db, bulletinId);
  if (!bulletin) return fail(404, 'Ce bulletin n’existe pas.');
  if (bulletin.status !== 'paid')
    return fail(
      409,
      bulletin.status === 'awaiting_payment'
        ? 'Ce bulletin n’est pas encore payé\u00a0: il ne peut pas être accepté.'
        : 'Ce bulletin a déjà fait l’objet d’une décision.',
    );
  const now = deps.clock.now();
  const admitted = await writeTransaction(deps.db, async (trx) => {
    const done = await admitInTransaction(trx, bulletin, adminId, now);
    if (done) await bulletinMail(deps, trx, bulletin, 'admitted');
    return done;
  });
  if (!admitted) return fail(409, 'Ce bulletin vient de faire l’objet d’une décision\u00a0: rechargez la page.');
  deps.jobs.wake();
  return { ok: true, ...admitted };
}

/**
 * How a closed bulletin's money goes back, in the transaction that closes it: an online payment
 * by the durable `orders.refund-unwanted` job (the provider is never called inside the
 * transaction, and the job retries until it has answered); a transfer by the treasurer.
 */
async function refundInTransaction(
  deps: Pick<ServerDeps, 'clock'>,
  trx: Kysely<Database>,
  bulletin: ShareBulletin,
  cause: string,
): Promise<'provider' | 'transfer' | 'none'> {
  if (!bulletin.paidAt) return 'none';
  if (bulletin.paymentMethod === 'transfer' || !bulletin.orderId) return 'transfer';
  await scheduleUnwantedRefund(deps, trx, bulletin.orderId, cause);
  return 'provider';
}

/** What a transfer brought for the bulletin, up to its amount (an excess is refunded apart, as an overpayment). */
const paidCents = (bulletin: ShareBulletin): number => Math.min(bulletin.transferReceivedCents ?? bulletin.amountCents, bulletin.amountCents);

export async function refuseBulletin(deps: SharesDeps, bulletinId: string, adminId: string, reason: string): Promise<Result> {
  const why = reason.trim();
  if (why.length < 5 || why.length > 500) return fail(422, 'Indiquez le motif du refus (5 à 500 caractères)\u00a0: il est envoyé à la personne.');
  const bulletin = await findBulletin(deps.db, bulletinId);
  if (!bulletin) return fail(404, 'Ce bulletin n’existe pas.');
  if (bulletin.status !== 'paid' && bulletin.status !== 'awaiting_payment') return fail(409, 'Ce bulletin a déjà fait l’objet d’une décision.');
  const now = deps.clock.now();
  // The bulletin moves first, and its refund is scheduled with the move: an admission at the same moment makes one of the two.
  const moved = await writeTransaction(deps.db, async (trx) => {
    if (!(await moveBulletin(trx, bulletin.id, bulletin.status, 'refused', { decidedBy: adminId, note: why }, now))) return false;
    const refund = await refundInTransaction(deps, trx, bulletin, `souscription refusée par la gérance (${why})`);
    // Money the provider cannot give back: a transfer to make, once the person has given an IBAN.
    const owed =
      refund === 'transfer'
        ? await openRefundTransfer(
            trx,
            { cause: 'refusal', sourceId: bulletin.id, userId: bulletin.userId, bulletinId: bulletin.id, amountCents: paidCents(bulletin) },
            now,
          )
        : null;
    await mailTo(
      deps,
      trx,
      bulletin.userId,
      owed
        ? refusedByTransferMail({ siteUrl: deps.siteUrl, bulletin, reason: why, refund: owed })
        : refusedMail({ siteUrl: deps.siteUrl, bulletin, reason: why, refund }),
      `shares.refused:${bulletin.id}`,
    );
    return true;
  });
  if (!moved) return fail(409, 'Ce bulletin vient de faire l’objet d’une décision\u00a0: rechargez la page. Rien n’a été remboursé.');
  deps.jobs.wake();
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// The subscriber

/**
 * Whether the subscriber may renounce: a bulletin not paid yet, at any time (nothing was taken;
 * a payment that lands later is given back); a paid or admitted one within 14 days of signing
 * (CGV art. 10).
 */
export const canRenounce = (b: ShareBulletin, now: Date): boolean =>
  b.status === 'awaiting_payment' || ((b.status === 'paid' || b.status === 'admitted') && now.getTime() <= bulletinPeriod(b.acceptedAt).endsAt.getTime());

class SharesLeaving extends Error {}

/**
 * What records a renunciation — always made through the withdrawal function
 * (contract-withdrawals) — in the renunciation's own transaction: it writes the record and its
 * acknowledgement, which is the renunciation's one mail (the shares send none of their own).
 */
export type RenunciationRecorder = (trx: Kysely<Database>, outcome: { refund: 'provider' | 'transfer' | 'none'; refundByTransfer?: string }) => Promise<void>;

/**
 * The subscriber renounces: refunded in full; admitted shares leave the register by a new entry.
 * `refundByTransfer`: the reference of the refund by transfer this renunciation opened (the
 * member is to give an IBAN), absent when the provider refunds or nothing was paid.
 */
export async function renounceBulletin(
  deps: SharesDeps,
  userId: string,
  bulletinId: string,
  record: RenunciationRecorder,
): Promise<Result<{ refundByTransfer?: string }>> {
  const bulletin = await findUserBulletin(deps.db, userId, bulletinId);
  if (!bulletin) return fail(404, 'Ce bulletin est introuvable.');
  const now = deps.clock.now();
  if (!canRenounce(bulletin, now)) {
    return fail(
      409,
      bulletin.status === 'renounced'
        ? 'Vous avez déjà renoncé à cette souscription.'
        : `Le délai de renonciation de ${RENUNCIATION_DAYS} jours est passé, ou ce bulletin est clos\u00a0: pour quitter la coopérative, demandez le retrait de vos parts.`,
    );
  }
  const outcome = await writeTransaction(deps.db, async (trx) => {
    let memberId: string | null = null;
    if (bulletin.status === 'admitted') {
      // The register held: shares of this bulletin already promised to a withdrawal cannot also be renounced.
      await lockRegister(trx);
      const admission = await trx.selectFrom('share_register').select(['member_id']).where('bulletin_id', '=', bulletin.id).executeTakeFirst();
      memberId = admission?.member_id ?? null;
      if (memberId) {
        const open = await trx
          .selectFrom('share_withdrawals')
          .select('id')
          .where('member_id', '=', memberId)
          .where('status', 'in', ['requested', 'accepted'])
          .executeTakeFirst();
        const left = (await registerEntries(trx, memberId)).reduce((sum, e) => sum + e.sharesDelta, 0);
        if (open || left < bulletin.shares) throw new SharesLeaving();
      }
    }
    if (!(await moveBulletin(trx, bulletin.id, bulletin.status, 'renounced', { note: 'Renonciation' }, now))) return 'moved' as const;
    const refund = await refundInTransaction(deps, trx, bulletin, `renonciation à la souscription (CGV, art. 10)`);
    // Paid by transfer: a transfer to make; the register says « repaid » only once it is made (refunds.ts).
    const owed =
      refund === 'transfer'
        ? await openRefundTransfer(
            trx,
            { cause: 'renunciation', sourceId: bulletin.id, userId, memberId, bulletinId: bulletin.id, amountCents: paidCents(bulletin) },
            now,
          )
        : null;
    if (memberId) {
      await addRegisterEntry(
        trx,
        {
          memberId,
          kind: 'correction',
          collegeId: bulletin.collegeId,
          sharesDelta: -bulletin.shares,
          nominalCents: bulletin.nominalCents,
          repaidCents: refund === 'provider' ? bulletin.amountCents : 0,
          effectiveOn: parisDay(now),
          recordedBy: null,
          note: `Renonciation dans les ${RENUNCIATION_DAYS} jours au bulletin signé le ${parisDay(bulletin.acceptedAt)}${owed ? ` ; remboursement par virement ${owed.reference} à faire` : ''}`,
        },
        now,
      );
    }
    await record(trx, { refund, ...(owed ? { refundByTransfer: owed.reference } : {}) });
    return { refundByTransfer: owed?.reference };
  }).catch((error: unknown) => {
    if (error instanceof SharesLeaving) return 'leaving' as const;
    throw error;
  });
  if (outcome === 'leaving')
    return fail(
      409,
      `Un retrait de parts est en cours pour votre compte\u00a0: la renonciation à cette souscription n’est plus possible. Écrivez-nous à ${CONTACTS.societaires.email}.`,
    );
  if (outcome === 'moved') return fail(409, 'Ce bulletin vient de changer\u00a0: rechargez la page.');
  deps.jobs.wake();
  return outcome.refundByTransfer ? { ok: true, refundByTransfer: outcome.refundByTransfer } : { ok: true };
}

export interface Certificate {
  number: number;
  shares: number;
  nominalCents: number;
  collegeId: string;
  admittedOn: string;
  /** Undone by a renunciation. */
  undone: boolean;
}

export interface MemberView {
  holding: Holding | undefined;
  memberNumber: number | null;
  certificates: Certificate[];
  bulletins: ShareBulletin[];
  entries: RegisterEntry[];
}

/** The account's place in the cooperative. */
export async function memberView(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<MemberView> {
  const now = deps.clock.now();
  const member = await deps.db.selectFrom('share_members').select(['id', 'member_number']).where('user_id', '=', userId).executeTakeFirst();
  const entries = member ? await registerEntries(deps.db, member.id) : [];
  const bulletins = await listUserBulletins(deps.db, userId);
  const renounced = new Set(bulletins.filter((b) => b.status === 'renounced').map((b) => b.id));
  return {
    holding: await holdingOfUser(deps.db, userId, parisDay(now)),
    memberNumber: member ? Number(member.member_number) : null,
    certificates: entries
      .filter((e) => e.kind === 'admission' && e.certificateNumber !== null)
      .map((e) => ({
        number: e.certificateNumber!,
        shares: e.sharesDelta,
        nominalCents: e.nominalCents,
        collegeId: e.collegeId,
        admittedOn: e.effectiveOn,
        undone: e.bulletinId !== null && renounced.has(e.bulletinId),
      }))
      .reverse(),
    bulletins,
    entries,
  };
}

async function countersignatureOf(db: Kysely<Database>, bulletin: ShareBulletin): Promise<Countersignature | null> {
  if (bulletin.status !== 'admitted' && !(bulletin.status === 'renounced' && bulletin.decidedAt)) return null;
  const entry = await db
    .selectFrom('share_register as r')
    .innerJoin('share_members as m', 'm.id', 'r.member_id')
    .select(['r.certificate_number', 'r.recorded_at', 'm.member_number'])
    .where('r.bulletin_id', '=', bulletin.id)
    .executeTakeFirst();
  return entry?.certificate_number
    ? { at: new Date(entry.recorded_at), certificateNumber: Number(entry.certificate_number), memberNumber: Number(entry.member_number) }
    : null;
}

/** The subscriber's own bulletin as a PDF (countersigned once admitted); undefined for any other id. */
export async function bulletinPdf(deps: Pick<ServerDeps, 'db'>, userId: string, bulletinId: string): Promise<Uint8Array | undefined> {
  const bulletin = await findUserBulletin(deps.db, userId, bulletinId);
  if (!bulletin) return undefined;
  return renderBulletinPdf(bulletin, await countersignatureOf(deps.db, bulletin));
}

/** The member's own certificate as a PDF; undefined for another member's number. */
export async function certificatePdf(deps: Pick<ServerDeps, 'db'>, userId: string, certificateNumber: number): Promise<Uint8Array | undefined> {
  if (!Number.isSafeInteger(certificateNumber) || certificateNumber < 1) return undefined;
  const row = await deps.db
    .selectFrom('share_register as r')
    .innerJoin('share_members as m', 'm.id', 'r.member_id')
    .select(['r.certificate_number', 'r.shares_delta', 'r.nominal_cents', 'r.college_id', 'r.recorded_at', 'm.member_number', 'm.name'])
    .where('r.certificate_number', '=', certificateNumber)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return renderCertificatePdf({
    certificateNumber: Number(row.certificate_number),
    memberNumber: Number(row.member_number),
    name: row.name,
    collegeId: row.college_id,
    shares: Number(row.shares_delta),
    nominalCents: Number(row.nominal_cents),
    admittedOn: new Date(row.recorded_at),
  });
}

/** The live figures of the pitch page: members and shares today. */
export async function cooperativeFigures(deps: Pick<ServerDeps, 'db' | 'clock'>): Promise<{ members: number; shares: number; capitalCents: number }> {
  const today = parisDay(deps.clock.now());
  const entries = await registerEntries(deps.db);
  const holdings = deriveHoldings(entries, await memberMap(deps.db), today);
  return { members: holdings.length, shares: holdings.reduce((sum, h) => sum + h.shares, 0), capitalCents: capitalOf(entries, today) };
}

// ---------------------------------------------------------------------------------------------
// Personal data (RGPD): the account's export and deletion (src/server/account/parts.ts)

/**
 * Why the account cannot be deleted now, if it cannot: a sociétaire holds shares (the register
 * and the convocations need them reachable), or a subscription or a withdrawal is under way.
 */
export async function sharesBlockDeletion(deps: Pick<ServerDeps, 'db' | 'clock'>, userId: string): Promise<string | null> {
  const today = parisDay(deps.clock.now());
  if (await holdingOfUser(deps.db, userId, today))
    return 'Vous êtes sociétaire de Contrechamp : demandez d’abord le retrait de vos parts (espace Sociétariat). Une fois le retrait effectif et remboursé, vous pourrez supprimer votre compte.';
  // A bulletin paid and waiting for its decision; one not paid yet is closed by the deletion (detachUserShares).
  const open = await deps.db.selectFrom('share_bulletins').select('id').where('user_id', '=', userId).where('status', '=', 'paid').executeTakeFirst();
  if (open) return 'Une souscription de parts payée attend la décision de la gérance : renoncez-y ou attendez cette décision avant de supprimer votre compte.';
  const withdrawal = await deps.db
    .selectFrom('share_withdrawals')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', ['requested', 'accepted'])
    .executeTakeFirst();
  if (withdrawal) return 'Un retrait de parts est en cours : vous pourrez supprimer votre compte une fois vos parts remboursées.';
  if ((await refundsOwedTo(deps.db, userId)) > 0)
    return 'Un remboursement par virement vous est dû (espace Sociétariat) : vous pourrez supprimer votre compte une fois le virement fait.';
  return null;
}

/** What the cooperative holds about the account: bulletins, the register's entries, withdrawals, assemblies taken part in. */
export async function exportUserShares(db: Kysely<Database>, userId: string) {
  const member = await db.selectFrom('share_members').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const bulletins = await listUserBulletins(db, userId);
  const withdrawals = await db
    .selectFrom('share_withdrawals')
    .select(['shares', 'reason', 'requested_at', 'status', 'effective_on', 'decided_at', 'decision_note', 'repaid_at'])
    .where('user_id', '=', userId)
    .execute();
  const entries = member ? await registerEntries(db, member.id) : [];
  const memberId = member?.id ?? '';
  const participation = await db
    .selectFrom('assembly_participation as p')
    .innerJoin('assemblies as a', 'a.id', 'p.assembly_id')
    .innerJoin('assembly_resolutions as r', 'r.id', 'p.resolution_id')
    .select(['a.title as assembly', 'r.position', 'r.title as resolution', 'p.via', 'p.voted_at'])
    .where('p.member_id', '=', memberId)
    .orderBy('p.voted_at')
    .execute();
  const attendance = await db
    .selectFrom('assembly_attendance as t')
    .innerJoin('assemblies as a', 'a.id', 't.assembly_id')
    .select(['a.title as assembly', 't.mode', 't.updated_at'])
    .where('t.member_id', '=', memberId)
    .execute();
  // Proxies given and held: the other member appears by member number only, as on the notice.
  const proxies = await db
    .selectFrom('assembly_proxies as x')
    .innerJoin('assemblies as a', 'a.id', 'x.assembly_id')
    .leftJoin('share_members as g', 'g.id', 'x.grantor_id')
    .leftJoin('share_members as h', 'h.id', 'x.holder_id')
    .select(['a.title as assembly', 'x.grantor_id', 'g.member_number as grantor_number', 'h.member_number as holder_number', 'x.given_at', 'x.revoked_at'])
    .where((eb) => eb.or([eb('x.grantor_id', '=', memberId), eb('x.holder_id', '=', memberId)]))
    .orderBy('x.given_at')
    .execute();
  return {
    note: 'Le registre des sociétaires et les bulletins de souscription sont des documents sociaux que la coopérative conserve tant que vous êtes sociétaire, puis dix ans ; la suppression du compte ne les efface pas. Vos votes sont secrets : seule votre participation est enregistrée, jamais votre choix.',
    member: member ? { memberNumber: Number(member.member_number), identity: JSON.parse(member.identity) as unknown, since: member.created_at } : null,
    bulletins: bulletins.map((b) => ({
      id: b.id,
      college: b.collegeId,
      shares: b.shares,
      amountCents: b.amountCents,
      identity: b.identity,
      statutesVersion: b.statutesVersion,
      acceptedAt: b.acceptedAt,
      fingerprint: b.fingerprint,
      paymentMethod: b.paymentMethod,
      status: b.status,
    })),
    register: entries.map((e) => ({
      entry: e.entryNumber,
      kind: e.kind,
      college: e.collegeId,
      shares: e.sharesDelta,
      repaidCents: e.repaidCents,
      certificate: e.certificateNumber,
      effectiveOn: e.effectiveOn,
      note: e.note,
    })),
    withdrawals,
    // Refunds by transfer: the IBAN masked, as everywhere after it was given.
    refundsByTransfer: (await memberRefunds(db, userId)).map((r) => ({
      reference: r.reference,
      cause: r.cause,
      amountCents: r.amountCents,
      status: r.status,
      iban: r.maskedIban,
      accountHolder: r.accountHolder,
      madeOn: r.madeOn,
      owedSince: r.createdAt,
    })),
    assemblies: {
      attendance: attendance.map((a) => ({ assembly: a.assembly, said: a.mode, at: a.updated_at })),
      proxiesGiven: proxies
        .filter((x) => x.grantor_id === memberId)
        .map((x) => ({
          assembly: x.assembly,
          to: x.holder_number === null ? 'la présidence' : `sociétaire n° ${Number(x.holder_number)}`,
          givenAt: x.given_at,
          revokedAt: x.revoked_at,
        })),
      proxiesHeld: proxies
        .filter((x) => x.grantor_id !== memberId)
        .map((x) => ({ assembly: x.assembly, from: `sociétaire n° ${Number(x.grantor_number)}`, givenAt: x.given_at, revokedAt: x.revoked_at })),
      votesTakenPart: participation.map((p) => ({ assembly: p.assembly, resolution: `${p.position}. ${p.resolution}`, via: p.via, at: p.voted_at })),
    },
  };
}

/** At the account's deletion (allowed only once nothing is held or decided): bulletins and withdrawals detached, kept. */
export async function detachUserShares(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  // Not paid yet: closed (a payment that lands later is given back by the fulfilment).
  await db
    .updateTable('share_bulletins')
    .set({ status: 'canceled', updated_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .where('status', '=', 'awaiting_payment')
    .execute();
  await db
    .updateTable('share_bulletins')
    .set({ user_id: null, updated_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .execute();
  await db
    .updateTable('share_withdrawals')
    .set({ user_id: null, updated_at: toTimestamp(now) })
    .where('user_id', '=', userId)
    .execute();
}

export const collegeChangeForm = z.object({
  numero: z.coerce
    .number({ error: 'Indiquez le numéro du sociétaire.' })
    .int('Indiquez le numéro du sociétaire.')
    .positive('Indiquez le numéro du sociétaire.')
    .max(10_000_000, 'Indiquez le numéro du sociétaire.'),
  college: z.string().max(40),
  motif: z
    .string()
    .trim()
    .min(3, 'Indiquez le motif du changement (par exemple « a quitté l’équipe salariée »).')
    .max(300, 'Le motif : 300 caractères au plus.'),
});

/**
 * A member moves to another college (their situation changed: an employee who left the team, a
 * reader hired): a `college` entry in the register, effective today, with no change of shares.
 * The new college must take this kind of person and the shares held must reach its minimum.
 */
export async function changeCollege(
  deps: Pick<ServerDeps, 'db' | 'clock' | 'siteUrl'>,
  adminId: string,
  input: z.input<typeof collegeChangeForm>,
): Promise<Result<{ message: string }>> {
  const parsed = collegeChangeForm.safeParse(input);
  if (!parsed.success) return fail(422, parsed.error.issues[0]?.message ?? 'Formulaire incomplet.');
  const { numero, motif } = parsed.data;
  if (parsed.data.college.trim() === '') return fail(422, 'Choisissez le nouveau collège.');
  const to = findCollege(parsed.data.college);
  if (!to) return fail(422, 'Ce collège n’existe pas dans les statuts.');
  const now = deps.clock.now();
  const day = parisDay(now);
  return writeTransaction(deps.db, async (trx): Promise<Result<{ message: string }>> => {
    await lockRegister(trx);
    const member = await trx
      .selectFrom('share_members')
      .select(['id', 'member_number', 'user_id', 'name', 'person'])
      .where('member_number', '=', numero)
      .executeTakeFirst();
    if (!member) return fail(404, `Aucun sociétaire ne porte le n° ${numero}.`);
    const map = new Map([[member.id, { memberNumber: Number(member.member_number), userId: member.user_id, name: member.name, person: member.person }]]);
    const holding = deriveHoldings(await registerEntries(trx, member.id), map, day)[0];
    if (!holding) return fail(409, `Le sociétaire n° ${numero} ne détient plus de parts.`);
    const from = findCollege(holding.collegeId);
    if (holding.collegeId === to.id) return fail(409, `Le sociétaire n° ${numero} est déjà dans le collège ${to.label}.`);
    if (to.person !== member.person)
      return fail(422, `Le collège ${to.label} est réservé aux ${to.person === 'legal' ? 'personnes morales' : 'personnes physiques'}.`);
    if (holding.shares < to.minimumShares)
      return fail(422, `Le collège ${to.label} demande au moins ${to.minimumShares} parts ; le sociétaire n° ${numero} en détient ${holding.shares}.`);
    await addRegisterEntry(
      trx,
      {
        memberId: member.id,
        kind: 'college',
        collegeId: to.id,
        sharesDelta: 0,
        nominalCents: statutes.shares.nominalCents,
        effectiveOn: day,
        recordedBy: adminId,
        note: `Changement de collège : ${from?.label ?? holding.collegeId} → ${to.label} (${motif})`,
      },
      now,
    );
    await mailTo(
      deps,
      trx,
      member.user_id,
      collegeChangedMail({ siteUrl: deps.siteUrl, from: from?.label ?? holding.collegeId, to: to.label, effectiveOn: formatDate(now) }),
      `shares.college:${member.id}:${day}:${to.id}`,
    );
    log.info('shares.college_changed', { memberNumber: numero, from: holding.collegeId, to: to.id, adminId });
    return { ok: true, message: `Le sociétaire n° ${numero} est inscrit au collège ${to.label} à compter d’aujourd’hui.` };
  });
}
