/**
 * Refunds that the payment provider cannot make, made by the treasurer as a bank transfer: a
 * renunciation or a refusal of a bulletin paid by transfer, the repayment of withdrawn shares, an
 * overpayment recorded at « Virement reçu » (a transfer made twice).
 *
 * - Opened in the transaction that makes the money owed (`openRefundTransfer`), once per cause
 *   (`source_key`), with a reference from a counter row of the year (« RBT-2026-0007 », no gaps);
 *   the person is asked for an IBAN by mail.
 * - The person gives the IBAN and the account holder from their cooperative page; the IBAN is
 *   checked (ISO 13616), stored normalised, and shown masked to them afterwards; staff see it whole.
 * - Staff mark the transfer made, once (the day it left, who made it); in the same transaction the
 *   register gets its repayment entry (a withdrawal, an admitted bulletin renounced): the register
 *   follows the money, never ahead of it. The person is told by mail.
 */
import type { Kysely } from 'kysely';
import { formatEuros } from '../../config/catalog';
import { formatDate, parisYear } from '../../lib/dates';
import { findUser } from '../auth/service';
import { allotNumber } from '../billing/numbering';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { type Database, newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor, type MailContent } from '../mail/layout';
import { parisDay } from './bulletins';
import { checkIban, formatIban, maskIban } from './iban';
import { refundMadeMail } from './refund-mails';
import type { RefundTransferCause, RefundTransferStatus } from './refund-tables';
import { addRegisterEntry, lockRegister, registerEntries } from './register';

export type RefundDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs'>;

export interface RefundTransfer {
  id: string;
  reference: string;
  cause: RefundTransferCause;
  userId: string | null;
  memberId: string | null;
  bulletinId: string | null;
  withdrawalId: string | null;
  amountCents: number;
  iban: string | null;
  accountHolder: string | null;
  ibanGivenAt: Date | null;
  status: RefundTransferStatus;
  madeOn: string | null;
  madeBy: string | null;
  madeAt: Date | null;
  createdAt: Date;
}

type Row = {
  id: string;
  reference: string;
  source_key: string;
  cause: RefundTransferCause;
  user_id: string | null;
  member_id: string | null;
  bulletin_id: string | null;
  withdrawal_id: string | null;
  amount_cents: number;
  iban: string | null;
  account_holder: string | null;
  iban_given_at: string | null;
  status: RefundTransferStatus;
  made_on: string | null;
  made_by: string | null;
  made_at: string | null;
  created_at: string;
  updated_at: string;
};

const toRefund = (r: Row): RefundTransfer => ({
  id: r.id,
  reference: r.reference,
  cause: r.cause,
  userId: r.user_id,
  memberId: r.member_id,
  bulletinId: r.bulletin_id,
  withdrawalId: r.withdrawal_id,
  amountCents: Number(r.amount_cents),
  iban: r.iban,
  accountHolder: r.account_holder,
  ibanGivenAt: r.iban_given_at ? new Date(r.iban_given_at) : null,
  status: r.status,
  madeOn: r.made_on,
  madeBy: r.made_by,
  madeAt: r.made_at ? new Date(r.made_at) : null,
  createdAt: new Date(r.created_at),
});

/** What the refund is for, as the member and the back-office read it. */
export const REFUND_CAUSE_LABELS: Record<RefundTransferCause, string> = {
  renunciation: 'Renonciation à une souscription',
  refusal: 'Souscription non acceptée',
  withdrawal: 'Retrait de parts',
  overpayment: 'Trop-perçu sur un virement',
};

export const REFUND_STATUS_LABELS: Record<RefundTransferStatus, string> = {
  awaiting_iban: 'IBAN attendu',
  to_make: 'Virement à faire',
  made: 'Virement fait',
};

/** « RBT-2026-0007 »: a series per year, gapless (a counter row taken in the refund's transaction). */
export const refundReference = (year: number, number: number): string => `RBT-${year}-${String(number).padStart(4, '0')}`;

/**
 * Opens the refund owed, in the caller's transaction (the one that makes it owed). Once per
 * `cause` and source: a second call returns the first refund.
 */
