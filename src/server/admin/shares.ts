/**
 * The back-office of the cooperative: the bulletins waiting for a decision (a transfer to
 * confirm, an admission to pronounce or refuse), the register as entered, the capital month by
 * month, and the register as a CSV for the accountant and the annual filing. Every function
 * checks the administrator's role first; the decisions themselves belong to shares/service.ts.
 */
import { colleges, findCollege } from '../../config/statutes';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { fail, type Result } from '../core/result';
import { capitalOf, deriveHoldings, type MemberIdentity, registerEntries, type RegisterEntry } from '../shares/register';
import {
  admitBulletin,
  changeCollege,
  type collegeChangeForm,
  confirmTransfer,
  type TransferReceived,
  type cooperativeFigures,
  refuseBulletin,
  type SharesDeps,
} from '../shares/service';
import type { z } from 'zod';
import type { ShareBulletin } from '../shares/bulletins';
import { bulletinsAwaitingDecision, parisDay } from '../shares/bulletins';
import { decideWithdrawal, openWithdrawals, recordRepayment } from '../shares/withdrawals';
import { giveRefundIbanForPerson, type IbanInput, markRefundMade, refundTransfersForStaff, type StaffRefund } from '../shares/refunds';
import { csvAmount, csvDocument, csvText } from '../http/csv';
import { adminOf } from './service';

const NOT_ADMIN = 'Cette page est réservée à l’administration.';

export interface PendingBulletin {
  bulletin: ShareBulletin;
  email: string | null;
}

/** Bulletins waiting on the cooperative: transfers to confirm, then paid bulletins to decide; oldest first. */
export async function pendingBulletins(
  deps: Pick<ServerDeps, 'db'>,
  adminId: string,
): Promise<Result<{ transfers: PendingBulletin[]; decisions: PendingBulletin[] }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  const found = await bulletinsAwaitingDecision(deps.db, 500);
  return { ok: true, transfers: found.filter((f) => f.bulletin.status === 'awaiting_payment'), decisions: found.filter((f) => f.bulletin.status === 'paid') };
}

export type BulletinDecision = ({ kind: 'transfer' } & TransferReceived) | { kind: 'admit' } | { kind: 'refuse'; reason: string };

export async function decideBulletin(deps: SharesDeps, adminId: string, bulletinId: string, decision: BulletinDecision): Promise<Result<{ message: string }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  if (decision.kind === 'transfer') {
    const done = await confirmTransfer(deps, bulletinId, adminId, decision);
    return done.ok ? { ok: true, message: 'Virement reçu : le bulletin attend maintenant la décision d’admission.' } : done;
  }
  if (decision.kind === 'admit') {
    const done = await admitBulletin(deps, bulletinId, adminId);
    return done.ok ? { ok: true, message: `Admission prononcée : sociétaire n° ${done.memberNumber}, certificat n° ${done.certificateNumber}.` } : done;
  }
  const done = await refuseBulletin(deps, bulletinId, adminId, decision.reason);
  return done.ok ? { ok: true, message: 'Souscription refusée : la personne est prévenue et remboursée.' } : done;
}

export interface RegisterRow extends RegisterEntry {
  memberNumber: number;
  name: string;
  identity: MemberIdentity;
}

export const ENTRY_LABELS: Record<RegisterEntry['kind'], string> = {
  admission: 'Admission',
  withdrawal: 'Retrait',
  repayment: 'Remboursement',
  college: 'Changement de collège',
  identity: 'Changement d’identité',
  correction: 'Correction',
};

/** The register as entered, oldest entry first, with the members' identities. */
export async function registerForAdmin(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  adminId: string,
): Promise<
  Result<{
    rows: RegisterRow[];
    figures: Awaited<ReturnType<typeof cooperativeFigures>>;
    byCollege: { id: string; label: string; members: number; shares: number }[];
    capitalByMonth: { month: string; capitalCents: number }[];
  }>
> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  const members = await deps.db.selectFrom('share_members').select(['id', 'member_number', 'user_id', 'name', 'person', 'identity']).execute();
  const byId = new Map(members.map((m) => [m.id, m]));
  const entries = await registerEntries(deps.db);
  const rows = entries.map((e) => {
    const m = byId.get(e.memberId)!;
    return { ...e, memberNumber: Number(m.member_number), name: m.name, identity: JSON.parse(m.identity) as MemberIdentity };
  });
  const today = parisDay(deps.clock.now());
  const holdings = deriveHoldings(
    entries,
    new Map(members.map((m) => [m.id, { memberNumber: Number(m.member_number), userId: m.user_id, name: m.name, person: m.person }])),
    today,
  );
  const byCollege = colleges.map((c) => {
    const held = holdings.filter((h) => h.collegeId === c.id);
    return { id: c.id, label: c.label, members: held.length, shares: held.reduce((a, h) => a + h.shares, 0) };
  });
  // The capital at the end of each month with an entry, in order.
  const months = new Map<string, number>();
  let capital = 0;
  for (const e of [...entries].sort((a, b) => (a.effectiveOn === b.effectiveOn ? a.entryNumber - b.entryNumber : a.effectiveOn < b.effectiveOn ? -1 : 1))) {
    capital += e.sharesDelta * e.nominalCents;
    months.set(e.effectiveOn.slice(0, 7), capital);
  }
  // The same figures as the pitch's (cooperativeFigures), from the entries already read.
  const figures = { members: holdings.length, shares: holdings.reduce((a, h) => a + h.shares, 0), capitalCents: capitalOf(entries, today) };
  return { ok: true, rows, figures, byCollege, capitalByMonth: [...months].map(([month, capitalCents]) => ({ month, capitalCents })) };
}

