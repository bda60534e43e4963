/**
 * What each domain holds about a person, registered here so that the export of a user's data
 * and the deletion of an account cover every domain without the account domain knowing their
 * tables. A new domain that keeps personal data (payments, invoices, shares) adds its part to
 * `ACCOUNT_PARTS` and nothing else.
 *
 * `erase` runs inside the deletion's transaction, before the user row goes. A domain that must
 * keep records by law (invoices: ten years) detaches or pseudonymises them there instead of
 * deleting, and says so in its export.
 */
import type { Kysely } from 'kysely';
import type { User } from '../auth/public';
import { exportUser } from '../auth/service';
import { eraseMessages, exportMessages } from '../contact/service';
import type { Database } from '../db/database';
import { endSubscription, exportSubscription } from '../newsletter/service';
import { detachUserOrders, exportUserOrders } from '../orders/service';
import { eraseUserSubscriptions, exportUserSubscriptions } from '../subscriptions/service';
import { detachUserGifts, exportUserGifts } from '../gifts/public';
import { exportUserDocuments } from '../billing/service';
import { detachUserWithdrawals, exportUserWithdrawals } from '../contract-withdrawals/service';
import { detachUserShares, exportUserShares } from '../shares/service';
import { eraseUserFeed, exportUserFeed } from '../podcasts/personal-feeds';

export interface AccountPart {
  /** Key of this part in the exported JSON. */
  name: string;
  export(db: Kysely<Database>, user: User): Promise<unknown>;
  erase(db: Kysely<Database>, user: User, now: Date): Promise<void>;
}

export const ACCOUNT_PARTS: readonly AccountPart[] = [
  {
    name: 'account',
    export: (db, user) => exportUser(db, user.id),
    // The user row itself goes last, in deleteAccount; sessions and tokens go with it.
    erase: async () => {},
  },
  {
    name: 'newsletter',
    export: (db, user) => exportSubscription(db, user.email),
    erase: (db, user, now) => endSubscription(db, { email: user.email, now }),
  },
  {
    name: 'contact_messages',
    export: (db, user) => exportMessages(db, user.email),
    erase: (db, user) => eraseMessages(db, user.email),
  },
  {
    // Subscriptions and monthly donations: what runs ends at once, then all are detached.
    name: 'subscriptions',
    export: (db, user) => exportUserSubscriptions(db, user.id),
    erase: (db, user, now) => eraseUserSubscriptions(db, user.id, now),
  },
  {
    // Accounting records, kept ten years: detached (pseudonymised), never deleted. The export says so.
    name: 'orders',
    export: (db, user) => exportUserOrders(db, user.id),
    erase: (db, user, now) => detachUserOrders(db, user.id, now),
  },
  {
    // Gifts bought (with the recipient's name, address and message) and received: detached with their order.
    name: 'gifts',
    export: (db, user) => exportUserGifts(db, user.id),
    erase: (db, user, now) => detachUserGifts(db, user.id, now),
  },
  {
    // Invoices, credit notes and receipts: legal records, append-only, kept ten years. The export lists them.
    name: 'documents',
    export: (db, user) => exportUserDocuments(db, user.id),
    erase: async () => {},
  },
  {
    // Withdrawals (« Se rétracter du contrat ici »): the proof of each, kept; the account's link goes.
    name: 'contract_withdrawals',
    export: (db, user) => exportUserWithdrawals(db, user.id),
    erase: (db, user) => detachUserWithdrawals(db, user.id),
  },
  {
    // The register and the bulletins: documents of the cooperative, kept; the account's link goes.
    // (An account that holds shares, or has a subscription or withdrawal under way, is not deleted: account/service.ts.)
    name: 'shares',
    export: (db, user) => exportUserShares(db, user.id),
    erase: (db, user, now) => detachUserShares(db, user.id, now),
  },
  {
    // The personal podcast feed (never its address), and the networks that fetched it these last days.
    name: 'podcast_feed',
    export: (db, user) => exportUserFeed(db, user.id),
    erase: (db, user) => eraseUserFeed(db, user.id),
  },
];
