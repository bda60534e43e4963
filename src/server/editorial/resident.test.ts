import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildFn, BuildRun } from './publisher';
import { builderSocket, residentBuild } from './resident';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project root whose builder entry point is `source` (or absent). */
function project(source?: string) {
  const root = mkdtempSync(join(tmpdir(), 'resident-'));
  dirs.push(root);
  if (source !== undefined) {
    mkdirSync(join(root, 'src', 'host'), { recursive: true });
    writeFileSync(join(root, 'src', 'host', 'builder.ts'), source);
  }
  return { root, buildsDir: join(root, 'builds') };
}

function run(): { run: BuildRun; output: () => string } {
  let text = '';
  return {
    run: { id: 'b1', dir: '/nowhere', previous: undefined, signal: new AbortController().signal, onOutput: (chunk) => (text += chunk) },
    output: () => text,
  };
}

const fullBuild = (): { fn: BuildFn; calls: string[] } => {
  const calls: string[] = [];
  return { calls, fn: async ({ id }) => (calls.push(id), 0) };
};

describe('a publication when the resident builder is unavailable', () => {
  it('runs a full build when the builder’s entry point is missing, and says why', async () => {
    const places = project();
    const full = fullBuild();
    const { run: r, output } = run();
    await expect(residentBuild(places, full.fn)(r)).resolves.toBe(0);
    expect(full.calls).toEqual(['b1']);
    expect(output()).toMatch(/constructeur résident indisponible \(le constructeur résident s’est arrêté au démarrage \(code 1/);
    expect(output()).toContain('construction complète dans un processus à part');
  });

  it('runs a full build when the builder fails to load', async () => {
    const places = project("throw new Error('publish-fast introuvable');\n");
    const full = fullBuild();
    const { run: r, output } = run();
    await expect(residentBuild(places, full.fn)(r)).resolves.toBe(0);
    expect(full.calls).toEqual(['b1']);
    expect(output()).toContain('construction complète dans un processus à part');
  });

  it('runs a full build when the builder dies during the build, after its own child build had time to stop', async () => {
    const places = project();
    mkdirSync(places.buildsDir, { recursive: true });
    // A builder that accepts the build, says a line, then dies without an exit code.
    const server = createServer((socket) => {
      socket.once('data', () => {
        socket.write(`${JSON.stringify({ output: 'rendu des pages…\n' })}\n`);
        setTimeout(() => socket.destroy(), 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(builderSocket(places.buildsDir), resolve));
    try {
      const full = fullBuild();
      const { run: r, output } = run();
      await expect(residentBuild(places, full.fn, 50)(r)).resolves.toBe(0);
      expect(full.calls).toEqual(['b1']);
      expect(output()).toMatch(/rendu des pages…\n[\s\S]*il s’est arrêté pendant la construction/);
    } finally {
      server.close();
    }
  });

  it('keeps the builder’s answer when it finishes the build', async () => {
    const places = project();
    mkdirSync(places.buildsDir, { recursive: true });
    const server = createServer((socket) => socket.once('data', () => socket.end(`${JSON.stringify({ code: 3 })}\n`)));
    await new Promise<void>((resolve) => server.listen(builderSocket(places.buildsDir), resolve));
    try {
      const full = fullBuild();
      await expect(residentBuild(places, full.fn, 50)(run().run)).resolves.toBe(3);
      expect(full.calls).toEqual([]);
    } finally {
      server.close();
    }
  });
});