export const REGISTER_HEADER = [
  'N° d’inscription',
  'Date d’effet',
  'Inscrite le',
  'Nature',
  'N° de sociétaire',
  'Nom ou dénomination',
  'SIREN',
  'Représentant',
  'Adresse',
  'Collège',
  'Parts',
  'Valeur nominale',
  'Montant',
  'Remboursé',
  'Certificat',
  'Mention',
];

/** The register as a CSV (semicolons, French decimals, BOM), one line per entry. */
export async function registerCsv(deps: Pick<ServerDeps, 'db' | 'clock'>, adminId: string): Promise<Result<{ csv: string; filename: string }>> {
  const register = await registerForAdmin(deps, adminId);
  if (!register.ok) return register;
  const lines = register.rows.map((r) => {
    const a = r.identity.address;
    return [
      csvText(String(r.entryNumber)),
      csvText(r.effectiveOn),
      csvText(r.recordedAt.toISOString()),
      csvText(ENTRY_LABELS[r.kind]),
      csvText(String(r.memberNumber)),
      csvText(r.name),
      csvText(r.identity.company?.siren ?? ''),
      csvText(r.identity.company ? `${r.identity.company.representative} (${r.identity.company.role})` : ''),
      csvText([a.line1, a.line2, `${a.postalCode} ${a.city}`, a.country].filter(Boolean).join(', ')),
      csvText(findCollege(r.collegeId)?.label ?? r.collegeId),
      csvText(String(r.sharesDelta)),
      csvAmount(r.nominalCents),
      csvAmount(r.sharesDelta * r.nominalCents),
      csvAmount(r.repaidCents),
      csvText(r.certificateNumber === null ? '' : String(r.certificateNumber)),
      csvText(r.note),
    ];
  });
  return { ok: true, csv: csvDocument(REGISTER_HEADER, lines), filename: `contrechamp-registre-des-societaires-${parisDay(deps.clock.now())}.csv` };
}

export async function withdrawalsForAdmin(
  deps: Pick<ServerDeps, 'db'>,
  adminId: string,
): Promise<Result<{ withdrawals: Awaited<ReturnType<typeof openWithdrawals>> }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  return { ok: true, withdrawals: await openWithdrawals(deps.db) };
}

export type WithdrawalDecision = { kind: 'accept' } | { kind: 'refuse'; note: string } | { kind: 'repay'; amountCents: number };

export async function decideWithdrawalAsAdmin(
  deps: SharesDeps,
  adminId: string,
  withdrawalId: string,
  decision: WithdrawalDecision,
): Promise<Result<{ message: string }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  if (decision.kind === 'repay') {
    const done = await recordRepayment(deps, adminId, withdrawalId, decision.amountCents);
    if (!done.ok) return done;
    return {
      ok: true,
      message: done.reference
        ? `Remboursement à faire par virement (${done.reference}) : la personne est invitée à indiquer son IBAN. Il sera inscrit au registre quand le virement sera marqué fait.`
        : 'Remboursement de 0 € inscrit au registre.',
    };
  }
  const done = await decideWithdrawal(deps, adminId, withdrawalId, decision.kind === 'accept' ? { accept: true } : { accept: false, note: decision.note });
  return done.ok
    ? { ok: true, message: decision.kind === 'accept' ? 'Retrait accepté et inscrit au registre.' : 'Retrait refusé : la personne est prévenue.' }
    : done;
}

/** A reader's change of college, recorded in the register (administrators only). */
export async function changeCollegeAsAdmin(deps: SharesDeps, adminId: string, input: z.input<typeof collegeChangeForm>): Promise<Result<{ message: string }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  return changeCollege(deps, adminId, input);
}

/** The refunds to make by bank transfer (IBAN awaited, to make), then the last ones made. */
export async function refundsForAdmin(deps: Pick<ServerDeps, 'db'>, adminId: string): Promise<Result<{ open: StaffRefund[]; made: StaffRefund[] }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  return { ok: true, ...(await refundTransfersForStaff(deps.db)) };
}

/** The IBAN a person without an account sent with their RIB, entered by an administrator. */
export async function giveRefundIbanAsAdmin(deps: SharesDeps, adminId: string, refundId: string, input: IbanInput): Promise<Result<{ message: string }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  const given = await giveRefundIbanForPerson(deps, refundId, input);
  if (!given.ok) return given;
  log.info('shares.refund_iban_entered', { refundId, adminId });
  return { ok: true, message: `IBAN enregistré pour le virement ${given.refund.reference} : il est prêt à être fait.` };
}

/** A refund's transfer has left the cooperative's account (once; recorded with the administrator). */
export async function markRefundMadeAsAdmin(
  deps: SharesDeps,
  adminId: string,
  refundId: string,
  input: { madeOn: string; iban: string },
): Promise<Result<{ message: string }>> {
  if (!(await adminOf(deps, adminId))) return fail(403, NOT_ADMIN);
  const done = await markRefundMade(deps, adminId, refundId, input);
  return done.ok
    ? {
        ok: true,
        message: `Virement ${done.refund.reference} marqué comme fait : la personne est prévenue${done.refund.cause === 'withdrawal' || (done.refund.cause === 'renunciation' && done.refund.memberId) ? ', et le remboursement est inscrit au registre' : ''}.`,
      }
    : done;
}
