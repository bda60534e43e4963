/**
 * Backups of a SQLite deployment (`npm run backup`, `npm run restore`): the database, the mail
 * outbox and the data folder's key files, in one folder per backup.
 *
 * Taking one is safe while the site runs: the database is copied through SQLite's online backup
 * API (better-sqlite3's `backup`), in one step over a read snapshot, so that it holds every
 * transaction committed before the copy began and nothing half-written; writers are not blocked
 * (WAL). The folder is written as `<name>.partial` and renamed when complete: a folder without
 * that suffix is a whole backup.
 *
 * Putting one back is not: `restoreBackup` refuses while any process holds the database open
 * (it asks SQLite for an exclusive lock, which an open connection prevents), so the server must
 * be stopped first. What it replaces is moved aside into `DATA_DIR/pre-restore-<time>/`, never
 * deleted. The server migrates the restored database to the current schema at its next start.
 *
 * PostgreSQL deployments use pg_dump / pg_restore instead (docs/deploy.md).
 *
 *   <backups>/contrechamp-2026-11-26T10-00-00Z/
 *     manifest.json     format, time, the database's size and SHA-256, what else is inside
 *     contrechamp.db    the database
 *     keys/             secret.key, rate-limit.key (those that exist; mode 0600)
 *     outbox/           the mail outbox, when mail goes to files (its messages only: the
 *                       temporary files of messages being written are left out)
 */
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { Config } from '../core/config';
import { LEGACY_SECRET_FILE, SECRET_FILE } from '../core/keys';
import { copyOutbox } from '../mail/outbox';

export const BACKUP_FORMAT = 1;
const DATABASE_FILE = 'contrechamp.db';
const KEY_FILES = [SECRET_FILE, LEGACY_SECRET_FILE] as const;
const PARTIAL = '.partial';

/** Where a SQLite deployment keeps what a backup holds. */
export interface BackupPaths {
  sqlitePath: string;
  dataDir: string;
  /** The outbox folder when mail goes to files; undefined with SMTP. */
  outboxDir: string | undefined;
}

export interface BackupManifest {
  format: number;
  createdAt: string;
  database: { file: string; bytes: number; sha256: string };
  keys: string[];
  outbox: { files: number } | null;
}

/** The paths of the configured deployment; PostgreSQL has its own tools. */
export function backupPaths(config: Config): BackupPaths {
  if (config.database.kind !== 'sqlite') {
    throw new Error('La base est PostgreSQL : sauvegardez-la avec pg_dump et restaurez-la avec pg_restore (docs/deploy.md, « Backups »).');
  }
  return {
    sqlitePath: config.database.path,
    dataDir: config.dataDir,
    outboxDir: config.mail.transport.kind === 'outbox' ? config.mail.transport.dir : undefined,
  };
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** `2026-11-26T10:00:00.123Z` → `2026-11-26T10-00-00Z`: sorts by time, valid on every file system. */
function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
}

/**
 * Takes a backup into a new folder under `backupsDir` and returns its path and manifest. The
 * database must exist (a deployment that never started has nothing to back up).
 */
