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
import { readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The host's own code (this folder) is not part of a build: it runs the builds, it is not bundled
 * into them (as when it lived in scripts/), so editing it neither rebuilds nor changes the pages.
 * Its protocol is the exception: the server's side of it is bundled (src/server, src/integrations).
 */
const HOST_DIR = join('src', 'host');
const BUNDLED_HOST_FILES = new Set(['protocol.ts']);
/** Whether a path is host code that no build holds. */
const hostOnly = (root: string, path: string) => {
  const inHost = relative(join(root, HOST_DIR), path);
  return inHost !== '' && !inHost.startsWith('..') && !isAbsolute(inHost) && !BUNDLED_HOST_FILES.has(inHost);
};

const INPUTS = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];

export function buildFingerprint(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256');
  hash.update(`SITE_URL=${env.SITE_URL ?? ''}\nCONTENT_DIR=${env.CONTENT_DIR ?? ''}\n`);
  // Switching to or from the content API, or to another one, changes what a build holds.
  if (env.CONTENT_SOURCE || env.CONTENT_API_URL) hash.update(`CONTENT_SOURCE=${env.CONTENT_SOURCE ?? ''}\nCONTENT_API_URL=${env.CONTENT_API_URL ?? ''}\n`);
  // Public settings are baked into the client code (audience measurement).
  for (const key of Object.keys(env)
    .filter((name) => name.startsWith('PUBLIC_'))
    .sort())
    hash.update(`${key}=${env[key]}\n`);
  const walk = (path: string) => {
    if (hostOnly(root, path)) return;
    let info: Stats;
    try {
      info = statSync(path);
    } catch {
      return;
    }
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

/** What the client code is made from: the sources and settings, the content left out. */
const CODE_INPUTS = ['src', 'public', 'astro.config.mjs', 'package-lock.json', 'tsconfig.json'];

/**
 * A hash of what the bundled code is made from (file contents, not times), content excluded.
 * Pages carry it as their build id: two builds of the same code serve the same scripts, so a
 * reader moving between them needs no full reload, and a build that only publishes content
 * leaves every page it did not change byte for byte identical (which lets incremental builds
 * skip them). The demo corpus (src/content) is content, whatever CONTENT_DIR says; unit tests
 * are not bundled.
 */
export function codeVersion(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256');
  hash.update(`SITE_URL=${env.SITE_URL ?? ''}\n`);
  for (const key of Object.keys(env)
    .filter((name) => name.startsWith('PUBLIC_'))
    .sort())
    hash.update(`${key}=${env[key]}\n`);
  const content = join(root, 'src', 'content');
  const walk = (path: string) => {
    if (path === content || hostOnly(root, path)) return;
    let info: Stats;
    try {
      info = statSync(path);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      for (const name of readdirSync(path).sort()) if (name !== 'node_modules' && !name.startsWith('.')) walk(join(path, name));
    } else if (!/\.(test|spec)\.[cm]?[jt]sx?$/.test(path)) hash.update(`${relative(root, path)}\t${info.size}\t`).update(readFileSync(path));
  };
  for (const input of CODE_INPUTS) walk(join(root, input));
  return hash.digest('hex').slice(0, 16);
}
