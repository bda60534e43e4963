#!/usr/bin/env node
/**
 * The resident builder: one process that keeps the last build's Astro state in memory, so that a
 * publication that changes only stories goes live in seconds instead of a full `astro build`
 * (docs/incremental-builds.md, « The resident builder »).
 *
 * The publisher (src/server/editorial/resident.ts) starts it, detached, and asks it for builds on
 * a Unix socket (BUILDER_SOCKET): one JSON line `{ id }` per build, built into `<BUILDS_DIR>/<id>`;
 * it answers with `{ output }` lines (the build's log), `{ followUp: true }` when later list pages
 * wait for the next build, and a last `{ code }` (0: the folder holds a complete build).
 * Builds run one at a time, in the order they were asked.
 *
 * - Its first build runs `astro build` in this process (the same steps as src/host/build.ts),
 *   and leaves the prerenderer, the content store and the paths with their keys here.
 * - A build after that, when only stories changed since (no other content, no code), reads them
 *   again into the store and renders only the pages they change (src/host/publish-fast.ts).
 * - Anything else needs a new `astro build`, which Astro cannot run twice in one process: that
 *   build runs in a child process (src/host/build.ts), and this process then exits; the
 *   publisher starts another one for the next build.
 *
 * With BUILDER_WARM=1 it makes a first build at once, into the cache (not published), so that
 * even the first publication is fast. It exits when the process that owns it (BUILDER_OWNER,
 * the front) is gone, and when its requester disconnects during a build (stopped by the queue).
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, linkSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { abandonStaging, assertStagingFinished, astroEnv, buildPlaces, prepareStaging, root, stagedLine } from './build-places.ts';
import { contentDigest } from '../lib/folder-digest.ts';
import { KILLED, killProcessGroup, onceMoreIfKilled } from '../lib/killed-build.ts';
import { BuildPhases, SUMMARY_PREFIX, isDetail } from './build-phases.ts';
import { BUILDER_ENV, ENTRY, type BuilderMessage, type BuilderRequest } from './protocol.ts';
import { buildDir, readLive } from '../server/editorial/live.ts';

const socketPath = process.env[BUILDER_ENV.socket] ?? '';
const buildsDir = process.env[BUILDER_ENV.buildsDir] ?? '';
const owner = Number(process.env[BUILDER_ENV.owner]);
if (!socketPath || !buildsDir) {
  console.error(`${BUILDER_ENV.socket} et ${BUILDER_ENV.buildsDir} sont nécessaires.`);
  process.exit(2);
}
type Send = (message: BuilderMessage) => void;
const places = buildPlaces(buildsDir);
// The environment of every build of this process, set before Astro loads.
Object.assign(process.env, astroEnv(places, 'resident'));
// The fast publication reaches into Astro's private files (src/astro-private/fast-publication.ts):
// if it cannot load, this process still makes full builds, and says why on each.
let fast: typeof import('./publish-fast.ts') | undefined;
let fastUnavailable: string | undefined;
try {
  fast = await import('./publish-fast.ts');
} catch (error) {
  fastUnavailable = `la publication rapide n’a pas pu se charger : ${String((error as Error)?.message ?? error).split('\n')[0]}`;
  console.error(`[builder] ${fastUnavailable}`);
}
const { codeVersion } = await import('./build-fingerprint.ts');

const contentDir = resolve(root, process.env.CONTENT_DIR ?? 'src/content');
const remote = process.env.CONTENT_SOURCE === 'api';

/** Everything in the content folder but the stories: a change there needs a full build. */
const otherContentDigest = () => contentDigest(contentDir, ['stories']);

/**
 * `fresh` until this process's `astro build`; then `made` (its state in memory can make the next
 * builds) or `failed` (Astro cannot build again in this process).
 */
let state: 'fresh' | 'made' | 'failed' = 'fresh';
/** What the state in memory was built from. */
let made: { code: string; other: string | null } | undefined;
/** The last complete build this process made: the next publication starts from its files. */
let baseline: string | undefined;
/** The last publication left later list pages for the next build. */
let owesPages = false;

const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);

/** Runs `task` with this process's output also sent to `send`, line by line. */
async function capturing<T>(send: Send, task: (phases: BuildPhases) => Promise<T>): Promise<T> {
  const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const phases = new BuildPhases();
  let pending = '';
  const relay = (chunk: unknown) => {
    pending += String(chunk);
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      phases.read(line);
      if (!isDetail(line)) send({ output: `${line}\n` });
    }
  };
  // Both streams pass through as they were written; `write`'s overloads take the same arguments.
  type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
  const through =
    (write: Write): Write =>
    (chunk, ...rest) => (relay(chunk), write(chunk, ...rest));
  process.stdout.write = through(original.out as Write) as typeof process.stdout.write;
  process.stderr.write = through(original.err as Write) as typeof process.stderr.write;
  try {
    return await task(phases);
  } finally {
    process.stdout.write = original.out;
    process.stderr.write = original.err;
    if (pending) send({ output: `${pending}\n` });
  }
}

