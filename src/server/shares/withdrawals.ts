/**
 * Withdrawals (retraits): a sociétaire asks to take back all or part of their shares; the
 * cooperative decides; the shares leave the register at the close of the financial year in which
 * the request was made; they are repaid at nominal value at most, within the statutes' delay.
 *
 * - A request leaves at least the college's minimum, or takes every share; one open request per
 *   member (a unique index); acknowledged by mail.
 * - Accepting writes the register entry (negative shares, effective at the year's close), in the
 *   request's move's transaction; refused when it would take the capital on that day below the
 *   statutes' floor (a fraction of the highest capital ever reached): the request waits.
 * - The repayment is decided on or after the effective day, for the nominal value or less (a
 *   share of losses), and made by bank transfer (refunds.ts): the member gives an IBAN, staff mark
 *   the transfer made, and only then is the register's repayment entry written and the request
 *   closed. Nothing to pay (losses took it all) is written at once.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { formatEuros } from '../../config/catalog';
import { findCollege, statutes } from '../../config/statutes';
import { formatDate } from '../../lib/dates';
import { findUser } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { fail, type Result } from '../core/result';
import { type Database, newId, type ShareWithdrawalStatus, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor, renderMail, siteLink } from '../mail/layout';
import { parisDay } from './bulletins';
import { addRegisterEntry, capitalOf, highestCapital, holdingOfUser, lockRegister, registerEntries } from './register';
import { MEMBERS_EMAIL } from './mails';
import { repaymentByTransferMail } from './refund-mails';
import { currentCollegeOf, mailAccount, openRefundTransfer } from './refunds';

export type WithdrawalDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs'>;

export interface Withdrawal {
  id: string;
  memberId: string;
  userId: string | null;
  shares: number;
  reason: string;
  requestedAt: Date;
  status: ShareWithdrawalStatus;
  effectiveOn: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  repaidAt: Date | null;
}

type Row = {
  id: string;
  member_id: string;
  user_id: string | null;
  shares: number;
  reason: string;
  requested_at: string;
  status: ShareWithdrawalStatus;
  effective_on: string | null;
  decided_at: string | null;
  decision_note: string | null;
  repaid_at: string | null;
};
const toWithdrawal = (r: Row): Withdrawal => ({
  id: r.id,
  memberId: r.member_id,
  userId: r.user_id,
  shares: Number(r.shares),
  reason: r.reason,
  requestedAt: new Date(r.requested_at),
  status: r.status,
  effectiveOn: r.effective_on,
  decidedAt: r.decided_at ? new Date(r.decided_at) : null,
  decisionNote: r.decision_note,
  repaidAt: r.repaid_at ? new Date(r.repaid_at) : null,
});

/** The close of the financial year in which `day` falls (YYYY-MM-DD). */
export function yearCloseOf(day: string): string {
  const end = statutes.withdrawal.financialYearEnds;
  const year = Number(day.slice(0, 4));
  return day.slice(5) <= end ? `${year}-${end}` : `${year + 1}-${end}`;
}

export const withdrawalForm = z.object({
  parts: z.coerce.number({ error: 'Indiquez un nombre de parts.' }).int('Indiquez un nombre entier de parts.').min(1, 'Indiquez au moins une part.'),
  motif: z.string().trim().max(1000, 'Le motif : 1 000 caractères au plus.').default(''),
});

const sharesText = (n: number) => `${n} part${n > 1 ? 's' : ''}`;

