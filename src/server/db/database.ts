/**
 * The database: the union of every domain's tables, each declared beside its domain
 * (`<domain>/tables.ts`, with its snake_case columns). A domain's repository maps its rows to
 * camelCase domain types; nothing else should. The table types are re-exported here for the
 * modules that compose several domains (the back-office, the demo, the tests).
 *
 * One code path for SQLite and PostgreSQL, hence three storage rules:
 * - timestamps are ISO-8601 UTC strings from `Date#toISOString()` (`2026-11-21T10:00:00.000Z`).
 *   That form has a fixed width, so comparing the text (`expires_at > :now`) compares the times;
 *   write them with `toTimestamp()` only, never with a hand-made string;
 * - booleans are integers 0/1 (`toFlag()` / `fromFlag()`);
 * - ids are text UUIDs (`newId()`), except where a hash of a secret is the key.
 *
 * Profile text fields that a person may not have given yet are stored as '' rather than null,
 * so that they read as strings everywhere.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { NewsletterStatus, NewsletterSubscribersTable, NewsletterTables } from '../newsletter/tables';
import type { ShareRefundTables } from '../shares/refund-tables';
import type { ContractWithdrawalTables } from '../contract-withdrawals/tables';
import type { AuthTables, SessionsTable, TokensTable, UsersTable } from '../auth/tables';
import type { RateLimitTables, RateLimitsTable } from '../rate-limit/tables';
import type { ContactMessagesTable, ContactTables } from '../contact/tables';
import type { JobTables, JobsTable } from '../jobs/tables';
import type { PaymentTables } from '../payments/tables';
import type { OrderTables, OrdersTable } from '../orders/tables';
import type { SubscriptionTables, SubscriptionsTable } from '../subscriptions/tables';
import type { GiftTables } from '../gifts/tables';
import type { BillingTables } from '../billing/tables';
import type { ShareTables } from '../shares/tables';
import type { EditorialTables, SiteBuildsTable } from '../editorial/tables';
import type { PodcastTables } from '../podcasts/tables';

export type { NewsletterStatus, NewsletterSubscribersTable };
export type { SessionsTable, TokenPurpose, TokensTable, UserRole, UsersTable } from '../auth/tables';
export type { RateLimitsTable } from '../rate-limit/tables';
export type { ContactMessagesTable } from '../contact/tables';
export type { JobStatus, JobsTable } from '../jobs/tables';
export type {
  PaymentCustomersTable,
  PaymentMethodKind,
  ProviderEventsTable,
  ProviderName,
  SimulatedChargesTable,
  SimulatedCustomersTable,
  SimulatedSessionsTable,
} from '../payments/tables';
export type { BillingInterval, OrderEventsTable, OrderPurpose, OrderReason, OrderStatus, OrdersTable } from '../orders/tables';
export type { GiftActivationMode, GiftsTable } from '../gifts/tables';
export type { SubscriptionEventsTable, SubscriptionKind, SubscriptionStatus, SubscriptionsTable } from '../subscriptions/tables';
export type { BillingDocumentsTable, BillingPdfsTable, DocumentCountersTable, DocumentKind } from '../billing/tables';
export type {
  AssembliesTable,
  AssemblyAttendanceTable,
  AssemblyBallotsTable,
  AssemblyCall,
  AssemblyDocumentsTable,
  AssemblyMinutesTable,
  AssemblyParticipationTable,
  AssemblyProxiesTable,
  AssemblyResolutionsTable,
  AssemblyRollTable,
  AssemblyStatus,
  AttendanceMode,
  BallotChoice,
  ParticipationVia,
  RegisterEntryKind,
  ShareBulletinStatus,
  ShareBulletinsTable,
  ShareMembersTable,
  SharePaymentMethod,
  ShareRegisterTable,
  ShareWithdrawalStatus,
  ShareWithdrawalsTable,
} from '../shares/tables';
export type { BuildStatus, BuildTrigger, SiteBuildsTable, SiteSwitchesTable } from '../editorial/tables';

import type { Flag, Timestamp } from './column-types';

export type { Flag, Timestamp };

/** Every domain declares its tables beside it (`<domain>/tables.ts`); the database is their union. */
export interface Database
  extends
    AuthTables,
    RateLimitTables,
    ContactTables,
    JobTables,
    PaymentTables,
    OrderTables,
    SubscriptionTables,
    GiftTables,
    BillingTables,
    ShareTables,
    EditorialTables,
    NewsletterTables,
    ShareRefundTables,
    ContractWithdrawalTables,
    PodcastTables {}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type SessionRowUpdate = Updateable<SessionsTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewTokenRow = Insertable<TokensTable>;
export type TokenRowUpdate = Updateable<TokensTable>;
export type RateLimitRow = Selectable<RateLimitsTable>;
export type NewsletterSubscriberRow = Selectable<NewsletterSubscribersTable>;
export type NewNewsletterSubscriberRow = Insertable<NewsletterSubscribersTable>;
export type NewsletterSubscriberRowUpdate = Updateable<NewsletterSubscribersTable>;
export type ContactMessageRow = Selectable<ContactMessagesTable>;
export type NewContactMessageRow = Insertable<ContactMessagesTable>;
export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;
export type JobRowUpdate = Updateable<JobsTable>;
export type SiteBuildRow = Selectable<SiteBuildsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type NewSubscriptionRow = Insertable<SubscriptionsTable>;

/** A new row id. */
export const newId = (): string => crypto.randomUUID();

/** The one way to write a time: ISO-8601 in UTC with milliseconds, sortable as text. */
export const toTimestamp = (date: Date): Timestamp => date.toISOString();

export const toFlag = (value: boolean): Flag => (value ? 1 : 0);
export const fromFlag = (value: number): boolean => value === 1;
