/**
 * The gifts domain's queries on its one table (`gifts`, `tables.ts`); each takes the database (or
 * a transaction) first. Only gifts/ imports it (`.dependency-cruiser.cjs`, rule
 * `no-foreign-repository`); other domains use what `public.ts` exports. The lifecycle's
 * conditional updates (the code issued, claimed, delivered) stay with their rules in `service.ts`.
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { findGiftOffer } from '../../config/catalog';
import { type Database, newId, toTimestamp } from '../db/database';
import type { GiftsTable } from './tables';

export type GiftRow = Selectable<GiftsTable>;

/** A gift's details, checked (`service.ts` `checkGiftDetails`). */
export interface GiftDetails {
  recipientName: string;
  recipientEmail: string | null;
  message: string;
  /** YYYY-MM-DD in Paris. */
  deliverOn: string;
  deliverAt: Date;
}

export async function findGift(db: Kysely<Database>, giftId: string): Promise<GiftRow | undefined> {
  return db.selectFrom('gifts').selectAll().where('id', '=', giftId).executeTakeFirst();
}

/** The gift of an order (one at most: `order_id` is unique). */
export async function findGiftOfOrder(db: Kysely<Database>, orderId: string): Promise<GiftRow | undefined> {
  return db.selectFrom('gifts').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}

/** The gift whose code has this keyed hash (`codes.ts` `hashGiftCode`). */
export async function findGiftByHash(db: Kysely<Database>, codeHash: string): Promise<GiftRow | undefined> {
  return db.selectFrom('gifts').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** A buyer's gifts, the newest first. */
export async function listBuyerGifts(db: Kysely<Database>, userId: string): Promise<GiftRow[]> {
  return db.selectFrom('gifts').selectAll().where('buyer_id', '=', userId).orderBy('created_at', 'desc').execute();
}

/** The buyer's own gift; undefined for any other id (or one that is not a UUID). */
export async function findBuyerGift(db: Kysely<Database>, userId: string, giftId: string): Promise<GiftRow | undefined> {
  if (!z.uuid().safeParse(giftId).success) return undefined;
  return db.selectFrom('gifts').selectAll().where('id', '=', giftId).where('buyer_id', '=', userId).executeTakeFirst();
}

/** The gift of an order being placed, in the order's transaction. */
export async function insertGift(
  trx: Kysely<Database>,
  input: { orderId: string; buyerId: string; offerId: string; details: GiftDetails },
  now: Date,
): Promise<void> {
  const offer = findGiftOffer(input.offerId);
  if (!offer) throw new Error(`Unknown gift offer ${input.offerId}`);
  const at = toTimestamp(now);
  await trx
    .insertInto('gifts')
    .values({
      id: newId(),
      order_id: input.orderId,
      buyer_id: input.buyerId,
      offer_id: offer.id,
      months: offer.months,
      recipient_name: input.details.recipientName,
      recipient_email: input.details.recipientEmail,
      message: input.details.message,
      deliver_on: input.details.deliverOn,
      deliver_at: toTimestamp(input.details.deliverAt),
      code_hash: null,
      code_sealed: null,
      code_hint: null,
      issued_at: null,
      expires_at: null,
      delivered_at: null,
      last_sent_at: null,
      activated_at: null,
      activated_by: null,
      subscription_id: null,
      activation_mode: null,
      revoked_at: null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .execute();
}

/** How the gift of an order reaches its recipient: by mail on a day, or handed over by the buyer. */
export async function giftDeliveryOfOrder(
  db: Kysely<Database>,
  orderId: string,
): Promise<{ byHand: boolean; deliverOn: string; recipientName: string; recipientEmail: string | null } | undefined> {
  const row = await db.selectFrom('gifts').select(['recipient_name', 'recipient_email', 'deliver_on']).where('order_id', '=', orderId).executeTakeFirst();
  return row
    ? { byHand: row.recipient_email === null, deliverOn: row.deliver_on, recipientName: row.recipient_name, recipientEmail: row.recipient_email }
    : undefined;
}

/** What a withdrawal needs to know of a gift order's code: activated (when), or stopped already. */
export async function giftStateOfOrder(
  db: Kysely<Database>,
  orderId: string,
): Promise<{ activatedAt: Date | null; revoked: boolean; months: number; recipientName: string } | undefined> {
  const gift = await db
    .selectFrom('gifts')
    .select(['activated_at', 'revoked_at', 'months', 'recipient_name'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return (
    gift && {
      activatedAt: gift.activated_at ? new Date(gift.activated_at) : null,
      revoked: gift.revoked_at !== null,
      months: Number(gift.months),
      recipientName: gift.recipient_name,
    }
  );
}

/**
 * Before a gift's order is refunded, its code stops working, in one conditional update: an
 * activation and a refund asked at the same moment cannot both win. `activated` (with its day)
 * when the recipient was first: the withdrawal is over (CGV art. 8), nothing is held.
 */
export async function holdGiftForRefund(
  db: Kysely<Database>,
  orderId: string,
  now: Date,
): Promise<{ state: 'held' | 'none' } | { state: 'activated'; at: Date }> {
  const held = await db
    .updateTable('gifts')
    .set({ revoked_at: toTimestamp(now), updated_at: toTimestamp(now) })
    .where('order_id', '=', orderId)
    .where('activated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (held.numUpdatedRows > 0n) return { state: 'held' };
  const gift = await db.selectFrom('gifts').select(['activated_at']).where('order_id', '=', orderId).executeTakeFirst();
  return gift?.activated_at ? { state: 'activated', at: new Date(gift.activated_at) } : { state: 'none' };
}

/** A hold taken for a refund the provider then refused: the code works again. */
export async function releaseGiftHold(db: Kysely<Database>, orderId: string, heldAt: Date, now: Date): Promise<void> {
  await db
    .updateTable('gifts')
    .set({ revoked_at: null, updated_at: toTimestamp(now) })
    .where('order_id', '=', orderId)
    .where('revoked_at', '=', toTimestamp(heldAt))
    .where('activated_at', 'is', null)
    .execute();
}

// Personal data (RGPD)

export async function exportUserGifts(db: Kysely<Database>, userId: string) {
  const bought = await db.selectFrom('gifts').selectAll().where('buyer_id', '=', userId).execute();
  const received = await db.selectFrom('gifts').select(['months', 'activated_at']).where('activated_by', '=', userId).execute();
  return {
    offerts: bought.map((g) => ({
      duree_mois: g.months,
      destinataire: g.recipient_name,
      email_destinataire: g.recipient_email,
      message: g.message,
      envoi: g.deliver_on,
      active_le: g.activated_at,
    })),
    recus: received.map((g) => ({ duree_mois: g.months, active_le: g.activated_at })),
  };
}

/** On account deletion: the gift stays with its order (an accounting record), detached from the account. */
export async function detachUserGifts(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('gifts')
    .set({ buyer_id: null, updated_at: toTimestamp(now) })
    .where('buyer_id', '=', userId)
    .execute();
  await db
    .updateTable('gifts')
    .set({ activated_by: null, updated_at: toTimestamp(now) })
    .where('activated_by', '=', userId)
    .execute();
}
