/**
 * What a write to a folder's files would change, file by file: the live build must not change
 * while the next one is made (src/host/build-places.test.ts, tests/e2e/publishing.spec.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each file of `dir` (by its path inside it) with its inode, size and time, and its bytes when asked. */
export function fileStates(dir: string, { bytes = false } = {}): Map<string, string> {
  const states = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const info = statSync(path);
    states.set(relative(dir, path), `${info.ino} ${info.size} ${info.mtimeMs}${bytes ? ` ${readFileSync(path, 'base64')}` : ''}`);
  }
  return states;
}
