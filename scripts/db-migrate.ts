/**
 * `npm run db:migrate`: applies pending migrations to the configured database (SQLite file by
 * default, PostgreSQL when DATABASE_URL is set) and says what it did. The server also migrates
 * at start; this is for deployments that migrate before switching traffic.
 */
import { config } from '../src/server/core/config';
import { openDatabase } from '../src/server/db/client';
import { migrateToLatest } from '../src/server/db/migrate';

async function main(): Promise<void> {
  const databaseConfig = config().database;
  // A PostgreSQL URL may hold a password: only its host is shown.
  const target = databaseConfig.kind === 'sqlite' ? `SQLite (${databaseConfig.path})` : `PostgreSQL (${new URL(databaseConfig.url).host})`;
  const { db, close } = openDatabase(databaseConfig);
  try {
    const applied = await migrateToLatest(db);
    console.log(
      applied.length === 0
        ? `Base à jour : ${target}, aucune migration à appliquer.`
        : `Migrations appliquées sur ${target} :\n${applied.map((name) => `  - ${name}`).join('\n')}`,
    );
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