export async function openRefundTransfer(
  trx: Kysely<Database>,
  input: {
    cause: RefundTransferCause;
    sourceId: string;
    userId: string | null;
    memberId?: string | null;
    bulletinId?: string | null;
    withdrawalId?: string | null;
    amountCents: number;
  },
  now: Date,
): Promise<RefundTransfer> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    throw new Error(`A refund by transfer needs a positive amount (${input.amountCents})`);
  const sourceKey = `${input.cause}:${input.sourceId}`;
  const found = await trx.selectFrom('share_refund_transfers').selectAll().where('source_key', '=', sourceKey).executeTakeFirst();
  if (found) return toRefund(found);
  const year = parisYear(now);
  const row: Row = {
    id: newId(),
    reference: refundReference(year, await allotNumber(trx, `RBT-${year}`)),
    source_key: sourceKey,
    cause: input.cause,
    user_id: input.userId,
    member_id: input.memberId ?? null,
    bulletin_id: input.bulletinId ?? null,
    withdrawal_id: input.withdrawalId ?? null,
    amount_cents: input.amountCents,
    iban: null,
    account_holder: null,
    iban_given_at: null,
    status: 'awaiting_iban',
    made_on: null,
    made_by: null,
    made_at: null,
    created_at: toTimestamp(now),
    updated_at: toTimestamp(now),
  };
  await trx.insertInto('share_refund_transfers').values(row).execute();
  return toRefund(row);
}

/** Schedules a mail to the account, in the caller's transaction (nothing if it was deleted). */
export async function mailAccount(
  deps: Pick<ServerDeps, 'clock'>,
  trx: Kysely<Database>,
  userId: string | null,
  mail: MailContent,
  uniqueKey: string,
): Promise<void> {
  const user = userId ? await findUser(trx, userId) : undefined;
  if (user) await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), { uniqueKey });
}

// ---------------------------------------------------------------------------------------------
// The member (every function takes the session's user first)

/** What the member sees of a refund: never the whole IBAN. */
export interface MemberRefund {
  id: string;
  reference: string;
  cause: RefundTransferCause;
  amountCents: number;
  status: RefundTransferStatus;
  maskedIban: string | null;
  accountHolder: string | null;
  madeOn: string | null;
  createdAt: Date;
}

const forMember = (r: RefundTransfer): MemberRefund => ({
  id: r.id,
  reference: r.reference,
  cause: r.cause,
  amountCents: r.amountCents,
  status: r.status,
  maskedIban: r.iban ? maskIban(r.iban) : null,
  accountHolder: r.accountHolder,
  madeOn: r.madeOn,
  createdAt: r.createdAt,
});

/** The refunds by transfer owed to (or made to) the account, newest first. */
export async function memberRefunds(db: Kysely<Database>, userId: string): Promise<MemberRefund[]> {
  const rows = await db.selectFrom('share_refund_transfers').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
  return rows.map((r) => forMember(toRefund(r)));
}

export interface IbanInput {
  iban: string;
  holder: string;
}

/**
 * The member says where to send their refund: the IBAN (checked, stored normalised) and the
 * account holder's name. Until the transfer is made, they may correct it; another account's
 * refund answers 404, like an unknown one.
 */
