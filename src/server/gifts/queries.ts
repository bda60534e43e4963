/**
 * What the back-office reads of gifts (admin/billing.ts, through `public.ts`): the gifts sold,
 * with their buyer, their order's amount and invoice, and where each stands; the count in each
 * state. Read-only; gifts change only through `service.ts`.
 *
 * A gift's code is never read here: neither its keyed hash nor its sealed copy are selected,
 * only `code_hint` (the last group), which tells two gifts apart and opens nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';

/** Where a gift stands, as the back-office filters them. */
export type GiftState = 'pending' | 'issued' | 'delivered' | 'activated' | 'expired' | 'revoked';
export const GIFT_STATES: readonly GiftState[] = ['pending', 'issued', 'delivered', 'activated', 'expired', 'revoked'];

export interface GiftListRow {
  id: string;
  orderId: string;
  offerId: string;
  months: number;
  createdAt: Date;
  issuedAt: Date | null;
  expiresAt: Date | null;
  deliverOn: string;
  deliveredAt: Date | null;
  sentCount: number;
  activatedAt: Date | null;
  activationMode: string | null;
  revokedAt: Date | null;
  codeHint: string | null;
  recipientName: string;
  recipientEmail: string | null;
  buyerName: string;
  buyerEmail: string | null;
  activatedByEmail: string | null;
  amountCents: number | null;
  invoice: { id: string; label: string } | null;
}

/**
 * The state of a gift, in this order: not paid yet; revoked (refunded before activation);
 * activated; expired unused; delivered (the recipient's mail went, or it was handed over on
 * paper); paid and waiting for its day.
 */
export function giftState(g: Pick<GiftListRow, 'issuedAt' | 'revokedAt' | 'activatedAt' | 'expiresAt' | 'deliveredAt'>, now: Date): GiftState {
  if (!g.issuedAt) return 'pending';
  if (g.revokedAt) return 'revoked';
  if (g.activatedAt) return 'activated';
  if (g.expiresAt && g.expiresAt <= now) return 'expired';
  if (g.deliveredAt) return 'delivered';
  return 'issued';
}

function giftsOfState(db: Kysely<Database>, state: GiftState | undefined, now: string) {
  const query = db.selectFrom('gifts as g');
  if (!state) return query;
  if (state === 'pending') return query.where('g.issued_at', 'is', null);
  const issued = query.where('g.issued_at', 'is not', null);
  if (state === 'revoked') return issued.where('g.revoked_at', 'is not', null);
  const standing = issued.where('g.revoked_at', 'is', null);
  if (state === 'activated') return standing.where('g.activated_at', 'is not', null);
  const unused = standing.where('g.activated_at', 'is', null);
  if (state === 'expired') return unused.where('g.expires_at', '<=', now);
  const live = unused.where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', now)]));
  return state === 'delivered' ? live.where('g.delivered_at', 'is not', null) : live.where('g.delivered_at', 'is', null);
}

/** Gifts sold (of one state), newest first. */
export async function listGifts(db: Kysely<Database>, state: GiftState | undefined, now: Date, limit: number): Promise<GiftListRow[]> {
  const rows = await giftsOfState(db, state, now.toISOString())
    .leftJoin('users as buyer', 'buyer.id', 'g.buyer_id')
    .leftJoin('users as recipient', 'recipient.id', 'g.activated_by')
    .leftJoin('orders as o', 'o.id', 'g.order_id')
    .leftJoin('billing_documents as invoice', (join) => join.onRef('invoice.order_id', '=', 'g.order_id').on('invoice.kind', '=', 'invoice'))
    .select([
      'g.id',
      'g.order_id',
      'g.offer_id',
      'g.months',
      'g.created_at',
      'g.issued_at',
      'g.expires_at',
      'g.deliver_on',
      'g.delivered_at',
      'g.sent_count',
      'g.activated_at',
      'g.activation_mode',
      'g.revoked_at',
      'g.code_hint',
      'g.recipient_name',
      'g.recipient_email',
      'buyer.email as buyer_email',
      'buyer.given_name as buyer_given_name',
      'buyer.family_name as buyer_family_name',
      'o.billing_name',
      'o.amount_cents',
      'recipient.email as activated_by_email',
      'invoice.id as invoice_id',
      'invoice.label as invoice_label',
    ])
    .orderBy('g.created_at', 'desc')
    .orderBy('g.id')
    .limit(limit)
    .execute();
  const date = (v: string | null) => (v ? new Date(v) : null);
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    offerId: r.offer_id,
    months: Number(r.months),
    createdAt: new Date(r.created_at),
    issuedAt: date(r.issued_at),
    expiresAt: date(r.expires_at),
    deliverOn: r.deliver_on,
    deliveredAt: date(r.delivered_at),
    sentCount: Number(r.sent_count),
    activatedAt: date(r.activated_at),
    activationMode: r.activation_mode,
    revokedAt: date(r.revoked_at),
    codeHint: r.code_hint,
    recipientName: r.recipient_name,
    recipientEmail: r.recipient_email,
    // The name given at payment (the invoice's), else the account's.
    buyerName: r.billing_name || [r.buyer_given_name, r.buyer_family_name].filter(Boolean).join(' '),
    buyerEmail: r.buyer_email,
    activatedByEmail: r.activated_by_email,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    invoice: r.invoice_id && r.invoice_label ? { id: r.invoice_id, label: r.invoice_label } : null,
  }));
}

/** How many gifts are in each state. */
export async function giftStateCounts(db: Kysely<Database>, now: Date): Promise<Record<GiftState, number>> {
  const counts = Object.fromEntries(GIFT_STATES.map((s) => [s, 0])) as Record<GiftState, number>;
  for (const state of GIFT_STATES) {
    const row = await giftsOfState(db, state, now.toISOString())
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    counts[state] = Number(row?.n ?? 0);
  }
  return counts;
}
