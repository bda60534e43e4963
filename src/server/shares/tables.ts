/**
 * The shares domain's tables (the cooperative: bulletins, members, the share register, withdrawals, assemblies), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Generated } from 'kysely';
import type { Flag, Immutable, Timestamp } from '../db/column-types';

// ---------------------------------------------------------------------------------------------
// The cooperative's shares (migration 2026-11-25-001-shares)

export type ShareBulletinStatus = 'awaiting_payment' | 'paid' | 'admitted' | 'refused' | 'renounced' | 'canceled';

export type SharePaymentMethod = 'card' | 'sepa' | 'transfer';

export type RegisterEntryKind = 'admission' | 'withdrawal' | 'repayment' | 'college' | 'identity' | 'correction';

export type ShareWithdrawalStatus = 'requested' | 'accepted' | 'refused' | 'repaid';

export interface ShareBulletinsTable {
  id: Immutable<string>;
  /** What a person reads and quotes, « B-2026-0042 »: gapless per Paris year of signature (shares/bulletins.ts), unique. */
  number: Immutable<string>;
  /** Null once the subscriber's account is deleted; the bulletin itself is kept. */
  user_id: string | null;
  order_id: Immutable<string | null>;
  college_id: Immutable<string>;
  shares: Immutable<number>;
  nominal_cents: Immutable<number>;
  amount_cents: Immutable<number>;
  /** JSON (shares/identity.ts). */
  identity: Immutable<string>;
  statutes_version: Immutable<string>;
  accepted_at: Immutable<Timestamp>;
  /** The account and client that accepted, as recorded on the bulletin. */
  accepted_from: Immutable<string>;
  fingerprint: Immutable<string>;
  payment_method: Immutable<SharePaymentMethod>;
  transfer_reference: Immutable<string | null>;
  status: ShareBulletinStatus;
  paid_at: Timestamp | null;
  /** For a transfer: the amount the treasurer saw arrive (differs from `amount_cents` only by an explicit override). */
  transfer_received_cents: number | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_note: string | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface ShareMembersTable {
  id: Immutable<string>;
  member_number: Immutable<number>;
  user_id: Immutable<string | null>;
  person: Immutable<'natural' | 'legal'>;
  name: Immutable<string>;
  identity: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface ShareRegisterTable {
  id: Immutable<string>;
  entry_number: Immutable<number>;
  member_id: Immutable<string>;
  kind: Immutable<RegisterEntryKind>;
  college_id: Immutable<string>;
  shares_delta: Immutable<number>;
  nominal_cents: Immutable<number>;
  repaid_cents: Immutable<number>;
  certificate_number: Immutable<number | null>;
  bulletin_id: Immutable<string | null>;
  withdrawal_id: Immutable<string | null>;
  effective_on: Immutable<string>;
  recorded_at: Immutable<Timestamp>;
  recorded_by: Immutable<string | null>;
  note: Immutable<string>;
}

export interface ShareWithdrawalsTable {
  id: Immutable<string>;
  member_id: Immutable<string>;
  user_id: string | null;
  shares: Immutable<number>;
  reason: Immutable<string>;
  requested_at: Immutable<Timestamp>;
  status: ShareWithdrawalStatus;
  effective_on: string | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_note: string | null;
  repaid_at: Timestamp | null;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

// ---------------------------------------------------------------------------------------------
// General assemblies (migration 2026-11-25-002-assemblies)

export type AssemblyStatus = 'draft' | 'notice_scheduled' | 'convened' | 'closed';

export type AssemblyCall = 'first' | 'second';

export type AttendanceMode = 'present' | 'remote' | 'absent';

export type BallotChoice = 'pour' | 'contre' | 'abstention';

export type ParticipationVia = 'direct' | 'proxy' | 'chair';

export interface AssembliesTable {
  id: Immutable<string>;
  kind: Immutable<'ordinary' | 'extraordinary'>;
  call: Immutable<AssemblyCall>;
  title: string;
  starts_at: Timestamp;
  place: string;
  online_url: string;
  /** JSON array of strings. */
  agenda: string;
  vote_opens_at: Timestamp;
  vote_closes_at: Timestamp;
  /** JSON (shares/assemblies.ts `AssemblyRules`), frozen at creation. */
  rules: Immutable<string>;
  status: AssemblyStatus;
  notice_at: Timestamp | null;
  notice_sent_at: Timestamp | null;
  roll_day: string | null;
  ballots_cast: Generated<number>;
  closed_at: Timestamp | null;
  /** JSON (shares/tally.ts `AssemblyResults`), once closed. */
  results: string | null;
  /** On second call: the first-call assembly that did not reach its quorum (at most one second call each). */
  first_call_id: Immutable<string | null>;
  created_by: Immutable<string | null>;
  created_at: Immutable<Timestamp>;
  updated_at: Timestamp;
}

export interface AssemblyResolutionsTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  position: Immutable<number>;
  title: string;
  text: string;
  board_proposal: Generated<Flag>;
  created_at: Immutable<Timestamp>;
}

export interface AssemblyDocumentsTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  position: Immutable<number>;
  title: string;
  filename: string;
  content_type: string;
  bytes: Uint8Array | null;
  path: string | null;
  sha256: string | null;
  created_at: Immutable<Timestamp>;
}

/** Append-only. */
export interface AssemblyRollTable {
  assembly_id: Immutable<string>;
  member_id: Immutable<string>;
  member_number: Immutable<number>;
  name: Immutable<string>;
  college_id: Immutable<string>;
  shares: Immutable<number>;
}

export interface AssemblyAttendanceTable {
  assembly_id: Immutable<string>;
  member_id: Immutable<string>;
  mode: AttendanceMode;
  updated_at: Timestamp;
}

export interface AssemblyProxiesTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  grantor_id: Immutable<string>;
  /** Null: the chair. */
  holder_id: Immutable<string | null>;
  slot: Immutable<number | null>;
  given_at: Immutable<Timestamp>;
  revoked_at: Timestamp | null;
}

/** Append-only: who took part (liste d'émargement), never what they voted. */
export interface AssemblyParticipationTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  resolution_id: Immutable<string>;
  member_id: Immutable<string>;
  voted_at: Immutable<Timestamp>;
  via: Immutable<ParticipationVia>;
  proxy_holder_id: Immutable<string | null>;
}

/** Append-only: what was voted (l'urne), never by whom, never when. */
export interface AssemblyBallotsTable {
  id: Immutable<string>;
  assembly_id: Immutable<string>;
  resolution_id: Immutable<string>;
  college_id: Immutable<string>;
  choice: Immutable<BallotChoice>;
  receipt_hash: Immutable<string>;
}

/** Append-only. */
export interface AssemblyMinutesTable {
  assembly_id: Immutable<string>;
  bytes: Immutable<Uint8Array>;
  sha256: Immutable<string>;
  ballots_digest: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface ShareTables {
  share_bulletins: ShareBulletinsTable;
  share_members: ShareMembersTable;
  share_register: ShareRegisterTable;
  share_withdrawals: ShareWithdrawalsTable;
  assemblies: AssembliesTable;
  assembly_resolutions: AssemblyResolutionsTable;
  assembly_documents: AssemblyDocumentsTable;
  assembly_roll: AssemblyRollTable;
  assembly_attendance: AssemblyAttendanceTable;
  assembly_proxies: AssemblyProxiesTable;
  assembly_participation: AssemblyParticipationTable;
  assembly_ballots: AssemblyBallotsTable;
  assembly_minutes: AssemblyMinutesTable;
}
