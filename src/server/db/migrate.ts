/**
 * Schema migrations, applied at start (`getDatabase`) and by `npm run db:migrate`.
 *
 * The list is static, imported rather than read from a folder, so that it survives bundling into
 * the built server. Names are dated (`YYYY-MM-DD-NNN-topic`) and run in that order; a migration,
 * once shipped, is never edited: the next change is a new file, added to `migrations` below.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as members001 from './migrations/2026-11-21-001-members';
import * as jobs001 from './migrations/2026-11-23-001-jobs';
import * as staffRoles002 from './migrations/2026-11-23-002-staff-roles';
import * as revenue003 from './migrations/2026-11-23-003-revenue';
import * as billing001 from './migrations/2026-11-24-001-billing-gifts';
import * as shares001 from './migrations/2026-11-25-001-shares';
import * as assemblies002 from './migrations/2026-11-25-002-assemblies';
import * as publishing001 from './migrations/2026-11-26-001-publishing';
import * as memberPages001 from './migrations/2026-11-27-001-member-pages';
import * as newsletters001 from './migrations/2026-11-28-001-newsletters';
import * as secondCall001 from './migrations/2026-11-29-001-second-call';
import * as transferReceived002 from './migrations/2026-11-29-002-transfer-received';
import * as bulletinNumbers001 from './migrations/2026-11-30-001-bulletin-numbers';
import * as refundTransfers002 from './migrations/2026-11-30-002-refund-transfers';
import * as sepaMandates003 from './migrations/2026-11-30-003-sepa-mandates';
import * as orderReferences007 from './migrations/2026-11-30-007-order-references';
import * as contractWithdrawals003 from './migrations/2026-12-01-003-contract-withdrawals';
import * as podcastFeeds201 from './migrations/2026-12-02-201-podcast-feeds';

export const migrations: Readonly<Record<string, Migration>> = {
  '2026-11-21-001-members': members001,
  '2026-11-23-001-jobs': jobs001,
  '2026-11-23-002-staff-roles': staffRoles002,
  '2026-11-23-003-revenue': revenue003,
  '2026-11-24-001-billing-gifts': billing001,
  '2026-11-25-001-shares': shares001,
  '2026-11-25-002-assemblies': assemblies002,
  '2026-11-26-001-publishing': publishing001,
  '2026-11-27-001-member-pages': memberPages001,
  '2026-11-28-001-newsletters': newsletters001,
  '2026-11-29-001-second-call': secondCall001,
  '2026-11-29-002-transfer-received': transferReceived002,
  '2026-11-30-001-bulletin-numbers': bulletinNumbers001,
  '2026-11-30-002-refund-transfers': refundTransfers002,
  '2026-11-30-003-sepa-mandates': sepaMandates003,
  '2026-11-30-007-order-references': orderReferences007,
  '2026-12-01-003-contract-withdrawals': contractWithdrawals003,
  '2026-12-02-201-podcast-feeds': podcastFeeds201,
};

/** A migrator over the app's migrations (tests also use it to migrate down). */
export function createMigrator(db: Kysely<any>, list: Readonly<Record<string, Migration>> = migrations): Migrator {
  const provider: MigrationProvider = { getMigrations: async () => ({ ...list }) };
  return new Migrator({ db, provider });
}

/**
 * Applies every pending migration, each in its own transaction (so a failing one leaves no
 * trace, on SQLite as on PostgreSQL), and returns the names applied: empty when the schema was
 * already up to date. Throws if one fails; the ones before it stay applied.
 * `list` is for tests; the application always runs `migrations`.
 */
export async function migrateToLatest(db: Kysely<any>, list: Readonly<Record<string, Migration>> = migrations): Promise<string[]> {
  const { error, results = [] } = await createMigrator(db, list).migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Échec de la migration de la base${failed ? ` (${failed})` : ''} : ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
