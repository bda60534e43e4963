/**
 * Every order gets the short reference a person reads (`orders/references.ts`) instead of its
 * UUID: the orders already made get one here, and a unique index keeps them apart.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

// The format of orders/references.ts at the time of this migration, kept here: a migration never changes.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function newOrderReference(): string {
  const text = [...randomBytes(10)].map((b) => ALPHABET[b & 31]).join('');
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('reference', 'text').execute();
  const rows: { id: string }[] = await db.selectFrom('orders').select('id').execute();
  const given = new Set<string>();
  for (const { id } of rows) {
    let reference = newOrderReference();
    while (given.has(reference)) reference = newOrderReference();
    given.add(reference);
    await db.updateTable('orders').set({ reference }).where('id', '=', id).execute();
  }
  await db.schema.createIndex('orders_reference').on('orders').column('reference').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_reference').execute();
  await db.schema.alterTable('orders').dropColumn('reference').execute();
}
