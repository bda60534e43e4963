/**
 * The billing domain's tables (invoices, credit notes and receipts with their gapless counters, and their PDFs), as Kysely sees them; `db/database.ts`
 * composes them into the `Database`. Storage rules are the database's (ISO text times, 0/1 flags,
 * text UUIDs).
 */
import type { Immutable, Timestamp } from '../db/column-types';

// Billing (src/server/billing) and gifts (src/server/gifts)

/** `invoice` (facture), `credit_note` (avoir), `receipt` (reçu de don), `statement` (récapitulatif annuel des dons). */
export type DocumentKind = 'invoice' | 'credit_note' | 'receipt' | 'statement';

export interface DocumentCountersTable {
  series: Immutable<string>;
  last_number: number;
}

/** Append-only (a trigger refuses UPDATE and DELETE): every column is immutable. */
export interface BillingDocumentsTable {
  id: Immutable<string>;
  kind: Immutable<DocumentKind>;
  series: Immutable<string>;
  number: Immutable<number>;
  /** The number as printed: « F-000042 ». */
  label: Immutable<string>;
  subject_key: Immutable<string>;
  /** The account it belongs to (never shown to anyone else); stays after the account is deleted. */
  owner_id: Immutable<string | null>;
  order_id: Immutable<string | null>;
  /** A credit note's invoice. */
  refers_to_id: Immutable<string | null>;
  /** Calendar year (Europe/Paris) of the issue, or of the donations a statement sums up. */
  year: Immutable<number>;
  issued_at: Immutable<Timestamp>;
  total_cents: Immutable<number>;
  vat_cents: Immutable<number>;
  currency: Immutable<'EUR'>;
  buyer_name: Immutable<string>;
  /** JSON of the document as printed (billing/content.ts). */
  content: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface BillingPdfsTable {
  document_id: Immutable<string>;
  bytes: Immutable<Uint8Array>;
  sha256: Immutable<string>;
  created_at: Immutable<Timestamp>;
}

export interface BillingTables {
  document_counters: DocumentCountersTable;
  billing_documents: BillingDocumentsTable;
  billing_pdfs: BillingPdfsTable;
}
