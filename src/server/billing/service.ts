/**
 * Billing: the documents of every payment, composed into the payment path, served to their
 * owner, and the background work around them.
 *
 * - `withDocuments` wraps a purpose's fulfilment: the invoice or receipt is issued in the same
 *   transaction that records the payment (and the credit note in the refund's), before the
 *   purpose's own effects, which get the document to link to in their mail.
 * - Their PDFs are rendered once, by a job scheduled in that transaction, and stored
 *   (`billing_pdfs`); a download that comes before the job renders and stores it itself. The
 *   stored bytes are what the owner downloads, every time.
 * - `billing.sweep`, at each start: a paid order without its document (paid before billing
 *   existed, or restored from a backup) gets it.
 * - `billing.yearly-statements`: in January, each donor of the past year gets their statement.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { parisYear } from '../../lib/dates';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import type { Database, DocumentKind } from '../db/database';
import { toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { handle, jobType, schedule } from '../jobs/schedule';
import { SEND_MAIL } from '../mail/jobs';
import { mailFor } from '../mail/layout';
import type { Fulfilment } from '../orders/service';
import { findOrder } from '../orders/public';
import type { DocumentContent } from './content';
import { issueCreditNote, issueForPayment, issuedFor, issueStatement, type IssuedDocument } from './documents';
import { refundMail, statementMail } from './mails';
import { findUser } from '../auth/service';
import { renderDocumentPdf } from './pdf/document';

export type BillingDeps = Pick<ServerDeps, 'db' | 'clock' | 'siteUrl' | 'jobs'>;

export const RENDER_PDF = jobType({ kind: 'billing.render-pdf', schema: z.object({ documentId: z.string() }), maxAttempts: 10 });
export const SWEEP = jobType({ kind: 'billing.sweep', schema: z.object({}), timeoutMs: 30 * 60_000 });
export const YEARLY_STATEMENTS = jobType({ kind: 'billing.yearly-statements', schema: z.object({ year: z.number().int().min(2000) }), timeoutMs: 60 * 60_000 });

async function scheduleRender(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, doc: IssuedDocument): Promise<void> {
  if (doc.created) await schedule(deps, trx, RENDER_PDF, { documentId: doc.id }, { uniqueKey: `billing.render-pdf:${doc.id}` });
}

/** A purpose's fulfilment, with its legal documents issued first in the same transaction. */
export function withDocuments(deps: BillingDeps, inner: Fulfilment): Fulfilment {
  return {
    ...inner,
    async paid(trx, order, context) {
      const document = await issueForPayment(trx, deps.siteUrl, order, context);
      if (document) await scheduleRender(deps, trx, document);
      await inner.paid(trx, order, document ? { ...context, document: { id: document.id, kind: document.kind, label: document.label } } : context);
    },
    async refunded(trx, order, context) {
      const note = await issueCreditNote(trx, deps.siteUrl, order, context.now);
      if (note) await scheduleRender(deps, trx, note);
      // A donation's receipt is not cancelled by a credit note: the refund mail says it no longer counts.
      const receipt = order.purpose === 'donation' ? await issuedFor(trx, `receipt:${order.id}`) : undefined;
      const owner = order.userId ? await findUser(trx, order.userId) : undefined;
      if (owner && (!note || note.created)) {
        const mail = refundMail({
          siteUrl: deps.siteUrl,
          description: order.description,
          amountCents: order.amountCents,
          refundedAt: context.now,
          creditNote: note ?? null,
          canceledReceipt: receipt ?? null,
        });
        await schedule(deps, trx, SEND_MAIL, mailFor(owner, mail), { uniqueKey: `billing.refund-mail:${order.id}` });
      }
      await inner.refunded?.(trx, order, context);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The owner's documents

export interface DocumentSummary {
  id: string;
  kind: DocumentKind;
  label: string;
  title: string;
  issuedAt: Date;
  year: number;
  totalCents: number;
  vatCents: number;
  /** The line as the buyer reads it: « Abonnement Mensuel », « Don ponctuel », « Dons de 2026 ». */
  description: string;
  /** A credit note's invoice label; an invoice's credit note label. */
  related: string | null;
  /** A donation receipt whose donation was refunded: it no longer counts (the yearly statement leaves it out). */
  canceled: boolean;
}

interface DocumentRow {
  id: string;
  kind: DocumentKind;
  label: string;
  issued_at: string;
  year: number;
  total_cents: number;
  vat_cents: number;
  content: string;
  refers_to_id: string | null;
  order_status: string | null;
}

function summarize(row: DocumentRow, labels: Map<string, string>, creditOf: Map<string, string>): DocumentSummary {
  const content = JSON.parse(row.content) as DocumentContent;
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    title: content.title,
    issuedAt: new Date(row.issued_at),
    year: row.year,
    totalCents: row.total_cents,
    vatCents: row.vat_cents,
    description: content.lines[0]?.description ?? content.title,
    related: row.refers_to_id ? (labels.get(row.refers_to_id) ?? null) : (creditOf.get(row.id) ?? null),
    canceled: row.kind === 'receipt' && row.order_status === 'refunded',
  };
}

/** The account's documents, newest first, of one year when given; and the years it has documents in. */
export async function listUserDocuments(db: Kysely<Database>, userId: string, year?: number): Promise<{ documents: DocumentSummary[]; years: number[] }> {
  const rows = await db
    .selectFrom('billing_documents as d')
    .leftJoin('orders as o', 'o.id', 'd.order_id')
    .select(['d.id', 'd.kind', 'd.label', 'd.issued_at', 'd.year', 'd.total_cents', 'd.vat_cents', 'd.content', 'd.refers_to_id', 'o.status as order_status'])
    .where('d.owner_id', '=', userId)
    .orderBy('d.issued_at', 'desc')
    .orderBy('d.number', 'desc')
    .execute();
  const labels = new Map(rows.map((r) => [r.id, r.label]));
  const creditOf = new Map(rows.filter((r) => r.refers_to_id).map((r) => [r.refers_to_id!, r.label]));
  const years = [...new Set(rows.map((r) => r.year))].sort((a, b) => b - a);
  const documents = rows.filter((r) => year === undefined || r.year === year).map((r) => summarize(r, labels, creditOf));
  return { documents, years };
}

/** One document of the account; undefined for an unknown id or another account's document. */
export async function findUserDocument(
  db: Kysely<Database>,
  userId: string,
  documentId: string,
): Promise<{ id: string; label: string; kind: DocumentKind; content: DocumentContent } | undefined> {
  if (!z.uuid().safeParse(documentId).success) return undefined;
  const row = await db
    .selectFrom('billing_documents')
    .select(['id', 'label', 'kind', 'content'])
    .where('id', '=', documentId)
    .where('owner_id', '=', userId)
    .executeTakeFirst();
  return row ? { id: row.id, label: row.label, kind: row.kind, content: JSON.parse(row.content) as DocumentContent } : undefined;
}

/**
 * The stored PDF of a document, rendered and stored first if its job has not run yet. Two
 * renders racing store one (the first insert wins; both answer the stored bytes).
 */
export async function storedPdf(db: Kysely<Database>, documentId: string, now: Date): Promise<Uint8Array | undefined> {
  const stored = await db.selectFrom('billing_pdfs').select('bytes').where('document_id', '=', documentId).executeTakeFirst();
  if (stored) return new Uint8Array(stored.bytes);
  const doc = await db.selectFrom('billing_documents').select(['content']).where('id', '=', documentId).executeTakeFirst();
  if (!doc) return undefined;
  const bytes = await renderDocumentPdf(JSON.parse(doc.content) as DocumentContent);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db
    .insertInto('billing_pdfs')
    .values({ document_id: documentId, bytes, sha256, created_at: toTimestamp(now) })
    .onConflict((oc) => oc.column('document_id').doNothing())
    .execute();
  const row = await db.selectFrom('billing_pdfs').select('bytes').where('document_id', '=', documentId).executeTakeFirstOrThrow();
  return new Uint8Array(row.bytes);
}

/** The PDF of the account's own document, with its file name; undefined for any other id. */
export async function userDocumentPdf(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  userId: string,
  documentId: string,
): Promise<{ bytes: Uint8Array; filename: string } | undefined> {
  const doc = await findUserDocument(deps.db, userId, documentId);
  if (!doc) return undefined;
  const bytes = await storedPdf(deps.db, doc.id, deps.clock.now());
  return bytes ? { bytes, filename: `contrechamp-${doc.label}.pdf` } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Background work

/**
 * Paid orders without their document, and refunded invoiced orders without their credit note,
 * get them now, in the order they were paid: one transaction each, so a crash halfway leaves the
 * rest for the next start. They are dated the day they are issued, so that numbers and issue
 * dates go up together (CGI ann. II art. 242 nonies A); the payment's date is printed apart.
 */
export async function sweepMissingDocuments(deps: BillingDeps): Promise<number> {
  let issued = 0;
  const missing = await deps.db
    .selectFrom('orders')
    .select('id')
    .where('status', 'in', ['paid', 'refunded'])
    .where('purpose', 'in', ['subscription', 'gift', 'donation'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('billing_documents')
            .select('billing_documents.id')
            .whereRef('billing_documents.order_id', '=', 'orders.id')
            .where('billing_documents.kind', 'in', ['invoice', 'receipt']),
        ),
      ),
    )
    .orderBy('paid_at')
    .orderBy('id')
    .execute();
  const refunds = await deps.db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'refunded')
    .where('purpose', 'in', ['subscription', 'gift'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('billing_documents')
            .select('billing_documents.id')
            .whereRef('billing_documents.order_id', '=', 'orders.id')
            .where('billing_documents.kind', '=', 'credit_note'),
        ),
      ),
    )
    .orderBy('updated_at')
    .orderBy('id')
    .execute();
  for (const { id } of [...missing, ...refunds]) {
    const done = await writeTransaction(deps.db, async (trx) => {
      const order = await findOrder(trx, id);
      if (!order) return false;
      const now = deps.clock.now();
      let any = false;
      // Issued today (numbers follow the issue dates); the document prints the payment's own date apart.
      const doc = await issueForPayment(trx, deps.siteUrl, order, { methodLabel: '', now });
      if (doc?.created) {
        any = true;
        await scheduleRender(deps, trx, doc);
      }
      if (order.status === 'refunded') {
        const note = await issueCreditNote(trx, deps.siteUrl, order, now);
        if (note?.created) {
          any = true;
          await scheduleRender(deps, trx, note);
        }
      }
      return any;
    });
    if (done) issued++;
  }
  if (issued > 0) {
    log.info('billing.swept', { orders: issued });
    deps.jobs.wake();
  }
  return issued;
}