export async function createBackup(paths: BackupPaths, backupsDir: string, now = new Date()): Promise<{ dir: string; manifest: BackupManifest }> {
  if (!existsSync(paths.sqlitePath)) throw new Error(`Aucune base à sauvegarder : ${paths.sqlitePath} n’existe pas.`);
  mkdirSync(backupsDir, { recursive: true, mode: 0o700 });
  let name = `contrechamp-${stamp(now)}`;
  for (let n = 2; existsSync(join(backupsDir, name)) || existsSync(join(backupsDir, name + PARTIAL)); n++) name = `contrechamp-${stamp(now)}-${n}`;
  const partial = join(backupsDir, name + PARTIAL);
  mkdirSync(partial, { mode: 0o700 });
  try {
    const target = join(partial, DATABASE_FILE);
    const source = new SqliteDatabase(paths.sqlitePath, { fileMustExist: true, timeout: 5000 });
    try {
      // The largest step there is: every page in one step, over one read snapshot. (Smaller steps
      // restart whenever another connection writes between two of them, which under a steady
      // write load could go on for ever.)
      await source.backup(target, { progress: () => 0x7fffffff });
    } finally {
      source.close();
    }
    chmodSync(target, 0o600);
    const check = new SqliteDatabase(target, { readonly: true, fileMustExist: true });
    try {
      const result = check.pragma('integrity_check', { simple: true });
      if (result !== 'ok') throw new Error(`La copie de la base est corrompue (integrity_check : ${String(result)}).`);
    } finally {
      check.close();
    }

    const keys: string[] = [];
    for (const file of KEY_FILES) {
      const from = join(paths.dataDir, file);
      if (!existsSync(from)) continue;
      mkdirSync(join(partial, 'keys'), { recursive: true, mode: 0o700 });
      cpSync(from, join(partial, 'keys', file));
      chmodSync(join(partial, 'keys', file), 0o600);
      keys.push(file);
    }

    let outbox: BackupManifest['outbox'] = null;
    if (paths.outboxDir && existsSync(paths.outboxDir)) {
      // The site may be writing mail meanwhile: a message renamed into place or removed while the
      // folder is copied is skipped, not an error; half-written ones (`.tmp`) are never copied.
      outbox = { files: copyOutbox(paths.outboxDir, join(partial, 'outbox')) };
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: now.toISOString(),
      database: { file: DATABASE_FILE, bytes: statSync(target).size, sha256: sha256(target) },
      keys,
      outbox,
    };
    writeFileSync(join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    const dir = join(backupsDir, name);
    renameSync(partial, dir);
    return { dir, manifest };
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Reads and checks a backup folder: its manifest, and the database against its checksum. */
export function readBackup(dir: string): BackupManifest {
  if (dir.endsWith(PARTIAL)) throw new Error(`${basename(dir)} est une sauvegarde interrompue, inutilisable.`);
  const manifestFile = join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${dir} n’est pas une sauvegarde (manifest.json manque).`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new Error(`Format de sauvegarde inconnu (${String(manifest.format)}).`);
  const database = join(dir, manifest.database.file);
  if (!existsSync(database) || sha256(database) !== manifest.database.sha256) {
    throw new Error('La base de la sauvegarde ne correspond pas à son manifeste (fichier absent ou modifié).');
  }
  return manifest;
}

/** The database is open in another connection or process (a running server). */
export class DatabaseInUseError extends Error {
  constructor(path: string) {
    super(`La base ${basename(path)} est ouverte par un autre processus (le serveur ?) : arrêtez-le avant de restaurer.`);
    this.name = 'DatabaseInUseError';
  }
}

/**
 * Takes the database for this process alone, or throws `DatabaseInUseError`; then folds its WAL
 * back into the file so that moving the file moves all of it. Nothing to do when it does not exist.
 */
function quiesce(path: string): void {
  if (!existsSync(path)) return;
  const probe = new SqliteDatabase(path, { fileMustExist: true, timeout: 0 });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    try {
      probe.exec('begin exclusive');
      probe.exec('commit');
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY' || (error as { code?: string }).code === 'SQLITE_LOCKED') throw new DatabaseInUseError(path);
      throw error;
    }
    probe.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    probe.close();
  }
}

/**
 * Puts a backup back in place of the deployment's database, key files and outbox (what it
 * replaces is moved to `DATA_DIR/pre-restore-<time>/`, returned as `setAside`). Refuses, changing
 * nothing, while the database is open elsewhere.
 */
export function restoreBackup(dir: string, paths: BackupPaths, now = new Date()): { manifest: BackupManifest; setAside: string | undefined } {
  const manifest = readBackup(dir);
  quiesce(paths.sqlitePath);

  const aside = join(paths.dataDir, `pre-restore-${stamp(now)}`);
  let setAside: string | undefined;
  const moveAside = (path: string, as: string) => {
    if (!existsSync(path)) return;
    mkdirSync(aside, { recursive: true, mode: 0o700 });
    renameSync(path, join(aside, as));
    setAside = aside;
  };
  for (const suffix of ['', '-wal', '-shm']) moveAside(paths.sqlitePath + suffix, basename(paths.sqlitePath) + suffix);
  for (const file of KEY_FILES) moveAside(join(paths.dataDir, file), file);
  if (paths.outboxDir) moveAside(paths.outboxDir, 'outbox');

  mkdirSync(dirname(paths.sqlitePath), { recursive: true });
  const incoming = `${paths.sqlitePath}.restoring`;
  cpSync(join(dir, manifest.database.file), incoming);
  chmodSync(incoming, 0o600);
  renameSync(incoming, paths.sqlitePath);
  for (const file of manifest.keys) {
    mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
    cpSync(join(dir, 'keys', file), join(paths.dataDir, file));
    chmodSync(join(paths.dataDir, file), 0o600);
  }
  // Older backups may hold temporary files: they are left out here too.
  if (paths.outboxDir && manifest.outbox) copyOutbox(join(dir, 'outbox'), paths.outboxDir);
  return { manifest, setAside };
}
