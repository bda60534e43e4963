/**
 * The withdrawals' record (`contract_withdrawals`): rows ↔ `ContractWithdrawal`. Taking the
 * database first, so that the service writes one inside its transaction.
 */
import type { Kysely } from 'kysely';
import { type Database, newId, toTimestamp } from '../db/database';
import type { ContractKind, WithdrawalChannel } from './tables';
import type { ContractRef } from './links';

export interface ContractWithdrawal {
  id: string;
  contractKey: string;
  kind: ContractKind;
  orderId: string | null;
  bulletinId: string | null;
  userId: string | null;
  channel: WithdrawalChannel;
  refundCents: number;
  refundKey: string;
  withdrawnAt: Date;
}

export const contractKey = (ref: ContractRef): string => ('orderId' in ref ? `order:${ref.orderId}` : `bulletin:${ref.bulletinId}`);

type Row = Awaited<ReturnType<typeof selectAll>>[number];
const selectAll = (db: Kysely<Database>) => db.selectFrom('contract_withdrawals').selectAll().execute();

function toWithdrawal(r: Row): ContractWithdrawal {
  return {
    id: r.id,
    contractKey: r.contract_key,
    kind: r.contract_kind,
    orderId: r.order_id,
    bulletinId: r.bulletin_id,
    userId: r.user_id,
    channel: r.channel,
    refundCents: Number(r.refund_cents),
    refundKey: r.refund_key,
    withdrawnAt: new Date(r.withdrawn_at),
  };
}

export async function withdrawalOf(db: Kysely<Database>, ref: ContractRef): Promise<ContractWithdrawal | undefined> {
  const row = await db.selectFrom('contract_withdrawals').selectAll().where('contract_key', '=', contractKey(ref)).executeTakeFirst();
  return row ? toWithdrawal(row) : undefined;
}

export async function findWithdrawal(db: Kysely<Database>, id: string): Promise<ContractWithdrawal | undefined> {
  const row = await db.selectFrom('contract_withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toWithdrawal(row) : undefined;
}

/** The user's withdrawals, newest first. */
export async function userWithdrawals(db: Kysely<Database>, userId: string): Promise<ContractWithdrawal[]> {
  const rows = await db.selectFrom('contract_withdrawals').selectAll().where('user_id', '=', userId).orderBy('withdrawn_at', 'desc').execute();
  return rows.map(toWithdrawal);
}

/** The latest withdrawals, newest first, for the back-office. */
export async function latestWithdrawals(db: Kysely<Database>, limit: number): Promise<ContractWithdrawal[]> {
  const rows = await db.selectFrom('contract_withdrawals').selectAll().orderBy('withdrawn_at', 'desc').orderBy('id').limit(limit).execute();
  return rows.map(toWithdrawal);
}

/**
 * Records a withdrawal, unless one exists for the contract: the unique `contract_key` decides
 * between two requests at once. `created: false` with the row already there.
 */
export async function insertWithdrawal(
  db: Kysely<Database>,
  w: { ref: ContractRef; kind: ContractKind; userId: string | null; channel: WithdrawalChannel; refundCents: number; refundKey: string },
  now: Date,
): Promise<{ withdrawal: ContractWithdrawal; created: boolean }> {
  const id = newId();
  await db
    .insertInto('contract_withdrawals')
    .values({
      id,
      contract_key: contractKey(w.ref),
      contract_kind: w.kind,
      order_id: 'orderId' in w.ref ? w.ref.orderId : null,
      bulletin_id: 'bulletinId' in w.ref ? w.ref.bulletinId : null,
      user_id: w.userId,
      channel: w.channel,
      refund_cents: w.refundCents,
      refund_key: w.refundKey,
      withdrawn_at: toTimestamp(now),
      created_at: toTimestamp(now),
    })
    .onConflict((oc) => oc.column('contract_key').doNothing())
    .execute();
  const withdrawal = (await withdrawalOf(db, w.ref))!;
  return { withdrawal, created: withdrawal.id === id };
}
