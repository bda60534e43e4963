/**
 * The newsroom publishes (issue « the newsroom publishes »), on a server of its own: a copy of the
 * demo corpus that the test edits, its own data folder and builds. An editor presses « Publier
 * maintenant » and reads the new title on the live site without a restart; the CMS's signed
 * webhook does the same (unsigned or stale ones are refused), through the resident builder's fast
 * path, whose pages must be those of a full build; a rollback puts the earlier version back; a
 * broken front matter fails its build while the site keeps serving.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { test, type Page } from '../helpers/e2e';
import { expect } from '../helpers/guard';
import { look } from '../helpers/browse';
import { fileStates } from '../helpers/file-states';
import { signRebuild } from '../../src/server/editorial/webhook';

const root = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(root, 'test-results/screenshots/publishing');
const SECRET = '5b0e8f2a9c7d41e3b6a0f9d8c7e6b5a4';
const STORY = 'stories/articles/aides-a-domicile-les-kilometres-que-personne-ne-paie.md';
const STORY_URL = /\/articles\/\d{4}\/aides-a-domicile-les-kilometres-que-personne-ne-paie$/;
const ORIGINAL = 'Aides à domicile : les kilomètres que personne ne paie';
/** Files the build writes into its server folder from the content (astro.config.mjs). */
const SERVER_DATA_FILES = ['build-data.json', 'newsletter-stories.json'];

test.describe.configure({ mode: 'serial', timeout: 300_000 });

let work: string;
let content: string;
let server: ChildProcess;
let base: string;
let storyPath: string;

