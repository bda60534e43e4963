/**
 * The host's faults (issue 28), as a campaign anyone can run again: `kill -9` of each host process
 * of a running `npm start`, at a chosen moment, and what readers and the newsroom saw.
 *
 * `npm start` as in production (scripts/bench/server.ts): two app processes, the resident builder
 * warm, the publication webhook signed, on a copy of the demo corpus in a temporary folder (the
 * campaign changes a story's title to publish it). The campaign is the supervisor: when it kills
 * the front it starts it again, as systemd would (docs/deploy.md).
 *
 * | round | what is killed | met when |
 * |---|---|---|
 * | 1 | one app process, under a read load (static pages, on-demand pages, the API) | every request answered 200; two app processes again |
 * | 2 | both app processes at once, under the same load | every request answered 200 (they wait for a replacement); two app processes again |
 * | 3, 4 | the resident builder (and a full build it started), 1 s then 2.5 s into a publication | the publication goes live by itself; the site answers meanwhile |
 * | 5 | the front | its app processes and builder gone within 10 s; started again, it serves the last publication; the next one goes live |
 *
 *   npm run bench:faults              prints a table; exits 1 when a round is not met
 *
 * Needs dist/ (built first when missing or not made from the current sources) and Linux (/proc).
 * About 4 minutes on a quiet 2-core machine, most of it the resident builder's first build.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, root, startServer, type BenchServer } from './server.ts';
import { signedRebuildHeaders } from '../../src/server/editorial/webhook';

const SLUG = 'aides-a-domicile-les-kilometres-que-personne-ne-paie';
const LOAD_CONNECTIONS = 8;
/** How long a publication may take to go live, a killed builder's restart and a full build included. */
const PUBLICATION_LIMIT_MS = 240_000;

const corpus = mkdtempSync(join(tmpdir(), 'contrechamp-faults-corpus-'));
const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-faults-data-'));
cpSync(join(root, 'src/content'), corpus, { recursive: true });
const storyFile = join(corpus, 'stories/articles', `${SLUG}.md`);
if (!existsSync(storyFile)) throw new Error(`the demo corpus has no ${SLUG}`);
const secret = randomBytes(32).toString('hex');
const port = await freePort();
const env = {
  CONTENT_DIR: corpus,
  REBUILD_SECRET: secret,
  REBUILD_DEBOUNCE_MS: '0',
  RESIDENT_BUILDER: 'warm',
  APP_PROCESSES: '2',
};
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// --- Processes, read from /proc: only this campaign's server (its data folder in their environment) ---

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
const commandOf = (pid: number) => read(`/proc/${pid}/cmdline`).replaceAll('\0', ' ');
const parentOf = (pid: number) => Number(read(`/proc/${pid}/stat`).split(') ')[1]?.split(' ')[1] ?? -1);
const ours = (pid: number) => read(`/proc/${pid}/environ`).split('\0').includes(`DATA_DIR=${dataDir}`);
const processes = (pattern: RegExp) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pattern.test(commandOf(pid)) && ours(pid));
const appsOf = (front: number) => processes(/src\/host\/app\.ts/).filter((pid) => parentOf(pid) === front);
const builders = () => processes(/src\/host\/(builder|build)\.ts/);
const alive = (pid: number) => commandOf(pid) !== '';
async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) return Infinity;
    await sleep(100);
  }
  return (Date.now() - started) / 1000;
}

// --- What readers get ----------------------------------------------------------------------------

