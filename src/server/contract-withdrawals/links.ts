/**
 * The signed link of a withdrawal, mailed with the contract (the order's or the bulletin's
 * confirmation): `/retractation/lien/{token}`, where the token names one contract and carries a
 * MAC of that name under the `mailed-link` key — the project's way for links checked by
 * recomputation (as the newsletter's `u1.` tokens): nothing stored, still valid after a key
 * rotation (older versions verify), never valid for another contract.
 *
 * Token: `w1.<o|b>.<uuid>.<mac>` — o an order, b a share bulletin. It grants what the mail's
 * reader may do anyway: see that contract and withdraw from it within its period. This module
 * imports no domain, so that the mails of subscriptions and shares can carry the block.
 */
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { formatDate } from '../../lib/dates';
import { sign, verify } from '../core/keys';
import type { Block } from '../mail/layout';

export type ContractRef = { orderId: string } | { bulletinId: string };

/** Days of the withdrawal period (CGV art. 8, C. conso. L. 221-18). */
export const WITHDRAWAL_DAYS = 14;
const PARIS = 'Europe/Paris';

const message = (letter: 'o' | 'b', id: string) => `contract-withdrawal:${letter}:${id}`;
const letterOf = (ref: ContractRef): ['o' | 'b', string] => ('orderId' in ref ? ['o', ref.orderId] : ['b', ref.bulletinId]);

export function withdrawalToken(ref: ContractRef): string {
  const [letter, id] = letterOf(ref);
  return `w1.${letter}.${id}.${sign('mailed-link', message(letter, id))}`;
}

/** The contract a token names, if its MAC is right; null for anything forged or altered. */
export function contractOfToken(token: string): ContractRef | null {
  const match = /^w1\.([ob])\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, letter, id, mac] = match as unknown as [string, 'o' | 'b', string, string];
  if (!verify('mailed-link', message(letter, id), mac)) return null;
  return letter === 'o' ? { orderId: id } : { bulletinId: id };
}

/** The signed address of a contract's withdrawal, from the configured site URL. */
export function withdrawalLink(siteUrl: URL, ref: ContractRef): URL {
  return new URL(`/retractation/lien/${withdrawalToken(ref)}`, siteUrl);
}

/**
 * The period of an order's contract, concluded at its payment: 14 whole days after the day of
 * conclusion (Paris), to the end of the last one. Paid on 27 November → until 11 December, 23:59.
 */
export function orderPeriod(concludedAt: Date): { lastDay: Date; endsAt: Date } {
  const day = formatInTimeZone(concludedAt, PARIS, 'yyyy-MM-dd');
  const noon = new Date(`${day}T12:00:00Z`);
  noon.setUTCDate(noon.getUTCDate() + WITHDRAWAL_DAYS + 1);
  const endsAt = fromZonedTime(`${noon.toISOString().slice(0, 10)}T00:00:00`, PARIS);
  return { lastDay: new Date(endsAt.getTime() - 1), endsAt };
}

/** The period of a share bulletin: 14 × 24 hours after signing (the one rule, which shares/service.ts `canRenounce` reads too). */
export function bulletinPeriod(acceptedAt: Date): { lastDay: Date; endsAt: Date } {
  const endsAt = new Date(acceptedAt.getTime() + WITHDRAWAL_DAYS * 86_400_000);
  return { lastDay: endsAt, endsAt };
}

/** « jusqu’au 11 décembre 2026 » */
export const untilDay = (lastDay: Date): string => `jusqu’au ${formatDate(lastDay)}`;

/**
 * The block of a confirmation mail: the last day, and the action « Se rétracter du contrat ici »
 * (the signed link, usable without signing in).
 */
export function withdrawalBlocks(siteUrl: URL, ref: ContractRef, lastDay: Date): Block[] {
  const text: Block =
    'bulletinId' in ref
      ? {
          kind: 'paragraph',
          text: [
            'Droit de rétractation : vous pouvez renoncer à cette souscription, sans motif, ',
            { strong: untilDay(lastDay) },
            ' : elle vous est alors intégralement remboursée (CGV, article 10).',
          ],
        }
      : {
          kind: 'paragraph',
          text: [
            'Droit de rétractation : vous pouvez vous rétracter de ce contrat, sans motif, ',
            { strong: untilDay(lastDay) },
            ' inclus : nous vous remboursons alors intégralement, sur le moyen de paiement utilisé (CGV, article 8).',
          ],
        };
  return [text, { kind: 'action', label: 'Se rétracter du contrat ici', url: withdrawalLink(siteUrl, ref) }];
}
