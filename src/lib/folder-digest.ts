/**
 * A digest of a folder's files, shared by the resident builder (src/host/builder.ts: what changed
 * since its last build) and the newsroom's publisher (src/server/editorial/publisher.ts: which
 * content a build holds). It imports nothing but Node, so that the host runs it as is.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A digest of a content folder (paths and contents, hidden files aside), so that editors see which
 * content a build holds and the resident builder sees what changed. `skip`: top-level entries left out.
 * @returns null when there is no folder
 */
export function contentDigest(dir: string, skip: string[] = []): string | null {
  if (!existsSync(dir)) return null;
  const hash = createHash('sha256');
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      if (name.startsWith('.') || (path === dir && skip.includes(name))) continue;
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else
        hash
          .update(`${relative(dir, full)}\0`)
          .update(readFileSync(full))
          .update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}