/** The member asks to withdraw shares; acknowledged by mail. */
export async function requestWithdrawal(
  deps: WithdrawalDeps,
  userId: string,
  input: z.infer<typeof withdrawalForm>,
): Promise<Result<{ withdrawalId: string; effectiveOn: string }>> {
  const now = deps.clock.now();
  const today = parisDay(now);
  const holding = await holdingOfUser(deps.db, userId, today);
  if (!holding) return fail(404, 'Vous ne détenez pas de parts sociales.');
  const college = findCollege(holding.collegeId);
  const pending = await deps.db
    .selectFrom('share_withdrawals')
    .select(['shares', 'status'])
    .where('member_id', '=', holding.memberId)
    .where('status', 'in', ['requested', 'accepted'])
    .execute();
  if (pending.some((p) => p.status === 'requested')) return fail(409, 'Vous avez déjà une demande de retrait en cours : attendez la décision de la gérance.');
  // Shares already leaving at a year's close are not there to withdraw twice.
  const available = holding.shares - pending.reduce((sum, p) => sum + Number(p.shares), 0);
  if (input.parts > available) return fail(422, `Vous pouvez retirer ${sharesText(available)} au plus.`);
  const left = available - input.parts;
  if (left > 0 && college && left < college.minimumShares) {
    return fail(
      422,
      `Le collège ${college.label} demande au moins ${sharesText(college.minimumShares)} : retirez-en ${available - college.minimumShares} au plus, ou toutes (${available}).`,
    );
  }
  const effectiveOn = yearCloseOf(today);
  const id = newId();
  const user = await findUser(deps.db, userId);
  try {
    await writeTransaction(deps.db, async (trx) => {
      await trx
        .insertInto('share_withdrawals')
        .values({
          id,
          member_id: holding.memberId,
          user_id: userId,
          shares: input.parts,
          reason: input.motif,
          requested_at: toTimestamp(now),
          status: 'requested',
          effective_on: effectiveOn,
          decided_at: null,
          decided_by: null,
          decision_note: null,
          repaid_at: null,
          created_at: toTimestamp(now),
          updated_at: toTimestamp(now),
        })
        .execute();
      if (user)
        await schedule(deps, trx, SEND_MAIL, mailFor(user, requestedMail(deps.siteUrl, input.parts, effectiveOn)), {
          uniqueKey: `shares.withdrawal-requested:${id}`,
        });
    });
  } catch (error) {
    // The unique index: another request of the same member won the race.
    if (
      await deps.db.selectFrom('share_withdrawals').select('id').where('member_id', '=', holding.memberId).where('status', '=', 'requested').executeTakeFirst()
    ) {
      return fail(409, 'Vous avez déjà une demande de retrait en cours : attendez la décision de la gérance.');
    }
    throw error;
  }
  deps.jobs.wake();
  return { ok: true, withdrawalId: id, effectiveOn };
}

function requestedMail(siteUrl: URL, shares: number, effectiveOn: string) {
  return renderMail('shares-withdrawal', {
    siteUrl,
    subject: 'Votre demande de retrait de parts sociales est enregistrée',
    heading: 'Demande de retrait enregistrée',
    preheader: `Retrait de ${sharesText(shares)}, effectif le ${formatDate(new Date(`${effectiveOn}T12:00:00Z`))} si la gérance l’accepte.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: `Nous avons bien reçu votre demande de retrait de ${sharesText(shares)}. La gérance va l’examiner ; si elle l’accepte, le retrait prendra effet à la clôture de l’exercice, le ${formatDate(new Date(`${effectiveOn}T12:00:00Z`))}.`,
      },
      {
        kind: 'paragraph',
        text: `Vos parts vous seront alors remboursées à leur valeur nominale au plus (${formatEuros(statutes.shares.nominalCents)} la part), après l’approbation des comptes de l’exercice et dans un délai maximal de ${statutes.withdrawal.repaymentWithinYears} ans.`,
      },
      { kind: 'action', label: 'Mon espace Sociétariat', url: siteLink(siteUrl, '/mon-compte/societariat') },
      { kind: 'note', text: `Une question ? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous avez demandé le retrait de parts sociales de Contrechamp.',
  });
}

export async function listUserWithdrawals(db: Kysely<Database>, userId: string): Promise<Withdrawal[]> {
  const rows = await db.selectFrom('share_withdrawals').selectAll().where('user_id', '=', userId).orderBy('requested_at', 'desc').execute();
  return rows.map(toWithdrawal);
}