function moveStaging(out: string) {
  rmSync(out, { recursive: true, force: true });
  try {
    renameSync(places.staging, out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    cpSync(places.staging, out, { recursive: true });
  }
}

/** `astro build` in this process, into `out`. */
async function astroBuild(id: string, out: string): Promise<number> {
  const started = performance.now();
  const version = { code: codeVersion(root), other: otherContentDigest() };
  console.log(`[build] ${stagedLine(prepareStaging(places))}`);
  process.env.BUILD_ID = id;
  state = 'failed';
  const { build } = await import('astro');
  try {
    await build({ root });
  } catch (error) {
    abandonStaging(places);
    throw error;
  }
  assertStagingFinished(places);
  moveStaging(out);
  state = 'made';
  made = version;
  baseline = out;
  return (performance.now() - started) / 1000;
}

/** A full build in a child process (src/host/build.ts); this process exits after it. */
function childBuild(id: string, out: string, send: Send): Promise<number> {
  const once = () =>
    new Promise<number | typeof KILLED>((done) => {
      const child = spawn(process.execPath, [join(root, ENTRY.build), '--out', out, '--id', id], {
        cwd: root,
        env: process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, with its Astro process, which is killed with it (below).
        detached: true,
      });
      for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk) => send({ output: chunk }));
      child.on('close', (code, signal) => {
        if (signal) killProcessGroup(child.pid);
        done(code ?? (signal ? KILLED : 1));
      });
    });
  // Killed from outside (this process never signals it): once more (src/lib/killed-build.ts).
  return onceMoreIfKilled(once, (output) => send({ output }));
}

/** Why the state in memory cannot make the next build, or undefined when it can. */
function whyFull(): string | undefined {
  if (fastUnavailable) return fastUnavailable;
  if (state === 'failed') return 'la construction précédente de ce processus a échoué';
  if (remote) return 'le contenu vient de l’API de la rédaction';
  if (!baseline || !existsSync(join(baseline, 'server', 'entry.mjs'))) return 'la dernière construction de ce processus n’est plus sur le disque';
  if (!made || codeVersion(root) !== made.code) return 'le code du site a changé';
  if (otherContentDigest() !== made.other) return 'un autre contenu que les articles a changé';
  return undefined;
}

let queue: Promise<void> = Promise.resolve();
let exiting = false;

/** One build, as asked on the socket: its folder is the builds folder's for that id, nowhere else. */
async function run({ id }: BuilderRequest, send: Send): Promise<number> {
  const started = performance.now();
  const dir = buildDir({ root, buildsDir }, String(id));
  if (state === 'fresh') {
    const code = await capturing(send, async (phases) => {
      await astroBuild(id, dir);
      const summary = { ...phases.summary(), total: Math.round((performance.now() - started) / 100) / 10, resident: 'full' };
      console.log(`[build] ${summary.rendered} pages rendered, ${summary.reused} reused; build ${id} done in ${summary.total} s (in the resident builder)`);
      console.log(`${SUMMARY_PREFIX}${JSON.stringify(summary)}`);
      return 0;
    });
    return code;
  }
  const reason = whyFull();
  if (!reason && fast && baseline) {
    const fastPublication = fast;
    const from = baseline;
    // The build after one that left pages for later renders everything: it is that follow-up.
    const defer = !owesPages;
    const result = await capturing(send, () =>
      fastPublication.publishFast({ baseline: from, out: dir, staging: places.staging, stagedList: places.stagedList, defer }),
    );
    if (result.refused === undefined) {
      baseline = dir;
      owesPages = result.deferred > 0;
      const apart = adoptLiveServer(dir);
      send({
        output: apart
          ? `[build] serveur propre à cette version (${apart})\n`
          : '[build] même code serveur que la version en ligne : ses processus la servent sans redémarrer\n',
      });
      const total = Math.round((performance.now() - started) / 100) / 10;
      send({
        output: `[build] publication rapide : ${result.changed.length} article(s) modifié(s) ou ajouté(s), ${result.removed.length} retiré(s) ; ${result.rendered} pages rendues, ${result.reused} reprises ; ${total} s\n`,
      });
      if (result.deferred > 0) {
        send({
          output: `[build] ${result.deferred} pages suivantes des listes (page 2 et au-delà) sont rendues par la construction suivante, demandée à l’instant\n`,
        });
        send({ followUp: true });
      }
      send({
        output: `${SUMMARY_PREFIX}${JSON.stringify({ ...result.phases, rendered: result.rendered, deferred: result.deferred, reused: result.reused, total, resident: 'fast' })}\n`,
      });
      return 0;
    }
    send({ output: `[build] publication rapide impossible (${result.refused}) : construction complète\n` });
  } else {
    send({ output: `[build] construction complète : ${reason}\n` });
  }
  exiting = true;
  return childBuild(id, dir, send);
}

