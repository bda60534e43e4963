/**
 * What a production build was made from: the sources (paths, sizes, modification times) and
 * the settings baked into it. `npm start` rebuilds when the fingerprint of the working tree no
 * longer matches the one written beside the build, so edits, deletions and a new SITE_URL,
 * CONTENT_DIR, content source or PUBLIC_* setting all lead to a fresh build.
 *
 * Content read from the newsroom's content API (CONTENT_SOURCE=api) is not part of it: the
 * fingerprint cannot see the CMS, so publishing goes through the rebuild webhook (docs/content-api.md).
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

const INPUTS = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];

export function buildFingerprint(root, env = process.env) {
  const hash = createHash('sha256');
  hash.update(`SITE_URL=${env.SITE_URL ?? ''}\nCONTENT_DIR=${env.CONTENT_DIR ?? ''}\n`);
  // Switching to or from the content API, or to another one, changes what a build holds.
  if (env.CONTENT_SOURCE || env.CONTENT_API_URL) hash.update(`CONTENT_SOURCE=${env.CONTENT_SOURCE ?? ''}\nCONTENT_API_URL=${env.CONTENT_API_URL ?? ''}\n`);
  // Public settings are baked into the client code (audience measurement).
  for (const key of Object.keys(env).filter((name) => name.startsWith('PUBLIC_')).sort()) hash.update(`${key}=${env[key]}\n`);
  const walk = (path) => {
    let info;
    try { info = statSync(path); } catch { return; }
    if (info.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== 'node_modules' && !name.startsWith('.')) walk(join(path, name));
    } else hash.update(`${relative(root, path)}\t${info.size}\t${Math.round(info.mtimeMs)}\n`);
  };
  for (const input of INPUTS) walk(join(root, input));
  // A corpus outside the project counts too.
  if (env.CONTENT_DIR) {
    const dir = isAbsolute(env.CONTENT_DIR) ? env.CONTENT_DIR : resolve(root, env.CONTENT_DIR);
    if (relative(root, dir).startsWith('..')) walk(dir);
  }
  return hash.digest('hex');
}

export const FINGERPRINT_FILE = '.build-fingerprint';
