/** The contract a withdrawal concerns, as the pages and the acknowledgement show it. */
import type { ContractRef } from './links';
import type { ContractWithdrawal } from './repository';
import type { ContractKind } from './tables';

/** A contract as the reader sees it on the confirmation step. */
export interface Contract {
  ref: ContractRef;
  kind: ContractKind;
  userId: string | null;
  /** « Abonnement mensuel », « Abonnement offert de 6 mois à Camille », « 2 parts sociales ». */
  name: string;
  /** « 7KQ2M-X9P4R » (an order) or « B-2026-0042 » (a bulletin). */
  reference: string;
  concludedAt: Date;
  /** What the withdrawal refunds, in cents, from the records. */
  refundCents: number;
  /** « sur la carte bancaire utilisée pour la commande », … */
  refundMeans: string;
  /** The last moment of the period, and the instant it ends. */
  lastDay: Date;
  endsAt: Date;
  /**
   * Null when the function is open for it now; else why not (in French). 410: the account it
   * was concluded with is deleted — the right stands, but is exercised by writing to us.
   */
  refusal: { status: 404 | 409 | 410; message: string } | null;
  /** Already withdrawn: the record. */
  withdrawal: ContractWithdrawal | null;
}
