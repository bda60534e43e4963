/**
 * Where the builds are and which one is live. It imports only Node's modules, so that both sides
 * can import it: the host (src/host/front.ts, run by Node as is), the only writer of the live
 * pointer, and the app processes (src/server/editorial/), which read it.
 *
 *   <BUILDS_DIR>/<id>/client, /server   one build each (BUILDS_DIR defaults to $DATA_DIR/builds)
 *   <BUILDS_DIR>/live.json              { id, since }: the live build; "dist" is the project's dist/
 *   <BUILDS_DIR>/current                symbolic link to the live build's client/ (nginx's root)
 *   <BUILDS_DIR>/node_modules           link to the project's, so that a build's server resolves its packages
 *
 * The pointer and the link are replaced by a rename, never rewritten in place: a process killed at
 * any moment leaves the previous value or the new one.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The build `npm start` makes in the project's dist/ (the first one, before anything is published). */
export const DIST_BUILD_ID = 'dist';

/** A build id: a sortable date, then random letters (`2026-11-23T10-15-02Z-k3f9`). */
export const BUILD_ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[a-z0-9]{4}$/;

export function buildsDirFrom(env: Record<string, string | undefined> = process.env): string {
  return resolve(env['BUILDS_DIR'] || join(env['DATA_DIR'] || 'data', 'builds'));
}

/**
 * A new build id for a date.
 */
export function newBuildId(now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replaceAll(':', '-');
  const letters = Array.from({ length: 4 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('');
  return `${stamp}Z-${letters}`;
}

/**
 * The folder of a build: dist/ for the first one, `<buildsDir>/<id>` for published ones. An id
 * that is neither is refused (it comes from a form, a file or a database row).
 */
export function buildDir({ root, buildsDir }: { root: string; buildsDir: string }, id: string): string {
  if (id === DIST_BUILD_ID) return join(root, 'dist');
  if (!BUILD_ID_PATTERN.test(id)) throw new Error(`identifiant de construction invalide : ${id}`);
  return join(buildsDir, id);
}

/**
 * Whether a folder holds a complete build: its static files and its server.
 */
export function isCompleteBuild(dir: string): boolean {
  return existsSync(join(dir, 'server', 'entry.mjs')) && existsSync(join(dir, 'client'));
}

/**
 * The live build, as `live.json` records it. `server`: the build whose server code the app processes run, when it is not `id` itself (a
 * publication that changed content only keeps the app processes, see front.ts); kept on disk
 * while live, since those processes load modules from its folder.
 */
export type LivePointer = { id: string; since: string; server?: string };

/**
 * The live pointer, or undefined when none was written (or it cannot be read).
 */
export function readLive(buildsDir: string): LivePointer | undefined {
  try {
    const value = JSON.parse(readFileSync(join(buildsDir, 'live.json'), 'utf8'));
    if (typeof value?.id === 'string' && typeof value?.since === 'string') {
      return { id: value.id, since: value.since, ...(typeof value.server === 'string' && value.server !== value.id ? { server: value.server } : {}) };
    }
  } catch {
    // No pointer yet, or a foreign file: as if none.
  }
  return undefined;
}

/**
 * Writes a file durably and atomically: a temporary file, flushed, renamed over the target, and
 * the folder flushed so that the rename itself survives a power cut.
 */
export function writeFileAtomic(path: string, content: string) {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o644);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDir(resolve(path, '..'));
}

function syncDir(dir: string) {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse to sync a folder; the rename is still atomic.
  }
}

/**
 * Makes a build live on disk: the pointer, then nginx's link to its static files.
 * @param server the build whose server code runs, when not this one
 */
export function writeLive(places: { root: string; buildsDir: string }, id: string, now: Date, server?: string) {
  mkdirSync(places.buildsDir, { recursive: true });
  writeFileAtomic(join(places.buildsDir, 'live.json'), `${JSON.stringify({ id, since: now.toISOString(), ...(server && server !== id ? { server } : {}) })}\n`);
  const link = join(places.buildsDir, 'current');
  const temporary = `${link}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  symlinkSync(join(buildDir(places, id), 'client'), temporary);
  renameSync(temporary, link);
  syncDir(places.buildsDir);
}

/**
 * Prepares the builds folder: created, with a link to the project's packages so that a build's
 * server bundle finds them wherever BUILDS_DIR is.
 */
export function prepareBuildsDir({ root, buildsDir }: { root: string; buildsDir: string }) {
  mkdirSync(buildsDir, { recursive: true });
  const link = join(buildsDir, 'node_modules');
  if (!existsSync(link)) {
    try {
      symlinkSync(join(root, 'node_modules'), link, 'dir');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