/** Every open request and accepted withdrawal not yet repaid, oldest first (the back-office). */
export async function openWithdrawals(db: Kysely<Database>): Promise<(Withdrawal & { name: string; memberNumber: number })[]> {
  const rows = await db
    .selectFrom('share_withdrawals as w')
    .innerJoin('share_members as m', 'm.id', 'w.member_id')
    .selectAll('w')
    .select(['m.name', 'm.member_number'])
    .where('w.status', 'in', ['requested', 'accepted'])
    .orderBy('w.requested_at')
    .execute();
  return rows.map((r) => ({ ...toWithdrawal(r), name: r.name, memberNumber: Number(r.member_number) }));
}

async function mailMember(
  deps: Pick<ServerDeps, 'clock' | 'siteUrl'>,
  trx: Kysely<Database>,
  userId: string | null,
  subject: string,
  text: string,
  key: string,
) {
  const user = userId ? await findUser(trx, userId) : undefined;
  if (!user) return;
  const mail = renderMail('shares-withdrawal', {
    siteUrl: deps.siteUrl,
    subject,
    heading: subject,
    preheader: text.slice(0, 120),
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text },
      { kind: 'note', text: `Une question ? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous avez demandé le retrait de parts sociales de Contrechamp.',
  });
  await schedule(deps, trx, SEND_MAIL, mailFor(user, mail), { uniqueKey: key });
}

/** The cooperative's decision on a request (the caller has checked the administrator). */
export async function decideWithdrawal(
  deps: WithdrawalDeps,
  adminId: string,
  withdrawalId: string,
  decision: { accept: true } | { accept: false; note: string },
): Promise<Result<{ effectiveOn: string | null }>> {
  const row = await deps.db.selectFrom('share_withdrawals').selectAll().where('id', '=', withdrawalId).executeTakeFirst();
  if (!row) return fail(404, 'Cette demande de retrait n’existe pas.');
  const w = toWithdrawal(row);
  if (w.status !== 'requested') return fail(409, 'Cette demande a déjà fait l’objet d’une décision.');
  const now = deps.clock.now();
  if (!decision.accept) {
    const note = decision.note.trim();
    if (note.length < 5) return fail(422, 'Indiquez le motif du refus : il est envoyé à la personne.');
    const moved = await writeTransaction(deps.db, async (trx) => {
      const done = await trx
        .updateTable('share_withdrawals')
        .set({ status: 'refused', decided_at: toTimestamp(now), decided_by: adminId, decision_note: note, updated_at: toTimestamp(now) })
        .where('id', '=', w.id)
        .where('status', '=', 'requested')
        .executeTakeFirst();
      if (done.numUpdatedRows === 0n) return false;
      await mailMember(
        deps,
        trx,
        w.userId,
        'Votre demande de retrait de parts sociales n’a pas été acceptée',
        `La gérance n’a pas accepté votre demande de retrait de ${sharesText(w.shares)}. Motif : ${note}`,
        `shares.withdrawal-refused:${w.id}`,
      );
      return true;
    });
    if (!moved) return fail(409, 'Cette demande vient de faire l’objet d’une décision : rechargez la page.');
    deps.jobs.wake();
    return { ok: true, effectiveOn: null };
  }
  const effectiveOn = w.effectiveOn ?? yearCloseOf(parisDay(now));
  const member = await deps.db
    .selectFrom('share_register')
    .select(['college_id', 'nominal_cents'])
    .where('member_id', '=', w.memberId)
    .orderBy('entry_number', 'desc')
    .executeTakeFirst();
  if (!member) return fail(404, 'Ce sociétaire n’a pas d’inscription au registre.');
  const outcome = await writeTransaction(deps.db, async (trx) => {
    const moved = await trx
      .updateTable('share_withdrawals')
      .set({ status: 'accepted', effective_on: effectiveOn, decided_at: toTimestamp(now), decided_by: adminId, updated_at: toTimestamp(now) })
      .where('id', '=', w.id)
      .where('status', '=', 'requested')
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return 'moved' as const;
    // Every check below reads the register held: two acceptances at once are decided one after the other.
    await lockRegister(trx);
    const entries = await registerEntries(trx);
    // What the member holds at the effective day, other withdrawals and corrections included.
    const held = entries.filter((e) => e.memberId === w.memberId && e.effectiveOn <= effectiveOn).reduce((sum, e) => sum + e.sharesDelta, 0);
    if (held < w.shares) throw new NotHeld(held);
    const floor = Math.ceil((highestCapital(entries) * statutes.withdrawal.capitalFloor.n) / statutes.withdrawal.capitalFloor.d);
    const after = capitalOf(entries, effectiveOn) - w.shares * Number(member.nominal_cents);
    if (after < floor) throw new BelowFloor(after, floor);
    await addRegisterEntry(
      trx,
      {
        memberId: w.memberId,
        kind: 'withdrawal',
        collegeId: member.college_id,
        sharesDelta: -w.shares,
        nominalCents: Number(member.nominal_cents),
        withdrawalId: w.id,
        effectiveOn,
        recordedBy: adminId,
        note: `Retrait de ${sharesText(w.shares)} demandé le ${formatDate(w.requestedAt)}`,
      },
      now,
    );
    await mailMember(
      deps,
      trx,
      w.userId,
      'Votre retrait de parts sociales est accepté',
      `La gérance a accepté votre retrait de ${sharesText(w.shares)}. Il prend effet le ${formatDate(new Date(`${effectiveOn}T12:00:00Z`))} ; vos parts vous seront remboursées à leur valeur nominale au plus, après l’approbation des comptes de l’exercice.`,
      `shares.withdrawal-accepted:${w.id}`,
    );
    return 'accepted' as const;
  }).catch((error: unknown) => {
    if (error instanceof BelowFloor || error instanceof NotHeld) return error;
    throw error;
  });
  if (outcome === 'moved') return fail(409, 'Cette demande vient de faire l’objet d’une décision : rechargez la page.');
  if (outcome instanceof NotHeld)
    return fail(
      409,
      `Ce sociétaire ne détiendra plus que ${sharesText(Math.max(0, outcome.held))} à la date d’effet : ce retrait ne peut pas être accepté tel quel. La demande reste en attente.`,
    );
  if (outcome instanceof BelowFloor) {
    return fail(
      409,
      `Ce retrait ferait descendre le capital à ${formatEuros(outcome.after)}, sous le plancher des statuts (${formatEuros(outcome.floor)}, le quart du capital le plus élevé atteint) : il est différé. La demande reste en attente.`,
    );
  }
  deps.jobs.wake();
  return { ok: true, effectiveOn };
}

class NotHeld extends Error {
  readonly held: number;
  constructor(held: number) {
    super('shares not held');
    this.held = held;
  }
}

class BelowFloor extends Error {
  readonly after: number;
  readonly floor: number;
  constructor(after: number, floor: number) {
    super('capital floor');
    this.after = after;
    this.floor = floor;
  }
}

/**
 * Decides the repayment of an accepted withdrawal, on or after its effective day, for the nominal
 * value or less. A positive amount opens a refund by transfer (refunds.ts): the register's
 * repayment entry and the request's close wait until the transfer is marked made. Zero (losses
 * took it all) is written in the register at once.
 */
export async function recordRepayment(
  deps: WithdrawalDeps,
  adminId: string,
  withdrawalId: string,
  amountCents: number,
): Promise<Result<{ reference: string | null }>> {
  const row = await deps.db.selectFrom('share_withdrawals').selectAll().where('id', '=', withdrawalId).executeTakeFirst();
  if (!row) return fail(404, 'Ce retrait n’existe pas.');
  const w = toWithdrawal(row);
  if (w.status !== 'accepted' || !w.effectiveOn) return fail(409, w.status === 'repaid' ? 'Ce retrait est déjà remboursé.' : 'Ce retrait n’est pas accepté.');
  const now = deps.clock.now();
  if (parisDay(now) < w.effectiveOn)
    return fail(409, `Le retrait prend effet le ${formatDate(new Date(`${w.effectiveOn}T12:00:00Z`))} : le remboursement vient après.`);
  const entry = await deps.db
    .selectFrom('share_register')
    .select(['college_id', 'nominal_cents'])
    .where('withdrawal_id', '=', w.id)
    .where('kind', '=', 'withdrawal')
    .executeTakeFirst();
  if (!entry) return fail(409, 'Ce retrait n’est pas inscrit au registre.');
  const nominal = w.shares * Number(entry.nominal_cents);
  if (!Number.isSafeInteger(amountCents) || amountCents < 0 || amountCents > nominal)
    return fail(422, `Le remboursement va de 0 € à la valeur nominale des parts, ${formatEuros(nominal)}.`);
  const pending = await deps.db.selectFrom('share_refund_transfers').select('reference').where('source_key', '=', `withdrawal:${w.id}`).executeTakeFirst();
  if (pending) return fail(409, `Le remboursement de ce retrait est déjà en cours, par le virement ${pending.reference}.`);
  const done = await writeTransaction(deps.db, async (trx) => {
    // The withdrawal's row first: two staff members (or a double click) repaying it at once are
    // served one after the other (PostgreSQL's row lock, SQLite's single writer); the second then
    // finds the refund the first opened, and consumes no reference.
    const held = await trx
      .updateTable('share_withdrawals')
      .set({ updated_at: toTimestamp(now) })
      .where('id', '=', w.id)
      .where('status', '=', 'accepted')
      .executeTakeFirst();
    if (held.numUpdatedRows === 0n) return null;
    const opened = await trx.selectFrom('share_refund_transfers').select('reference').where('source_key', '=', `withdrawal:${w.id}`).executeTakeFirst();
    if (opened) return { already: opened.reference };
    if (amountCents > 0) {
      const refund = await openRefundTransfer(
        trx,
        { cause: 'withdrawal', sourceId: w.id, userId: w.userId, memberId: w.memberId, withdrawalId: w.id, amountCents },
        now,
      );
      await mailAccount(
        deps,
        trx,
        w.userId,
        repaymentByTransferMail({ siteUrl: deps.siteUrl, shares: w.shares, refund }),
        `shares.withdrawal-repayment:${w.id}`,
      );
      return { reference: refund.reference };
    }
    const moved = await trx
      .updateTable('share_withdrawals')
      .set({ status: 'repaid', repaid_at: toTimestamp(now), updated_at: toTimestamp(now) })
      .where('id', '=', w.id)
      .where('status', '=', 'accepted')
      .executeTakeFirst();
    if (moved.numUpdatedRows === 0n) return null;
    await lockRegister(trx);
    const collegeId = await currentCollegeOf(trx, w.memberId, parisDay(now), entry.college_id);
    await addRegisterEntry(
      trx,
      {
        memberId: w.memberId,
        kind: 'repayment',
        collegeId,
        nominalCents: Number(entry.nominal_cents),
        repaidCents: 0,
        withdrawalId: w.id,
        effectiveOn: parisDay(now),
        recordedBy: adminId,
        note: `Remboursement de ${sharesText(w.shares)} : 0 € (valeur nominale ${formatEuros(nominal)}, entièrement absorbée par la quote-part des pertes)`,
      },
      now,
    );
    await mailMember(
      deps,
      trx,
      w.userId,
      'Le remboursement de vos parts sociales',
      `Les pertes de l’exercice absorbent la valeur de vos ${sharesText(w.shares)} retirées : il n’y a rien à vous rembourser. Merci d’avoir fait partie de la coopérative.`,
      `shares.withdrawal-repaid:${w.id}`,
    );
    return { reference: null };
  });
  if (!done) return fail(409, 'Ce retrait vient d’être remboursé : rechargez la page.');
  if ('already' in done) return fail(409, `Le remboursement de ce retrait est déjà en cours, par le virement ${done.already}.`);
  deps.jobs.wake();
  return { ok: true, reference: done.reference };
}
