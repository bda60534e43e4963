/**
 * What a legal document says, as printed: the snapshot stored with it (`billing_documents.content`)
 * and rendered to PDF (./pdf). Everything the PDF shows is here, fixed at issue: a later change
 * of the publisher's address, of the VAT rate or of the buyer's profile never changes a document
 * already issued.
 *
 * Mentions (CGI annexe II art. 242 nonies A; Code de commerce L441-9 for a business buyer):
 * seller name, legal form with « société coopérative », address, SIREN, VAT number; buyer name
 * and address (SIREN for a business); date, number; per line the description, the period of
 * service, the quantity, the unit price before tax, the VAT rate; VAT per rate; totals before
 * and after tax; for a business, the due date and the late-payment terms.
 */
import type { DocumentKind } from '../db/database';

export interface DocumentParty {
  name: string;
  /** Street, complement, "postcode city", country: the lines as printed. */
  addressLines: string[];
}

export interface DocumentSeller extends DocumentParty {
  /** « Contrechamp SCIC SAS à capital variable » */
  legalName: string;
  /** The full legal form, with the words « société coopérative ». */
  legalForm: string;
  /** « 912 345 678 » */
  siren: string;
  /** « RCS Bobigny » */
  registry: string;
  /** « FR74 912 345 678 » */
  vatNumber: string;
  email: string;
  website: string;
}

export interface DocumentBuyer extends DocumentParty {
  /** A business buyer (company name and SIREN given at payment): L441-9 mentions apply. */
  business: { company: string; siren: string } | null;
  email: string;
}

export interface DocumentLine {
  description: string;
  /**
   * ISO dates (YYYY-MM-DD, Europe/Paris) of the service period, when there is one: its first and
   * its last day, both included: the day before the next period starts. (Documents issued before
   * this rule may end on that next day; they stay as they were issued.)
   */
  period: { start: string; end: string } | null;
  quantity: number;
  /** Before tax, per unit. */
  unitHtCents: number;
  vatRateBp: number;
  htCents: number;
  vatCents: number;
  ttcCents: number;
}

export interface DocumentTotals {
  htCents: number;
  /** One row per VAT rate present (none for a donation). */
  vat: { rateBp: number; baseCents: number; vatCents: number }[];
  vatCents: number;
  ttcCents: number;
}

/** One donation of a yearly statement. */
export interface StatementLine {
  /** ISO date (Europe/Paris) of the payment. */
  date: string;
  description: string;
  amountCents: number;
  /** The receipt issued for it, when there is one (« RD-000012 »). */
  receiptLabel: string | null;
}

export interface DocumentContent {
  /** Version of this shape, for renderers of documents issued years ago. */
  version: 1;
  kind: DocumentKind;
  /** « Facture », « Avoir », « Reçu de don », « Récapitulatif annuel des dons ». */
  title: string;
  /** « F-000042 » */
  label: string;
  /** ISO instant of issue. */
  issuedAt: string;
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  /** Invoices and credit notes: the lines. Receipts: one line, VAT 0. Statements: empty. */
  lines: DocumentLine[];
  totals: DocumentTotals;
  /** How and when it was paid (invoices, receipts), or refunded (credit notes). */
  payment: { at: string; method: string; reference: string } | null;
  /** A credit note's invoice. */
  refersTo: { label: string; issuedAt: string } | null;
  /** Business buyer only (L441-9). */
  businessTerms: { dueDate: string; latePaymentTerms: string } | null;
  /** Statements: the calendar year and its donations. */
  statement: { year: number; donations: StatementLine[] } | null;
  /** Printed under the totals, in this order: VAT basis, receipts' tax notice, withdrawal, etc. */
  notes: string[];
}