/** When the statements of a year go out: 5 January of the next year, 9:00 in Paris. */
export const statementsDueAt = (year: number): Date => new Date(`${year + 1}-01-05T08:00:00Z`);

/**
 * Issues and mails the statement of every donor of `year` who has none yet, one transaction per
 * donor (a rerun after a crash continues where it stopped, and mails nobody twice), then
 * schedules next year's run.
 */
export async function sendYearlyStatements(deps: BillingDeps, year: number): Promise<{ issued: number }> {
  const from = new Date(`${year - 1}-12-31T00:00:00Z`).toISOString();
  const to = new Date(`${year + 1}-01-02T00:00:00Z`).toISOString();
  const donors = await deps.db
    .selectFrom('orders')
    .select('user_id')
    .distinct()
    .where('purpose', '=', 'donation')
    .where('status', '=', 'paid')
    .where('paid_at', '>=', from)
    .where('paid_at', '<', to)
    .where('user_id', 'is not', null)
    .execute();
  let issued = 0;
  for (const { user_id: userId } of donors) {
    if (!userId) continue;
    const created = await writeTransaction(deps.db, async (trx) => {
      const doc = await issueStatement(trx, deps.siteUrl, userId, year, deps.clock.now());
      if (!doc?.created) return false;
      await scheduleRender(deps, trx, doc);
      const user = await findUser(trx, userId);
      const row = await trx.selectFrom('billing_documents').select('total_cents').where('id', '=', doc.id).executeTakeFirstOrThrow();
      if (user)
        await schedule(
          deps,
          trx,
          SEND_MAIL,
          mailFor(user, statementMail({ siteUrl: deps.siteUrl, year, documentId: doc.id, label: doc.label, totalCents: row.total_cents })),
          { uniqueKey: `billing.statement-mail:${doc.id}` },
        );
      return true;
    });
    if (created) issued++;
  }
  await schedule(
    deps,
    deps.db,
    YEARLY_STATEMENTS,
    { year: year + 1 },
    { runAt: statementsDueAt(year + 1), uniqueKey: `billing.yearly-statements:${year + 1}` },
  );
  deps.jobs.wake();
  log.info('billing.statements', { year, donors: donors.length, issued });
  return { issued };
}

