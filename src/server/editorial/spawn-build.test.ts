/**
 * The full build's process (src/host/build.ts), killed from outside: the publication runs it once
 * more before telling the editors it failed; a build stopped by the queue is not run again.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnBuild } from './publisher';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project whose build entry kills itself the first `kills` times it runs, then succeeds. */
function project(kills: number) {
  const root = mkdtempSync(join(tmpdir(), 'spawn-build-'));
  dirs.push(root);
  mkdirSync(join(root, 'src', 'host'), { recursive: true });
  writeFileSync(
    join(root, 'src', 'host', 'build.ts'),
    `import { readdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
const runs = readdirSync(${JSON.stringify(root)}).filter((f) => f.startsWith('run-')).length;
// Its own child, as the build's Astro process: it must not outlive a killed build.
const astro = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
writeFileSync(${JSON.stringify(root)} + '/run-' + runs, String(astro.pid));
console.log('run ' + runs);
if (runs < ${kills}) process.kill(process.pid, 'SIGKILL');
astro.kill();
setTimeout(() => process.exit(0), ${kills > 0 ? 0 : 5000});
`,
  );
  return { root, buildsDir: join(root, 'builds') };
}

function run(signal = new AbortController().signal) {
  let text = '';
  return { run: { id: 'b1', dir: '/nowhere', previous: undefined, signal, onOutput: (chunk: string) => (text += chunk) }, output: () => text };
}

describe('a full build whose process is killed', () => {
  it('runs once more, and goes on when that one completes', async () => {
    const places = project(1);
    const { run: r, output } = run();
    await expect(spawnBuild(places)(r)).resolves.toBe(0);
    expect(output()).toContain('run 0');
    expect(output()).toContain('le processus de construction a été arrêté de l’extérieur : nouvelle tentative');
    expect(output()).toContain('run 1');
    // The killed build's own child went with it (gone, or a zombie nobody has reaped yet).
    const orphan = Number(readFileSync(join(places.root, 'run-0'), 'utf8'));
    const running = () => {
      try {
        return readFileSync(`/proc/${orphan}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
      } catch {
        return false;
      }
    };
    await expect.poll(running, { timeout: 3000 }).toBe(false);
  });

  it('fails when it is killed again', async () => {
    const places = project(2);
    const { run: r, output } = run();
    await expect(spawnBuild(places)(r)).resolves.toBe(1);
    expect(output().match(/nouvelle tentative/g)).toHaveLength(1);
    expect(existsSync(join(places.root, 'run-2'))).toBe(false);
  });

  it('is not run again when the queue stopped it', async () => {
    const places = project(0);
    const controller = new AbortController();
    const { run: r, output } = run(controller.signal);
    const building = spawnBuild(places)(r);
    setTimeout(() => controller.abort(), 500);
    await expect(building).resolves.toBe(1);
    expect(output()).not.toContain('nouvelle tentative');
    expect(existsSync(join(places.root, 'run-1'))).toBe(false);
  });
});
