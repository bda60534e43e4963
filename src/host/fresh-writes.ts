/**
 * Loaded into the Astro build process (`node --import`) by src/host/build.ts: every write
 * into the folders named by CONTRECHAMP_FRESH_WRITES (the staging folder and Astro's cache) goes
 * to a new file. The staging folder starts with hard links to the pages Astro cached, and the
 * live build shares those files: writing one in place would change the page readers are being
 * served. So a file with other links is unlinked first, and the write creates a new one.
 *
 * Covered: fs.writeFile, fs.copyFile (callback, promise and sync forms) and fs.createWriteStream,
 * which is how Astro writes and restores pages and its cache copies. Writers outside Node's fs
 * (Rolldown, Pagefind) write only files that are never linked (bundles, the search index).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRESH_WRITES_ENV } from './protocol.ts';

const roots = (JSON.parse(process.env[FRESH_WRITES_ENV] ?? '[]') as string[]).map((root) => resolve(root) + sep);

/** Node's fs functions as this file rewraps them: whatever they take, passed on as is. */
type Patchable = Record<string, (this: unknown, ...args: unknown[]) => unknown>;

/** Breaks the link of a file about to be written, when it has other names. */
function fresh(target: unknown) {
  let path: string;
  if (typeof target === 'string') path = target;
  else if (target instanceof URL) path = fileURLToPath(target);
  else return;
  const absolute = resolve(path);
  if (!roots.some((root) => absolute.startsWith(root))) return;
  try {
    if (fs.statSync(absolute).nlink > 1) fs.unlinkSync(absolute);
  } catch {
    // Absent: the write creates it.
  }
}

if (roots.length > 0) {
  const promises = fs.promises as unknown as Patchable;
  const writeFile = promises['writeFile']!;
  promises['writeFile'] = function (file, ...rest) {
    fresh(file);
    return writeFile.call(this, file, ...rest);
  };
  const copyFile = promises['copyFile']!;
  promises['copyFile'] = function (source, destination, ...rest) {
    fresh(destination);
    return copyFile.call(this, source, destination, ...rest);
  };
  for (const [name, target] of [
    ['writeFile', 0],
    ['writeFileSync', 0],
    ['copyFile', 1],
    ['copyFileSync', 1],
    ['createWriteStream', 0],
  ] as const) {
    const api = fs as unknown as Patchable;
    const original = api[name]!;
    api[name] = function (...args) {
      fresh(args[target]);
      return original.apply(this, args);
    };
  }
  // Modules that import these functions by name (`import { writeFile } from 'node:fs/promises'`)
  // get the wrapped ones too.
  syncBuiltinESMExports();
}
