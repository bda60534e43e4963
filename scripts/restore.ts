/**
 * `npm run restore -- <backup folder>`: puts a backup made by `npm run backup` back in place of
 * the configured deployment's database, key files and outbox. Stop the server first: the restore
 * refuses, changing nothing, while the database is open. What it replaces is moved to
 * DATA_DIR/pre-restore-<time>/, never deleted. The server migrates the database at its next start.
 */
import { resolve } from 'node:path';
import { config } from '../src/server/core/config';
import { backupPaths, restoreBackup } from '../src/server/db/backup';

function main(): void {
  const from = process.argv[2];
  if (!from) {
    console.error('Usage : npm run restore -- <dossier de sauvegarde>');
    process.exitCode = 2;
    return;
  }
  const { manifest, setAside } = restoreBackup(resolve(from), backupPaths(config()));
  console.log(`Sauvegarde du ${manifest.createdAt} restaurée.`);
  if (setAside) console.log(`Les fichiers remplacés sont dans ${setAside}.`);
  console.log('Démarrez le serveur : il mettra la base au schéma courant.');
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