const server = createServer((socket) => {
  let buffer = '';
  let active = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffer += chunk;
    const end = buffer.indexOf('\n');
    if (end < 0 || active) return;
    active = true;
    let request: BuilderRequest;
    try {
      request = JSON.parse(buffer.slice(0, end));
    } catch {
      socket.end(`${JSON.stringify({ output: 'requête illisible\n', code: 2 })}\n`);
      return;
    }
    const send: Send = (message) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
    };
    let finished = false;
    // Stopped by the queue (the requester went away) during the build: this process stops too;
    // the publisher gives the build back to the queue.
    socket.on('close', () => {
      if (!finished) process.exit(1);
    });
    queue = queue.then(async () => {
      let code = 1;
      try {
        code = await run(request, send);
      } catch (error) {
        // As Astro's own log names an error (the newsroom reads its first line: publisher.ts, failureOf).
        const failure = error as Partial<Error> | undefined;
        const name = failure?.name && failure.name !== 'Error' ? failure.name : 'Error';
        const message = String(failure?.message ?? error).replaceAll('**', '');
        const stack = String(failure?.stack ?? '')
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .join('\n');
        send({ output: `\n[${name}] ${message}\n${stack}\n` });
        code = 1;
      }
      finished = true;
      send({ code });
      socket.end();
      log(`build ${request.id}: ${code}`);
      if (exiting) setTimeout(() => process.exit(0), 100);
    });
  });
});

/** Listens on the socket; a file left by a builder that died is removed, a live builder is left alone. */
function listen(): Promise<void> {
  return new Promise((done, fail) => {
    const done_ = () => done();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE') return fail(error);
      const probe = createConnection(socketPath);
      probe.once('connect', () => {
        probe.destroy();
        log('another builder is already running');
        process.exit(0);
      });
      probe.once('error', () => {
        unlinkSync(socketPath);
        server.listen(socketPath, done_);
      });
    });
    server.listen(socketPath, done_);
  });
}

await listen();
// Only this user's processes may ask for builds.
chmodSync(socketPath, 0o600);
log(`builder listening on ${socketPath}`);
if (owner) {
  setInterval(() => {
    try {
      process.kill(owner, 0);
    } catch {
      log('owner gone: exiting');
      process.exit(0);
    }
  }, 1000).unref();
}
process.on('exit', () => {
  try {
    unlinkSync(socketPath);
  } catch {
    // Already gone.
  }
});
/** What the build computes from the content into its server folder (astro.config.mjs moves them there). */
const SERVER_DATA_FILES = new Set(['build-data.json', 'newsletter-stories.json']);

/**
 * A publication's server files become links to those of the live app processes' build, when they
 * are the same code: the same files, byte for byte, but the entry point, whose manifest differs
 * between two builds of the same code (a random key, the order of the pages). The front then
 * keeps the live app processes at the switch (front.ts, content-only switch), which take the
 * publication's build data (SERVER_DATA_FILES, its own). Returns why not, or undefined.
 */
function adoptLiveServer(out: string): string | undefined {
  const live = readLive(buildsDir);
  if (!live) return 'pas de version en ligne';
  const theirs = join(buildDir({ root, buildsDir }, live.server ?? live.id), 'server');
  const ours = join(out, 'server');
  if (!existsSync(theirs)) return 'serveur de la version en ligne absent';
  const list = (dir: string) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !SERVER_DATA_FILES.has(entry.name))
      .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
      .sort();
  const files = list(ours);
  if (files.join('\n') !== list(theirs).join('\n')) return 'autres fichiers';
  const same = (file: string) => {
    const [a, b] = [statSync(join(ours, file)), statSync(join(theirs, file))];
    return (a.ino === b.ino && a.dev === b.dev) || readFileSync(join(ours, file)).equals(readFileSync(join(theirs, file)));
  };
  const differing = files.find((file) => file !== 'entry.mjs' && !same(file));
  if (differing) return `${differing} diffère`;
  for (const file of files) {
    rmSync(join(ours, file));
    linkSync(join(theirs, file), join(ours, file));
  }
  return undefined;
}

if (process.env.BUILDER_WARM === '1' && !remote) {
  queue = queue.then(async () => {
    const out = join(places.cache, 'resident-base');
    try {
      const seconds = await astroBuild('resident', out);
      log(`warm: first build made in ${seconds.toFixed(1)} s`);
    } catch (error) {
      log(`warm build failed: ${(error as Error)?.stack ?? error}`);
    }
  });
}
