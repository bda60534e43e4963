/**
 * SEPA mandates and payment-method changes on subscriptions:
 * - `mandate_ref`, the référence unique de mandat (RUM) of the subscription's SEPA mandate while
 *   it is paid by SEPA debit (null for a card), unique;
 * - `payment_method_ref`, the provider's reference of the last method change applied (a setup
 *   session, a payment method): the reader's return and the provider's notification of one change
 *   apply it, and tell the owner, once.
 * Subscriptions already paid by SEPA get a mandate reference of the new-mandate shape.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

// The shape of subscriptions/sepa.ts `newMandateReference` at the time of this migration, kept here.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function newMandateReference(): string {
  const text = [...randomBytes(10)].map((b) => ALPHABET[b & 31]).join('');
  return `CTC-M-${text.slice(0, 5)}-${text.slice(5)}`;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('mandate_ref', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('payment_method_ref', 'text').execute();
  const sepa: { id: string }[] = await db
    .selectFrom('subscriptions')
    .select('id')
    .where(sql<boolean>`payment_method like ${'Prélèvement SEPA%'}`)
    .execute();
  const given = new Set<string>();
  for (const { id } of sepa) {
    let reference = newMandateReference();
    while (given.has(reference)) reference = newMandateReference();
    given.add(reference);
    await db.updateTable('subscriptions').set({ mandate_ref: reference }).where('id', '=', id).execute();
  }
  await db.schema.createIndex('subscriptions_mandate_ref').on('subscriptions').column('mandate_ref').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_mandate_ref').execute();
  await db.schema.alterTable('subscriptions').dropColumn('payment_method_ref').execute();
  await db.schema.alterTable('subscriptions').dropColumn('mandate_ref').execute();
}
