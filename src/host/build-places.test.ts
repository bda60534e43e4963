/**
 * Staged pages, with the installed Astro: a small site (tests/fixtures/staged-build) built as
 * src/host/build.ts builds the site, three times. A page Astro may skip is the last build's very
 * file (not rendered, not copied); a page that changed is rendered into a file of its own; a page no
 * longer built is gone; and no file of the live build changes while the next one builds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStates } from '../../tests/helpers/file-states.ts';
import { PLACEHOLDER, abandonStaging, assertStagingFinished, astroEnv, buildPlaces, prepareStaging, root, stagedLine } from './build-places.ts';

const fixture = join(root, 'tests/fixtures/staged-build');
let work: string;
let places: ReturnType<typeof buildPlaces>;

function setPages(pages: Record<string, string>) {
  writeFileSync(join(work, 'pages.json'), JSON.stringify(Object.entries(pages).map(([slug, title]) => ({ slug, title }))));
}

/** One build, as build.ts makes it: staged, built by Astro in its own process, moved into place. */
function build(id: string): { log: string; dir: string } {
  const line = stagedLine(prepareStaging(places));
  const astro = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', fixture], {
    cwd: fixture,
    env: { ...process.env, ...astroEnv(places, id), PAGES_FILE: join(work, 'pages.json') },
    encoding: 'utf8',
  });
  const log = `${line}\n${astro.stdout}${astro.stderr}`;
  expect(astro.status, log.slice(-3000)).toBe(0);
  const dir = join(work, 'builds', id);
  renameSync(places.staging, dir);
  return { log, dir };
}

const page = (dir: string, slug: string) => join(dir, 'client', slug, 'index.html');
const title = (dir: string, slug: string) => /<h1>(.*?)<\/h1>/.exec(readFileSync(page(dir, slug), 'utf8'))?.[1];

const snapshot = (dir: string) => fileStates(dir, { bytes: true });

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'staged-build-'));
  mkdirSync(join(work, 'builds'));
  places = buildPlaces(join(work, 'builds'), {});
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  // What Astro and Vite leave in a project they build.
  for (const left of ['.astro', 'node_modules']) rmSync(join(fixture, left), { recursive: true, force: true });
});

describe('a build’s staged pages (the installed Astro)', { timeout: 180_000 }, () => {
  let first: string;
  let second: string;

  it('a first build renders every page', () => {
    setPages({ un: 'Un', deux: 'Deux', trois: 'Trois' });
    const made = build('one');
    first = made.dir;
    expect(made.log).toContain('0 cached pages staged');
    expect(['un', 'deux', 'trois'].map((slug) => title(first, slug))).toEqual(['Un', 'Deux', 'Trois']);
  });

  it('the next build keeps the unchanged page as the same file, renders the changed one anew, drops the removed one, and leaves the live build as it was', () => {
    const live = snapshot(first);
    setPages({ un: 'Un', deux: 'Deux, corrigé', quatre: 'Quatre' });
    const made = build('two');
    second = made.dir;
    expect(made.log).toContain('3 cached pages staged');
    expect(made.log).toContain('1 pages kept from the last build, 1 no longer built removed');

    // Kept: the live build's own file, neither rendered nor copied.
    expect(title(second, 'un')).toBe('Un');
    expect(statSync(page(second, 'un')).ino).toBe(statSync(page(first, 'un')).ino);
    // Changed: a file of its own; the live page still reads the old title.
    expect(title(second, 'deux')).toBe('Deux, corrigé');
    expect(statSync(page(second, 'deux')).ino).not.toBe(statSync(page(first, 'deux')).ino);
    expect(title(first, 'deux')).toBe('Deux');
    expect(title(second, 'quatre')).toBe('Quatre');
    expect(existsSync(page(second, 'trois'))).toBe(false);

    // Not one byte, time or file of the live build changed.
    expect(snapshot(first)).toEqual(live);
    // No placeholder is left anywhere, and the copies set aside are gone.
    const left = [...snapshot(second).keys()].filter((file) => readFileSync(join(second, file), 'utf8') === PLACEHOLDER);
    expect(left).toEqual([]);
    expect(existsSync(places.previous)).toBe(false);
  });

  it('a build whose staged pages were not finished never goes into place', () => {
    prepareStaging(places);
    expect(() => assertStagingFinished(places)).toThrow(/3 pages de la construction précédente non remises en place/);
    rmSync(places.staging, { recursive: true, force: true });
    abandonStaging(places);
  });

  it('a build that changes one page shares every other with the live build, which does not change', () => {
    const live = snapshot(second);
    setPages({ un: 'Un', deux: 'Deux, corrigé', quatre: 'Quatre, revu' });
    const made = build('three');
    expect(made.log).toContain('2 pages kept from the last build, 0 no longer built removed');
    for (const slug of ['un', 'deux']) expect(statSync(page(made.dir, slug)).ino).toBe(statSync(page(second, slug)).ino);
    expect(title(made.dir, 'quatre')).toBe('Quatre, revu');
    expect(title(second, 'quatre')).toBe('Quatre');
    expect(snapshot(second)).toEqual(live);
    second = made.dir;
  });

  it('a build that fails keeps the next one incremental', () => {
    const live = snapshot(second);
    writeFileSync(join(work, 'pages.json'), '{ not json');
    prepareStaging(places);
    const failed = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', fixture], {
      cwd: fixture,
      env: { ...process.env, ...astroEnv(places, 'failed'), PAGES_FILE: join(work, 'pages.json') },
      encoding: 'utf8',
    });
    expect(failed.status).not.toBe(0);
    abandonStaging(places);
    setPages({ un: 'Un', deux: 'Deux, corrigé', quatre: 'Quatre, revu' });
    const made = build('after-failure');
    expect(made.log).toContain('3 pages kept from the last build, 0 no longer built removed');
    for (const slug of ['un', 'deux', 'quatre']) expect(statSync(page(made.dir, slug)).ino).toBe(statSync(page(second, slug)).ino);
    expect(snapshot(second)).toEqual(live);
  });

  it('after a build stopped midway, the next one renders every page again, right', () => {
    const live = snapshot(second);
    prepareStaging(places); // stopped right after this step: the copies are still aside
    expect(existsSync(places.previous)).toBe(true);
    const made = build('four');
    expect(made.log).toContain('every page rendered again');
    for (const slug of ['un', 'deux', 'quatre']) {
      expect(title(made.dir, slug)).toBe(title(second, slug));
      expect(statSync(page(made.dir, slug)).ino).not.toBe(statSync(page(second, slug)).ino);
    }
    expect(snapshot(second)).toEqual(live);
  });
});
