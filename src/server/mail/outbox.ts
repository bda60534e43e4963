/**
 * The outbox folder's own rules, shared by the transport that writes it (transport.ts), the
 * server start that tidies it (src/server/runtime.ts) and the backups that copy it
 * (src/server/db/backup.ts).
 *
 * A message is written under a temporary name (`<stem>.eml.<random>.tmp`), flushed, then renamed
 * to `<stem>.eml`. A `.tmp` file is therefore either a message being written right now, or what
 * a process killed midway (`kill -9`, a power cut) left behind: never a message. Nothing reads,
 * copies or restores one; the server removes those older than an hour when it starts.
 *
 * The folder changes while it is read: messages arrive (a rename), and a resubmitted message
 * replaces its file. A copy taken meanwhile skips what disappears under it instead of failing.
 */
import { copyFileSync, mkdirSync, readdirSync, type Dirent } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from '../core/log';

/** Whether a file of the outbox is a message still being written, or the leftover of one. */
export function isOutboxTemporary(name: string): boolean {
  return name.endsWith('.tmp');
}

/** How old a temporary file must be to count as abandoned: no message takes an hour to write. */
export const STALE_TEMPORARY_MS = 60 * 60_000;

const vanished = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Removes the temporary files that have not changed for `maxAgeMs` (by their modification time)
 * and answers how many. A missing outbox has none; a file removed meanwhile is skipped. A file
 * being written is recent, so a sweep never races the transport.
 */
export async function sweepStaleTemporaries(dir: string, now: Date, maxAgeMs = STALE_TEMPORARY_MS): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (vanished(error)) return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !isOutboxTemporary(entry.name)) continue;
    const file = join(dir, entry.name);
    try {
      const { mtimeMs } = await stat(file);
      if (now.getTime() - mtimeMs < maxAgeMs) continue;
      await unlink(file);
      removed++;
    } catch (error) {
      if (!vanished(error)) throw error;
    }
  }
  if (removed > 0) log.info('mail.outbox_swept', { removed });
  return removed;
}

/**
 * Copies the outbox folder `dir` (and any folder inside it) into `target`, while the site may be
 * writing messages: temporary files are left out, and a file or folder that disappears between
 * the listing and its copy (renamed into place, or removed) is skipped. Files keep their mode
 * (0600: they hold live login links). Answers the number of messages copied.
 */
export function copyOutbox(dir: string, target: string): number {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (vanished(error)) return 0;
    throw error;
  }
  mkdirSync(target, { recursive: true, mode: 0o700 });
  let copied = 0;
  for (const entry of entries) {
    const from = join(dir, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) {
      copied += copyOutbox(from, to);
    } else if (entry.isFile() && !isOutboxTemporary(entry.name)) {
      try {
        copyFileSync(from, to);
        copied++;
      } catch (error) {
        if (!vanished(error)) throw error;
      }
    }
  }
  return copied;
}