function setTitle(title: string | null): void {
  const file = join(content, STORY);
  const text = readFileSync(file, 'utf8');
  const next = title === null ? text.replace(/^title: .*\n/m, '') : text.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`);
  writeFileSync(file, next);
}

const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
async function storyTitle(): Promise<string> {
  const html = await (await fetch(`${base}${storyPath}`)).text();
  return plain(
    /<h1[^>]*>([\s\S]*?)<\/h1>/
      .exec(html)?.[1]
      ?.replace(/<[^>]+>/g, '')
      .trim() ?? '',
  );
}

async function signedWebhook(body: string, timestamp = Math.floor(Date.now() / 1000), secret = SECRET): Promise<Response> {
  return fetch(`${base}/api/rebuild`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Contrechamp-Timestamp': String(timestamp),
      'X-Contrechamp-Signature': signRebuild(secret, timestamp, body),
    },
    body,
  });
}

/** How many builds /redaction lists now. */
async function buildCount(page: Page): Promise<number> {
  await page.goto(`${base}/redaction`);
  return page.locator('table.builds tbody tr').count();
}

/**
 * Reloads /redaction until a build newer than the `before` listed ones has ended; returns its state
 * label. Without the count, an earlier build that ended would answer before the new one is queued.
 */
async function lastBuildOutcome(page: Page, before: number): Promise<string> {
  let outcome = '';
  await expect
    .poll(
      async () => {
        await page.goto(`${base}/redaction`);
        const rows = page.locator('table.builds tbody tr');
        if ((await rows.count()) <= before) return false;
        outcome = (await rows.first().locator('td').first().locator('.badge').textContent()) ?? '';
        return outcome === 'Réussie' || outcome === 'Échouée';
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(true);
  return outcome;
}

/** The text files of a build's client folder (the search index aside: its file names are random). */
function pagesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(html|xml|json|txt)$/.test(entry.name))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('pagefind'))
    .sort();
}

/** Builds the content in full, with an empty cache, and lists what differs from the live build. */
function differencesFromFullBuild(): { files: number; list: string[] } {
  const out = join(work, 'full');
  const built = spawnSync(process.execPath, [join(root, 'src/host/build.ts'), '--out', out, '--id', 'full'], {
    cwd: root,
    env: { ...process.env, SITE_URL: base, CONTENT_DIR: content, BUILD_CACHE_DIR: join(work, 'full-cache') },
    encoding: 'utf8',
  });
  expect(built.status, built.stdout.slice(-2000) + built.stderr.slice(-2000)).toBe(0);
  const live = JSON.parse(readFileSync(join(work, 'data/builds/live.json'), 'utf8')) as { id: string };
  const liveClient = join(work, 'data/builds', live.id, 'client');
  const expected = pagesOf(join(out, 'client'));
  const actual = pagesOf(liveClient);
  const list = [
    ...expected.filter((file) => !actual.includes(file) || !readFileSync(join(out, 'client', file)).equals(readFileSync(join(liveClient, file)))),
    ...actual.filter((file) => !expected.includes(file)),
    // What the server reads from the content (the 404's latest stories, the newsletter's catalogue
    // of stories) is written again by the fast path too.
    ...SERVER_DATA_FILES.map((file) => join('..', 'server', file)).filter(
      (file) => !readFileSync(join(out, 'client', file)).equals(readFileSync(join(liveClient, file))),
    ),
  ];
  return { files: expected.length, list };
}

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'publishing-'));
  content = join(work, 'content');
  cpSync(join(root, 'src/content'), content, { recursive: true });
  const port = 45_000 + Math.floor(Math.random() * 3000);
  base = `http://localhost:${port}`;
  server = spawn(process.execPath, [join(root, 'src/host/start.ts'), '--no-build'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: 'localhost',
      SITE_URL: base,
      DATA_DIR: join(work, 'data'),
      CONTENT_DIR: content,
      REBUILD_SECRET: SECRET,
      REBUILD_DEBOUNCE_MS: '300',
      APP_MODE: 'demo',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stderr?.setEncoding('utf8').on('data', (c: string) => (log += c));
  await new Promise<void>((done, fail) => {
    server.stdout?.setEncoding('utf8').on('data', (c: string) => {
      log += c;
      if (c.includes('"msg":"listening"')) done();
    });
    server.once('exit', (code) => fail(new Error(`server exited (${code}): ${log.slice(-2000)}`)));
  });
  const home = await (await fetch(`${base}/articles`)).text();
  storyPath = /href="(\/articles\/\d{4}\/aides-a-domicile-les-kilometres-que-personne-ne-paie)"/.exec(home)?.[1] ?? '';
  expect(storyPath).toMatch(STORY_URL);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  rmSync(work, { recursive: true, force: true });
});

test('an editor publishes, the CMS publishes, an editor rolls back, a broken story fails its build and the site stays', async ({ page }) => {
  expect(await storyTitle()).toBe(ORIGINAL);

  // A reader gets the 404 page at /redaction; the editor gets the newsroom.
  await page.goto(`${base}/login`);
  await page.locator('#login-email').fill('redaction@exemple.fr');
  await page.locator('#login-password').fill('motdepasse-demo');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
  await page.goto(`${base}/redaction`);
  await expect(page.getByRole('heading', { level: 1, name: 'Publication' })).toBeVisible();
  await expect(page.getByText('Version de démarrage (construite par npm start)').first()).toBeVisible();

  // 1. « Publier maintenant » after a title change: the queue shows the build, then the title is live.
  setTitle('Aides à domicile : la route que personne ne paie');
  const first = await buildCount(page);
  await page.getByRole('button', { name: 'Publier maintenant' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Publication demandée/ })).toBeVisible();
  await expect(page.locator('#publication-state')).toContainText(/En cours|En attente/);
  await look(page, SHOTS, 'redaction-en-cours');
  expect(await lastBuildOutcome(page, first)).toBe('Réussie');
  expect(await storyTitle()).toBe('Aides à domicile : la route que personne ne paie');
  // The list shows it too.
  expect(plain(await (await fetch(`${base}/articles`)).text())).toContain('la route que personne ne paie');

  // 2. The CMS's webhook: unsigned, badly signed and stale requests are refused and build nothing.
  const before = await page.locator('table.builds tbody tr').count();
  const unsigned = await fetch(`${base}/api/rebuild`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(unsigned.status).toBe(401);
  expect((await unsigned.json()).message).toContain('non signée');
  expect((await signedWebhook('{}', undefined, 'f'.repeat(8) + SECRET.slice(8))).status).toBe(401);
  expect((await signedWebhook('{}', Math.floor(Date.now() / 1000) - 600)).status).toBe(401);
  expect((await signedWebhook('x'.repeat(70 * 1024))).status).toBe(400);
  await page.goto(`${base}/redaction`);
  await expect(page.locator('table.builds tbody tr')).toHaveCount(before);
  await expect(page.locator('#publication-state')).toContainText('Aucune construction en cours ni en attente.');

  setTitle('Aides à domicile : les kilomètres que le CMS a publiés');
  // The live build is never written while the next is made (its files are linked into it).
  const liveDir = join(work, 'data/builds', (JSON.parse(readFileSync(join(work, 'data/builds/live.json'), 'utf8')) as { id: string }).id);
  const liveBefore = fileStates(liveDir);
  const signed = await signedWebhook(JSON.stringify({ entries: ['articles/aides-a-domicile-les-kilometres-que-personne-ne-paie'] }));
  expect(signed.status).toBe(202);
  expect(await lastBuildOutcome(page, before)).toBe('Réussie');
  expect(await storyTitle()).toBe('Aides à domicile : les kilomètres que le CMS a publiés');
  const liveAfter = fileStates(liveDir);
  expect([...new Set([...liveBefore.keys(), ...liveAfter.keys()])].filter((file) => liveBefore.get(file) !== liveAfter.get(file))).toEqual([]);
  expect(liveBefore.size).toBeGreaterThan(100);
  await expect(page.locator('table.builds tbody tr').first()).toContainText('CMS (webhook)');
  // Editors composing a newsletter issue find the story under its new title.
  const liveId = (JSON.parse(readFileSync(join(work, 'data/builds/live.json'), 'utf8')) as { id: string }).id;
  const catalogue = JSON.parse(readFileSync(join(work, 'data/builds', liveId, 'server/newsletter-stories.json'), 'utf8')) as { url: string; title: string }[];
  expect(plain(catalogue.find((story) => story.url === storyPath)?.title ?? '')).toBe('Aides à domicile : les kilomètres que le CMS a publiés');

  // Only a story changed since the last build: the resident builder rendered the pages it changes,
  // and those are, byte for byte, the pages a full build with an empty cache makes of that content.
  await page
    .locator('table.builds tbody tr')
    .first()
    .getByRole('link', { name: /Journal/ })
    .click();
  await expect(page.locator('pre.log')).toContainText('publication rapide');
  await expect(page.locator('pre.log')).toContainText('ses processus la servent sans redémarrer');
  await look(page, SHOTS, 'redaction-journal-rapide');
  const differing = differencesFromFullBuild();
  expect(differing.files).toBeGreaterThan(100);
  expect(differing.list).toEqual([]);
  await page.goto(`${base}/redaction`);

  // 3. Rollback to the editor's version.
  await page
    .locator('table.builds tbody tr')
    .nth(1)
    .getByRole('button', { name: /Remettre en ligne/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: /est de nouveau en ligne/ })).toBeVisible();
  expect(await storyTitle()).toBe('Aides à domicile : la route que personne ne paie');
  await expect(page.getByRole('heading', { name: 'Dernières mises en ligne' })).toBeVisible();
  await expect(page.locator('.switches li').first()).toContainText('retour en arrière par redaction@exemple.fr');

  // 4. A story without a title: the build fails, the editors see why, the site keeps serving.
  setTitle(null);
  const beforeBroken = await buildCount(page);
  await page.getByRole('button', { name: 'Publier maintenant' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Publication demandée/ })).toBeVisible();
  expect(await lastBuildOutcome(page, beforeBroken)).toBe('Échouée');
  await expect(page.locator('table.builds tbody tr').first().locator('.error-text')).toContainText(/La construction a échoué/);
  await look(page, SHOTS, 'redaction-echec');
  expect(await storyTitle()).toBe('Aides à domicile : la route que personne ne paie');
  await page
    .locator('table.builds tbody tr')
    .first()
    .getByRole('link', { name: /Journal/ })
    .click();
  await expect(page.locator('pre.log')).toContainText(/title/);
  await look(page, SHOTS, 'redaction-journal');

  // Readers and other members do not see the newsroom.
  const anonymous = await fetch(`${base}/redaction`, { redirect: 'manual' });
  expect(anonymous.status).toBe(302);
});
