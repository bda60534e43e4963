/**
 * `npm run backup [-- <folder>]`: a backup of the SQLite database (online: safe while the site
 * runs), the mail outbox and the data folder's key files, in a new timestamped folder under
 * <folder>, else BACKUP_DIR, else `backups/`. Prints the folder's path on the last line.
 * PostgreSQL: use pg_dump (docs/deploy.md). See src/server/db/backup.ts.
 */
import { resolve } from 'node:path';
import { config } from '../src/server/core/config';
import { backupPaths, createBackup } from '../src/server/db/backup';

async function main(): Promise<void> {
  const backupsDir = resolve(process.argv[2] ?? process.env.BACKUP_DIR ?? 'backups');
  const { dir, manifest } = await createBackup(backupPaths(config()), backupsDir);
  const mb = (manifest.database.bytes / 1e6).toFixed(1);
  console.log(
    `Sauvegarde faite : base ${mb} Mo, clés ${manifest.keys.length ? manifest.keys.join(', ') : 'aucune (APP_SECRET ?)'}, ` +
      `${manifest.outbox ? `${manifest.outbox.files} courriels de la boîte d’envoi` : 'pas de boîte d’envoi'}.`,
  );
  console.log(dir);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