export async function giveRefundIban(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  userId: string,
  refundId: string,
  input: IbanInput,
): Promise<Result<{ refund: MemberRefund }>> {
  const row = await deps.db.selectFrom('share_refund_transfers').selectAll().where('id', '=', refundId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return fail(404, 'Ce remboursement est introuvable.');
  const refund = toRefund(row);
  if (refund.status === 'made')
    return fail(409, `Ce remboursement est déjà fait\u00a0: le virement est parti le ${formatDate(new Date(`${refund.madeOn}T12:00:00Z`))}.`);
  const holder = input.holder.replace(/\s+/g, ' ').trim();
  if (holder.length < 2 || holder.length > 70 || /[\p{Cc}<>]/u.test(holder))
    return fail(422, 'Indiquez le nom du titulaire du compte, tel qu’il figure sur votre RIB (70 caractères au plus).');
  const checked = checkIban(input.iban);
  if (!checked.ok) return fail(422, checked.message);
  const now = deps.clock.now();
  const done = await deps.db
    .updateTable('share_refund_transfers')
    .set({ iban: checked.iban, account_holder: holder, iban_given_at: toTimestamp(now), status: 'to_make', updated_at: toTimestamp(now) })
    .where('id', '=', refund.id)
    .where('user_id', '=', userId)
    .where('status', 'in', ['awaiting_iban', 'to_make'])
    .executeTakeFirst();
  if (done.numUpdatedRows === 0n) return fail(409, 'Ce remboursement vient d’être fait\u00a0: rechargez la page.');
  return { ok: true, refund: forMember({ ...refund, iban: checked.iban, accountHolder: holder, ibanGivenAt: now, status: 'to_make' }) };
}

// ---------------------------------------------------------------------------------------------
// The back-office (the caller has checked the administrator)

/**
 * The IBAN of a person without an account (a bulletin signed on paper, an account deleted since),
 * sent to the cooperative with a RIB by post or mail: staff enter it, checked as the member's own.
 * A refund owed to an account is the account's to give (`giveRefundIban`): staff cannot redirect
 * that money. Until the transfer is made, it can be corrected.
 */
export async function giveRefundIbanForPerson(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  refundId: string,
  input: IbanInput,
): Promise<Result<{ refund: RefundTransfer }>> {
  const row = await deps.db.selectFrom('share_refund_transfers').selectAll().where('id', '=', refundId).executeTakeFirst();
  if (!row) return fail(404, 'Ce remboursement n’existe pas.');
  const refund = toRefund(row);
  if (refund.userId !== null) return fail(409, 'Ce remboursement est dû à un compte : la personne indique elle-même son IBAN depuis son espace sociétaire.');
  if (refund.status === 'made')
    return fail(409, `Ce virement est déjà fait (le ${formatDate(new Date(`${refund.madeOn}T12:00:00Z`))}) : son IBAN ne change plus.`);
  const holder = input.holder.replace(/\s+/g, ' ').trim();
  if (holder.length < 2 || holder.length > 70 || /[\p{Cc}<>]/u.test(holder))
    return fail(422, 'Indiquez le nom du titulaire du compte, tel qu’il figure sur le RIB (70 caractères au plus).');
  const checked = checkIban(input.iban);
  if (!checked.ok) return fail(422, checked.message);
  const now = deps.clock.now();
  const done = await deps.db
    .updateTable('share_refund_transfers')
    .set({ iban: checked.iban, account_holder: holder, iban_given_at: toTimestamp(now), status: 'to_make', updated_at: toTimestamp(now) })
    .where('id', '=', refund.id)
    .where('user_id', 'is', null)
    .where('status', 'in', ['awaiting_iban', 'to_make'])
    .executeTakeFirst();
  if (done.numUpdatedRows === 0n) return fail(409, 'Ce remboursement vient d’être fait : rechargez la page.');
  return { ok: true, refund: { ...refund, iban: checked.iban, accountHolder: holder, ibanGivenAt: now, status: 'to_make' } };
}

export interface StaffRefund extends RefundTransfer {
  /** The member's registered name, or the bulletin's; the account's address. */
  name: string;
  memberNumber: number | null;
  email: string | null;
  /** The whole IBAN, grouped by four, for the bank's site. */
  ibanFormatted: string | null;
  /** The staff member who marked it made (their address). */
  madeByEmail: string | null;
}

/** The transfers to make (awaiting the IBAN, then to make), oldest first, then the last ones made. */
export async function refundTransfersForStaff(db: Kysely<Database>, madeLimit = 50): Promise<{ open: StaffRefund[]; made: StaffRefund[] }> {
  const base = db
    .selectFrom('share_refund_transfers as r')
    .leftJoin('share_members as m', 'm.id', 'r.member_id')
    .leftJoin('share_bulletins as b', 'b.id', 'r.bulletin_id')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as s', 's.id', 'r.made_by')
    .selectAll('r')
    .select(['m.name as member_name', 'm.member_number', 'b.identity as bulletin_identity', 'u.email', 's.email as made_by_email']);
  const open = await base.where('r.status', '!=', 'made').orderBy('r.created_at').orderBy('r.reference').execute();
  const made = await base.where('r.status', '=', 'made').orderBy('r.made_at', 'desc').limit(madeLimit).execute();
  const toStaff = (r: (typeof open)[number]): StaffRefund => {
    const identity = r.bulletin_identity ? (JSON.parse(r.bulletin_identity) as { name?: string; company?: { name: string } }) : null;
    return {
      ...toRefund(r),
      name: r.member_name ?? identity?.company?.name ?? identity?.name ?? '—',
      memberNumber: r.member_number === null ? null : Number(r.member_number),
      email: r.email,
      ibanFormatted: r.iban ? formatIban(r.iban) : null,
      madeByEmail: r.made_by_email,
    };
  };
  return { open: open.map(toStaff), made: made.map(toStaff) };
}

class Refused extends Error {
  readonly status: 404 | 409 | 422;
  constructor(status: 404 | 409 | 422, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Staff mark the transfer made: the day it left the cooperative's account, by whom. Once: a
 * second mark is refused (409), and nothing changes. `iban` is the IBAN the staff member saw and
 * used: if the member changed it meanwhile, the mark is refused, so that the record says where the
 * money went. In the same transaction the register gets its repayment entry, dated the day of the
 * transfer, and a withdrawal is closed as repaid.
 */
export async function markRefundMade(
  deps: RefundDeps,
  staffId: string,
  refundId: string,
  input: { madeOn: string; iban: string },
): Promise<Result<{ refund: RefundTransfer }>> {
  const row = await deps.db.selectFrom('share_refund_transfers').selectAll().where('id', '=', refundId).executeTakeFirst();
  if (!row) return fail(404, 'Ce remboursement n’existe pas.');
  const refund = toRefund(row);
  if (refund.status === 'made')
    return fail(409, `Ce virement est déjà marqué comme fait (le ${formatDate(new Date(`${refund.madeOn}T12:00:00Z`))})\u00a0: rien n’a changé.`);
  if (refund.status === 'awaiting_iban' || !refund.iban)
    return fail(409, 'La personne n’a pas encore indiqué son IBAN\u00a0: le virement ne peut pas encore être fait.');
  const now = deps.clock.now();
  const madeOn = input.madeOn.trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(madeOn)) return fail(422, 'Indiquez la date du virement.');
  // A day that exists: « 2026-02-31 » would otherwise be read as 3 March and go into the register as such.
  const parsed = new Date(`${madeOn}T12:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== madeOn)
    return fail(422, `La date du virement n’existe pas (${madeOn})\u00a0: vérifiez le jour et le mois.`);
  if (madeOn > parisDay(now)) return fail(422, 'La date du virement ne peut pas être dans le futur.');
  if (madeOn < parisDay(refund.createdAt))
    return fail(422, `Le virement ne peut pas être fait avant que le remboursement soit dû, le ${formatDate(refund.createdAt)}.`);
  if (input.iban.replace(/\s/g, '').toUpperCase() !== refund.iban)
    return fail(409, 'L’IBAN de ce remboursement a changé depuis l’affichage de la page\u00a0: rechargez-la et vérifiez le virement.');
  const outcome = await writeTransaction(deps.db, async (trx) => {
    const moved = await trx
      .updateTable('share_refund_transfers')
      .set({ status: 'made', made_on: madeOn, made_by: staffId, made_at: toTimestamp(now), updated_at: toTimestamp(now) })
      .where('id', '=', refund.id)
      .where('status', '=', 'to_make')
      .where('iban', '=', refund.iban)
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) throw new Refused(409, 'Ce remboursement vient de changer (marqué fait, ou un nouvel IBAN)\u00a0: rechargez la page.');
    await recordInRegister(trx, refund, staffId, madeOn, now);
    await mailAccount(
      deps,
      trx,
      refund.userId,
      refundMadeMail({ siteUrl: deps.siteUrl, refund, madeOn, maskedIban: maskIban(refund.iban!), accountHolder: refund.accountHolder ?? '' }),
      `shares.refund-made:${refund.id}`,
    );
    return { ...refund, status: 'made' as const, madeOn, madeBy: staffId, madeAt: now };
  }).catch((error: unknown) => {
    if (error instanceof Refused) return fail(error.status, error.message);
    throw error;
  });
  if ('ok' in outcome) return outcome;
  deps.jobs.wake();
  return { ok: true, refund: outcome };
}

/**
 * The member's college as the register derives it on `asOf` (the college of their latest entry
 * effective by then, deriveHoldings' rule), for an entry that changes no college: a repayment
 * written after a change of college must not take the member back to the old one.
 * `fallback` when the member has no entry effective by then. Take the register's lock first.
 */
export async function currentCollegeOf(trx: Kysely<Database>, memberId: string, asOf: string, fallback: string): Promise<string> {
  const effective = (await registerEntries(trx, memberId)).filter((e) => e.effectiveOn <= asOf);
  return effective.at(-1)?.collegeId ?? fallback;
}

/** What the money made does to the register: shares repaid by a new entry, dated the transfer's day. */
async function recordInRegister(trx: Kysely<Database>, refund: RefundTransfer, staffId: string, madeOn: string, now: Date): Promise<void> {
  if (refund.cause === 'withdrawal' && refund.withdrawalId) {
    const w = await trx
      .selectFrom('share_withdrawals')
      .select(['id', 'member_id', 'shares', 'status'])
      .where('id', '=', refund.withdrawalId)
      .executeTakeFirst();
    const entry = await trx
      .selectFrom('share_register')
      .select(['college_id', 'nominal_cents'])
      .where('withdrawal_id', '=', refund.withdrawalId)
      .where('kind', '=', 'withdrawal')
      .executeTakeFirst();
    if (!w || !entry) throw new Refused(409, 'Ce retrait n’est pas inscrit au registre.');
    const closed = await trx
      .updateTable('share_withdrawals')
      .set({ status: 'repaid', repaid_at: toTimestamp(now), updated_at: toTimestamp(now) })
      .where('id', '=', w.id)
      .where('status', '=', 'accepted')
      .executeTakeFirst();
    if (closed.numUpdatedRows === 0n) throw new Refused(409, 'Ce retrait est déjà remboursé.');
    const shares = Number(w.shares);
    const nominal = shares * Number(entry.nominal_cents);
    // The register held (after the withdrawal's row, in the order decideWithdrawal takes them): no
    // change of college slips in between the college read and the entry.
    await lockRegister(trx);
    const collegeId = await currentCollegeOf(trx, w.member_id, parisDay(now), entry.college_id);
    await addRegisterEntry(
      trx,
      {
        memberId: w.member_id,
        kind: 'repayment',
        collegeId,
        nominalCents: Number(entry.nominal_cents),
        repaidCents: refund.amountCents,
        withdrawalId: w.id,
        effectiveOn: madeOn,
        recordedBy: staffId,
        note: `Remboursement de ${shares} part${shares > 1 ? 's' : ''} : ${formatEuros(refund.amountCents)}${refund.amountCents < nominal ? ` (valeur nominale ${formatEuros(nominal)}, diminuée de la quote-part des pertes)` : ''}, virement ${refund.reference}`,
      },
      now,
    );
    return;
  }
  if (refund.cause === 'renunciation' && refund.memberId && refund.bulletinId) {
    const b = await trx
      .selectFrom('share_bulletins')
      .select(['college_id', 'nominal_cents', 'shares', 'accepted_at'])
      .where('id', '=', refund.bulletinId)
      .executeTakeFirst();
    if (!b) return;
    await lockRegister(trx);
    const collegeId = await currentCollegeOf(trx, refund.memberId, parisDay(now), b.college_id);
    await addRegisterEntry(
      trx,
      {
        memberId: refund.memberId,
        kind: 'repayment',
        collegeId,
        nominalCents: Number(b.nominal_cents),
        repaidCents: refund.amountCents,
        effectiveOn: madeOn,
        recordedBy: staffId,
        note: `Remboursement de la renonciation au bulletin signé le ${parisDay(new Date(b.accepted_at))} : ${formatEuros(refund.amountCents)}, virement ${refund.reference}`,
      },
      now,
    );
  }
  // A refusal or an overpayment: the money never entered the capital; the register has nothing to say.
}

/** Refunds not made yet, for an account (its deletion waits for them). */
export async function refundsOwedTo(db: Kysely<Database>, userId: string): Promise<number> {
  const rows = await db.selectFrom('share_refund_transfers').select('id').where('user_id', '=', userId).where('status', '!=', 'made').execute();
  return rows.length;
}
