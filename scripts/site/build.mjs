#!/usr/bin/env node
/**
 * Builds one version of the site into its own directory: `<out>/client` (static files),
 * `<out>/server` (the on-demand part) and the build fingerprint. The publishing queue runs it for
 * every build (src/server/editorial/), `npm start` for its first one. The live build, if given as
 * --previous, is never written to: readers are being served from it.
 *
 *   node scripts/site/build.mjs --out <dir> --id <build id> [--previous <live build dir>]
 *
 * Exit code 0 only when the build is complete; its output is the build's log.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { out: { type: 'string' }, id: { type: 'string' }, previous: { type: 'string' } } });
if (!values.out || !values.id) {
  console.error('usage: node scripts/site/build.mjs --out <dir> --id <build id> [--previous <dir>]');
  process.exit(2);
}
const out = resolve(values.out);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const astro = join(root, 'node_modules/astro/bin/astro.mjs');
const child = spawn(process.execPath, [astro, 'build'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    ASTRO_OUT_DIR: out,
    BUILD_ID: values.id,
    ASTRO_TELEMETRY_DISABLED: '1',
  },
});
// The queue stops a build by signalling this process: pass it on.
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