let server: BenchServer;
const base = () => server.base;
async function status(path: string): Promise<number> {
  try {
    const response = await fetch(base() + path, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
/** Requests from LOAD_CONNECTIONS readers, one after another each, while `during` runs; the count of each status (0: no answer). */
async function underLoad(paths: string[], during: () => Promise<void>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let stop = false;
  const readers = Array.from({ length: LOAD_CONNECTIONS }, async (_, i) => {
    for (let n = i; !stop; n += 1) {
      const answer = await status(paths[n % paths.length]!);
      statuses[answer] = (statuses[answer] ?? 0) + 1;
    }
  });
  await sleep(1500);
  await during();
  await sleep(1500);
  stop = true;
  await Promise.all(readers);
  return statuses;
}
const only200 = (statuses: Record<number, number>) => Object.keys(statuses).every((code) => code === '200');
const show = (statuses: Record<number, number>) =>
  Object.entries(statuses)
    .map(([code, count]) => `${count.toLocaleString('en')} × ${code === '0' ? 'no answer' : code}`)
    .join(', ');

// --- Publications ----------------------------------------------------------------------------------

let storyPath = '';
async function findStory(): Promise<string> {
  const html = await (await fetch(`${base()}/articles`)).text();
  const path = new RegExp(`href="(/articles/\\d{4}/${SLUG})"`).exec(html)?.[1];
  if (!path) throw new Error(`/articles does not link ${SLUG}`);
  return path;
}
const normalized = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
async function shows(title: string): Promise<boolean> {
  try {
    return normalized(await (await fetch(base() + storyPath, { signal: AbortSignal.timeout(15_000) })).text()).includes(title);
  } catch {
    return false;
  }
}
/** Changes the story's title in the corpus and calls the webhook as the CMS does; the webhook's status. */
async function publish(title: string): Promise<number> {
  writeFileSync(storyFile, readFileSync(storyFile, 'utf8').replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
  const body = JSON.stringify({ entries: [`articles/${SLUG}`] });
  const response = await fetch(`${base()}/api/rebuild`, { method: 'POST', headers: signedRebuildHeaders(secret, body), body });
  await response.arrayBuffer();
  return response.status;
}

const start = () => startServer({ port, dataDir, args: ['--no-build'], env, output: 'capture', detached: true, timeoutMs: 120_000 });

type Round = { round: string; readers: string; recovery: string; met: boolean };
const rounds: Round[] = [];
const formatSeconds = (seconds: number) => (seconds === Infinity ? 'never' : `${seconds.toFixed(1)} s`);

try {
  // dist/ first, made from the current sources (as `npm start` would), then served as it is.
  await (await startServer()).stop();
  server = await start();
  const warm = await until(() => read(join(dataDir, 'builds', 'builder.log')).includes('warm: first build made'), 20 * 60_000);
  if (warm === Infinity) throw new Error(`the resident builder did not make its first build\n${read(join(dataDir, 'builds', 'builder.log')).slice(-3000)}`);
  storyPath = await findStory();
  const paths = ['/', storyPath, '/api/health', '/login', '/podcasts', '/soutenir/dons/mastodon'];
  console.log(`npm start on ${base()}, front ${server.pid}, app processes ${appsOf(server.pid).join(' ')}; resident builder warm after ${warm.toFixed(0)} s`);

  // 1 and 2: app processes.
  for (const [round, count] of [
    ['one app process, under load', 1],
    ['both app processes at once, under load', 2],
  ] as const) {
    let victims: number[] = [];
    let back = Infinity;
    const statuses = await underLoad(paths, async () => {
      victims = appsOf(server.pid).slice(0, count);
      for (const pid of victims) process.kill(pid, 'SIGKILL');
      back = await until(() => appsOf(server.pid).filter((pid) => !victims.includes(pid)).length >= 2, 30_000);
    });
    rounds.push({
      round: `${round} (${victims.length} killed)`,
      readers: show(statuses),
      recovery: `two app processes again after ${formatSeconds(back)}`,
      met: victims.length === count && only200(statuses) && back !== Infinity,
    });
  }

  // 3 and 4: the resident builder during a publication.
  let lastTitle = '';
  for (const delay of [1000, 2500]) {
    const title = `Titre de la campagne de pannes ${Date.now()}`;
    const webhook = await publish(title);
    const started = Date.now();
    const killed: string[] = [];
    let already = false;
    await until(async () => {
      const running = builders();
      if (running.length === 0 || Date.now() - started < delay) return false;
      already = await shows(title);
      for (const pid of running) {
        killed.push(commandOf(pid).match(/src\/host\/\w+\.ts/)?.[0] ?? String(pid));
        process.kill(pid, 'SIGKILL');
      }
      return true;
    }, 60_000);
    const live = await until(() => shows(title), PUBLICATION_LIMIT_MS);
    const site = await status('/');
    if (live !== Infinity) lastTitle = title;
    rounds.push({
      round: `the resident builder, ${delay / 1000} s into a publication (killed: ${killed.join(', ') || 'none running'}${already ? '; the publication was live already' : ''})`,
      readers: `webhook ${webhook}, home page ${site} after`,
      recovery: `the new title served ${formatSeconds(live === Infinity ? live : (Date.now() - started) / 1000)} after the webhook`,
      met: webhook === 202 && killed.length > 0 && live !== Infinity && site === 200,
    });
  }

  // 5: the front.
  {
    const front = server.pid;
    const children = [...appsOf(front), ...builders()];
    process.kill(front, 'SIGKILL');
    const gone = await until(() => !children.some(alive), 10_000);
    const restarted = Date.now();
    server = await start();
    const up = (Date.now() - restarted) / 1000;
    const kept = lastTitle !== '' && (await shows(lastTitle));
    const title = `Titre après le redémarrage ${Date.now()}`;
    const webhook = await publish(title);
    const published = Date.now();
    const live = await until(() => shows(title), PUBLICATION_LIMIT_MS);
    rounds.push({
      round: 'the front',
      readers: `its ${children.length} processes gone after ${formatSeconds(gone)}; started again, the last publication ${kept ? 'served' : 'LOST'}`,
      recovery: `answering ${up.toFixed(1)} s after the restart; the next publication live ${formatSeconds(live === Infinity ? live : (Date.now() - published) / 1000)} after its webhook (${webhook})`,
      met: gone !== Infinity && kept && webhook === 202 && live !== Infinity,
    });
  }
} finally {
  await server!?.stop();
  rmSync(corpus, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}

console.log('\n| round: kill -9 of | what readers and the newsroom saw | back | met |');
console.log('|---|---|---|---|');
for (const r of rounds) console.log(`| ${r.round} | ${r.readers} | ${r.recovery} | ${r.met ? 'yes' : '**no**'} |`);
const missed = rounds.filter((r) => !r.met);
if (missed.length > 0) {
  console.log(`\n${missed.length} round(s) not met.`);
  process.exit(1);
}
