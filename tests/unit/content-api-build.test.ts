/**
 * Real production builds reading the content API: the fixture server serves the demo corpus on
 * a free loopback port, `astro build` reads it (CONTENT_SOURCE=api) into a throwaway output
 * folder. A story from the API is published with its cover served by the site; a changed
 * title and a removed story show after a second build, which reuses the pages answered 304;
 * an invalid entry fails the build with a French message naming it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer } from '../../scripts/content-api/fixture-server.mjs';

const root = resolve(import.meta.dirname, '../..');
const STORY = {
  id: 'articles/meubles-de-tourisme-marseille-les-societes-ecrans',
  page: 'articles/2026/meubles-de-tourisme-marseille-les-societes-ecrans/index.html',
};
const GONE = {
  id: 'articles/amiante-dans-les-ecoles-les-diagnostics-que-personne-ne-lit',
  page: 'articles/2026/amiante-dans-les-ecoles-les-diagnostics-que-personne-ne-lit/index.html',
};

let api: Awaited<ReturnType<typeof startFixtureServer>>;
// The output must live inside the project, so that its server chunks find node_modules.
const outDir = join(root, 'tmp', `content-api-build-${process.pid}`);
let cacheDir: string;

beforeAll(async () => {
  api = await startFixtureServer({ contentDir: join(root, 'src/content') });
  cacheDir = mkdtempSync(join(tmpdir(), 'content-api-build-cache-'));
});
afterAll(async () => {
  await api?.close();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

function build(): Promise<{ code: number | null; log: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: root,
      env: {
        ...process.env,
        CONTENT_SOURCE: 'api',
        CONTENT_API_URL: api.url,
        CONTENT_API_PAGE_SIZE: '20',
        CONTENT_API_RETRY_DELAY_MS: '50',
        ASTRO_OUT_DIR: outDir,
        ASTRO_CACHE_DIR: cacheDir,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (chunk) => (log += chunk));
    child.stderr.on('data', (chunk) => (log += chunk));
    child.on('close', (code) => done({ code, log }));
  });
}

/** A built page's text, with French typography's no-break spaces as plain ones. */
const page = (path: string) => readFileSync(join(outDir, 'client', path), 'utf8').replace(/[\u00a0\u202f]/g, ' ');

describe('building the site from the content API', () => {
  it('publishes the API’s stories, then a changed title and a removal after a second build', async () => {
    const first = await build();
    expect(first.code, first.log.slice(-3000)).toBe(0);
    const html = page(STORY.page);
    expect(html).toContain('<title>Meublés de tourisme : à Marseille, les sociétés-écrans qui contournent les règles | Contrechamp</title>');
    // The cover is served by the site (the CSP allows no other origin), never by the CMS.
    const images = [...html.matchAll(/<img[^>]* src="([^"]+)"/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThan(0);
    expect(images.every((src) => src.startsWith('/'))).toBe(true);
    expect(html).not.toContain(api.origin);
    const cover = images.find((src) => src.includes('ville-nuit'));
    expect(cover && existsSync(join(outDir, 'client', cover))).toBe(true);
    expect(existsSync(join(outDir, 'client', GONE.page))).toBe(true);

    const key = (r: { path: string; query: Record<string, string> }) => `${r.path}?${new URLSearchParams(r.query)}`;
    const asked = new Set(api.requests.map(key));
    api.update('stories', STORY.id, { title: 'Meublés de tourisme : Marseille porte plainte contre les sociétés-écrans' });
    api.remove('stories', GONE.id);
    api.requests.length = 0;
    const second = await build();
    expect(second.code, second.log.slice(-3000)).toBe(0);
    expect(page(STORY.page)).toContain('<title>Meublés de tourisme : Marseille porte plainte contre les sociétés-écrans | Contrechamp</title>');
    expect(page('index.html')).toContain('Marseille porte plainte contre les sociétés-écrans');
    expect(readFileSync(join(outDir, 'client', 'rss.xml'), 'utf8').replace(/[\u00a0\u202f]/g, ' ')).toContain('Marseille porte plainte');
    expect(existsSync(join(outDir, 'client', GONE.page))).toBe(false);
    expect(readFileSync(join(outDir, 'client', 'sitemap-0.xml'), 'utf8')).not.toContain(GONE.page.replace('/index.html', ''));
    // The second build asked with the validators it had kept (for the pages it had read:
    // after the removal, the stories' later pages start elsewhere): unchanged pages came back 304.
    const listings = api.requests.filter((r) => r.path.startsWith('/v1/'));
    const again = listings.filter((r) => asked.has(key(r)));
    expect(again.length).toBeGreaterThan(listings.length / 2);
    expect(again.every((r) => r.ifNoneMatch)).toBe(true);
    expect(listings.filter((r) => r.status === 304).length).toBeGreaterThan(listings.length / 2);
    expect(api.requests.some((r) => r.path.startsWith('/media/'))).toBe(false);
  }, 150_000);

  it('fails with the offending entry named in French when the API serves an invalid one', async () => {
    api.update('stories', STORY.id, { lead: 'Court' });
    const failed = await build();
    expect(failed.code).not.toBe(0);
    expect(failed.log.replace(/[\u00a0\u202f]/g, ' ')).toContain(
      `Contenu refusé (collection « stories », entrée « ${STORY.id} », champ « lead ») : Trop petit`,
    );
  }, 60_000);
});
