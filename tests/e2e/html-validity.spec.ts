/**
 * Every template's HTML, as the server sends it, passes the W3C Nu HTML checker (npm vnu-jar,
 * run on Debian's Java): the public pages, the on-demand ones for a visitor, a reader, a
 * sociétaire, an editor and an administrator, and a form sent back with its errors. The checker
 * runs once over all of them; a failure names the page, the line and the checker's message.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext } from '../helpers/e2e';
import { accessibility } from '../../src/config/accessibility';
import { ON_DEMAND_PATHS } from '../helpers/site';

const run = promisify(execFile);
const jar = join(createRequire(import.meta.url).resolve('vnu-jar'), '../build/dist/vnu.jar');
const DEMO_PASSWORD = 'motdepasse-demo';

/** One page per template of the reading site, beyond the accessibility statement's sample. */
const PUBLIC = [
  '/',
  '/articles/page/2',
  '/breves/en-france',
  '/breves/2026',
  '/dossiers',
  '/auteurs',
  '/tags',
  '/podcasts/publications',
  '/presentation',
  '/faq',
  '/cgv',
  '/cgu',
  '/vie-privee',
  '/mailinglist',
  '/modifier-mon-mot-de-passe',
  '/abonnement',
  '/soutenir/abonnement/offrir',
  '/soutenir/dons/merci',
  '/compte-supprime',
  '/page-inconnue',
];
/** The on-demand pages of each signed-in role. */
const ROLES: { email: string; paths: string[] }[] = [
  {
    email: 'abonne@exemple.fr',
    paths: [
      '/mon-compte',
      '/mon-compte/mes-informations',
      '/mon-compte/mes-abonnements',
      '/mon-compte/mes-cadeaux',
      '/mon-compte/mes-factures',
      '/soutenir/mon-compte',
      '/retractation',
      '/mon-compte/podcasts',
      '/podcasts/les-voix-du-terrain/annick-vingt-deux-ans-de-guichet/transcription-soutiens',
    ],
  },
  { email: 'societaire@exemple.fr', paths: ['/mon-compte/societariat', '/devenir-societaire/mon-compte'] },
  { email: 'redaction@exemple.fr', paths: ['/redaction', '/redaction/messages'] },
  {
    email: 'administration@exemple.fr',
    paths: [
      '/administration',
      '/administration/commandes',
      '/administration/abonnements',
      '/administration/factures',
      '/administration/cadeaux',
      '/administration/societariat',
      '/administration/assemblees',
      '/administration/taches',
      '/administration/retractations',
      '/administration/flux-podcasts',
    ],
  },
];

interface Fetched {
  label: string;
  html: string;
}

async function fetchAll(request: APIRequestContext, paths: string[], label = ''): Promise<Fetched[]> {
  const pages: Fetched[] = [];
  for (const path of paths) {
    const response = await request.get(path);
    expect.soft(response.headers()['content-type'], `${path} is HTML`).toContain('text/html');
    pages.push({ label: `${label}${path}`, html: await response.text() });
  }
  return pages;
}

async function signIn(request: APIRequestContext, baseURL: string, email: string): Promise<void> {
  const response = await request.post('/login', { form: { form: 'password', email, password: DEMO_PASSWORD }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(response.status(), `${email} signs in`).toBe(303);
}

/** Links found in a page whose path matches, e.g. a subscription's or a build's own page. */
const linksIn = (html: string, pattern: RegExp) => [...new Set([...html.matchAll(/href="([^"#?]+)"/g)].map((m) => m[1]!).filter((href) => pattern.test(href)))];

test('every template passes the W3C Nu HTML checker', async ({ playwright, baseURL }) => {
  test.setTimeout(240_000);
  const base = baseURL!;
  const pages: Fetched[] = [];
  const visitor = await playwright.request.newContext({ baseURL: base });
  const sample = accessibility.sample.filter((s) => !s.signedIn).map((s) => s.path);
  pages.push(...(await fetchAll(visitor, [...new Set([...sample, ...PUBLIC, ...ON_DEMAND_PATHS, '/contact', '/login'])])));
  // A form sent back with its errors (the wrong password) is a template of its own.
  const failed = await visitor.post('/login', { form: { form: 'password', email: 'personne@exemple.fr', password: 'pas le bon' }, headers: { origin: base } });
  expect(failed.status()).toBe(401);
  pages.push({ label: '/login (mot de passe refusé)', html: await failed.text() });
  await visitor.dispose();

  for (const role of ROLES) {
    const reader = await playwright.request.newContext({ baseURL: base });
    await signIn(reader, base, role.email);
    const fetched = await fetchAll(reader, role.paths, `${role.email} `);
    // The pages reached from a list: a subscription, a build's log, and every general assembly
    // (each state is a template of its own: convened, open, closed with or without its quorum, a
    // second call in draft).
    const deeper = fetched.flatMap((p) => [
      ...linksIn(p.html, /^\/(mon-compte\/mes-abonnements\/[0-9a-f-]{8,}|redaction\/constructions\/\d+)$/).slice(0, 1),
      ...linksIn(p.html, /^\/(administration\/assemblees\/[^/]+|mon-compte\/societariat\/assemblee-[^/]+)$/),
    ]);
    pages.push(...fetched, ...(await fetchAll(reader, [...new Set(deeper)], `${role.email} `)));
    await reader.dispose();
  }
  expect(pages.length).toBeGreaterThan(60);

  const dir = mkdtempSync(join(tmpdir(), 'contrechamp-vnu-'));
  try {
    const files = pages.map((page, i) => {
      const file = join(dir, `${String(i).padStart(3, '0')}.html`);
      writeFileSync(file, page.html);
      return file;
    });
    // The checker exits non-zero when it finds an error: its JSON report on stderr says which.
    const { stderr } = await run('java', ['-Xss4m', '-jar', jar, '--errors-only', '--format', 'json', '--exit-zero-always', ...files], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse(stderr) as { messages: { type: string; url: string; lastLine?: number; message: string; extract?: string }[] };
    const errors = report.messages
      .filter((m) => m.type === 'error' || m.type === 'non-document-error')
      .map((m) => {
        const index = files.findIndex((file) => m.url.endsWith(file.slice(dir.length)));
        return `${pages[index]?.label ?? m.url}:${m.lastLine ?? '?'}: ${m.message}${m.extract ? ` — « ${m.extract.trim().slice(0, 80)} »` : ''}`;
      });
    expect(errors).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
