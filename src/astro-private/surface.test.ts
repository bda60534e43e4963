/**
 * The tripwire of Astro's private surface: reads the installed files, so that an upgrade (or a
 * hand edit in node_modules) fails here first, naming each reach to re-check. `npm test` runs
 * this file before anything else (`test:tripwires`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASTRO_PRIVATE_SURFACE, PINNED } from './surface';

const ROOT = join(import.meta.dirname, '../..');
const installed = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

describe('Astro’s private surface (docs/upgrading-astro.md)', () => {
  it('the pinned versions are the ones installed and the ones package.json asks for', () => {
    for (const [name, version] of Object.entries(PINNED)) {
      expect(manifest.dependencies[name], `package.json pins ${name} exactly`).toBe(version);
      expect(installed(name), `${name} installed`).toBe(version);
    }
  });

  it.each(ASTRO_PRIVATE_SURFACE.map((reach) => [reach.file, reach] as const))('%s is the file its reach was checked against', (_, reach) => {
    const path = join(ROOT, reach.file);
    expect(existsSync(path), `${reach.file} is gone: re-check ${reach.by} (${reach.kind}: ${reach.buys})`).toBe(true);
    const text = readFileSync(path, 'utf8');
    for (const anchor of reach.anchors) expect(text.includes(anchor), `${reach.file} no longer contains « ${anchor} »: ${reach.by} cannot apply`).toBe(true);
    const sha256 = createHash('sha256').update(text).digest('hex');
    expect(sha256, `${reach.file} changed: re-check ${reach.by} (${reach.kind}: ${reach.buys}), then record the new SHA-256`).toBe(reach.sha256);
  });

  it('every reach is named, and every private Astro file a module imports is listed', () => {
    const importer = readFileSync(join(ROOT, 'src/astro-private/fast-publication.ts'), 'utf8');
    const imported = [...importer.matchAll(/astroDist\('([^']+)'\)/g)].map((m) => `node_modules/astro/dist/${m[1]}`);
    expect(imported.length).toBeGreaterThan(0);
    const listed = new Set(ASTRO_PRIVATE_SURFACE.map((reach) => reach.file));
    expect(imported.filter((file) => !listed.has(file))).toEqual([]);
    for (const reach of ASTRO_PRIVATE_SURFACE) {
      const module = /^src\/astro-private\/[\w-]+\.ts/.exec(reach.by)?.[0];
      expect(module, `${reach.file}: its reach is a file of src/astro-private/`).toBeDefined();
      expect(existsSync(join(ROOT, module!)), module).toBe(true);
    }
  });

  it('no code outside src/astro-private names a file of Astro’s or its integrations’ dist folders', () => {
    const named = /(?:astro|@astrojs[\\/][a-z-]+)(?:\/|\[\\\\\/\])dist\b/;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(path);
        } else if (/\.(?:ts|tsx|mjs|cjs|js|astro)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          if (named.test(readFileSync(path, 'utf8'))) offenders.push(relative(ROOT, path));
        }
      }
    };
    for (const dir of ['src', 'scripts', 'deploy']) walk(join(ROOT, dir));
    if (named.test(readFileSync(join(ROOT, 'astro.config.mjs'), 'utf8'))) offenders.push('astro.config.mjs');
    expect(offenders.filter((file) => !file.startsWith('src/astro-private/'))).toEqual([]);
  });
});