/**
 * At start: the sweep, and the statements of the current year (due next January) and, if this
 * January's run was missed, of the past one (due now; idempotent per donor).
 */
export async function scheduleBillingWork(deps: BillingDeps): Promise<void> {
  const now = deps.clock.now();
  const year = parisYear(now);
  await schedule(deps, deps.db, SWEEP, {});
  await schedule(deps, deps.db, YEARLY_STATEMENTS, { year }, { runAt: statementsDueAt(year), uniqueKey: `billing.yearly-statements:${year}` });
  const pastDue = statementsDueAt(year - 1);
  if (now >= pastDue) {
    const done = await deps.db
      .selectFrom('billing_documents')
      .select('id')
      .where('kind', '=', 'statement')
      .where('year', '=', year - 1)
      .executeTakeFirst();
    if (!done) await schedule(deps, deps.db, YEARLY_STATEMENTS, { year: year - 1 }, { runAt: pastDue, uniqueKey: `billing.yearly-statements:${year - 1}` });
  }
  deps.jobs.wake();
}

export const billingJobs = (deps: BillingDeps) => [
  handle(RENDER_PDF, async ({ payload }) => {
    await storedPdf(deps.db, payload.documentId, deps.clock.now());
  }),
  handle(SWEEP, async () => {
    await sweepMissingDocuments(deps);
  }),
  handle(YEARLY_STATEMENTS, async ({ payload }) => {
    await sendYearlyStatements(deps, payload.year);
  }),
];

// ---------------------------------------------------------------------------------------------
// Personal data (RGPD): documents are kept ten years whatever happens to the account

export const DOCUMENTS_RETENTION_NOTE =
  'Les factures, avoirs et reçus sont des pièces comptables : nous les conservons dix ans (Code de commerce, art. L123-22), même après la suppression du compte, sans pouvoir les modifier ni les effacer.';

export async function exportUserDocuments(db: Kysely<Database>, userId: string) {
  const { documents } = await listUserDocuments(db, userId);
  return {
    conservation: DOCUMENTS_RETENTION_NOTE,
    documents: documents.map((d) => ({
      numero: d.label,
      type: d.title,
      date: d.issuedAt.toISOString(),
      montant_centimes: d.totalCents,
      tva_centimes: d.vatCents,
      objet: d.description,
    })),
  };
}
