/**
 * The publisher: takes the waiting build when it is due (queue.ts), builds it into its own folder
 * (src/host/build.ts), asks the front to make it live, records the outcome, and removes the
 * builds no longer kept. One build at a time across every process (the queue's `running` row);
 * every app process runs a publisher, and whichever claims the build runs it.
 *
 * While a build runs, its heartbeat and the end of its log are written every few seconds, so that
 * editors watch it in /redaction and a build whose process died is found and taken over, under its
 * own id (queue.ts, `resumeInterrupted`): whoever follows a publication sees how it really ended.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock';
import type { Database, SiteBuildRow } from '../db/database';
import { ENTRY } from '../../host/protocol';
import { contentDigest as corpusDigest } from '../../lib/folder-digest';
import { KILLED, killProcessGroup, onceMoreIfKilled } from '../../lib/killed-build';
import { explainBuildFailure } from './build-errors';
import { BUILD_ID_PATTERN, DIST_BUILD_ID, buildDir, isCompleteBuild, readLive } from './live';
import { claimBuild, finishBuild, heartbeat, listBuilds, nextDue, releaseBuild, requestBuild, resumeInterrupted } from './queue';

export interface Places {
  root: string;
  buildsDir: string;
}

export interface BuildRun {
  id: string;
  dir: string;
  previous: string | undefined;
  signal: AbortSignal;
  onOutput(chunk: string): void;
  /** The build left pages for the next one (the resident builder's later list pages): queue it once this one is live. */
  onFollowUp?(): void;
}

/** Runs one build; resolves with its exit code (0: complete). */
export type BuildFn = (run: BuildRun) => Promise<number>;

export interface PublisherOptions {
  db: Kysely<Database>;
  clock: Clock;
  places: Places;
  keep: number;
  timeoutMs: number;
  build?: BuildFn;
  switchTo: (id: string) => Promise<void>;
  /** Where the corpus is, for its digest (none for a remote source). */
  contentDir?: string | undefined;
  /** Astro's cache folder of the builds (the remote source's version is read there). */
  cacheDir?: string | undefined;
  pollMs?: number;
  heartbeatMs?: number;
  staleMs?: number;
  runner?: string;
  log?: { info(msg: string, fields?: Record<string, unknown>): void; error(msg: string, fields?: Record<string, unknown>): void };
}

export interface Publisher {
  start(): Promise<void>;
  /** Look at the queue now (after a publication). */
  poke(): void;
  /** Stops; a build under way is stopped and given back to the queue. */
  stop(): Promise<void>;
}

/** The log kept for editors: the end of the output, without terminal colours. */
export const LOG_LIMIT = 64 * 1024;

export class LogTail {
  private text = '';
  push(chunk: string): void {
    // eslint-disable-next-line no-control-regex
    this.text = (this.text + chunk.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')).slice(-LOG_LIMIT);
  }
  toString(): string {
    return this.text;
  }
}

/**
 * What went wrong, for the editors: the first line of the log that reports an error, with the
 * details printed under it (which field of which entry), without hints, links and stack traces.
 */
export function failureOf(log: string): string {
  const lines = log.split('\n').map((l) => l.trim());
  const at = lines.findIndex((l) => /error|erreur|échec|invalid|refusé/i.test(l) && !/^at /.test(l));
  if (at < 0) return (lines.filter(Boolean).at(-1) ?? '').slice(0, 500);
  const details: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (details.length >= 3 || /^(Hint|Error reference|Location|Stack trace|at )/i.test(line)) break;
    if (line) details.push(line.replaceAll('**', '').replace(/^(\S+): \1:/, '$1:'));
  }
  const first = (lines[at] ?? '').replace(/^\d{2}:\d{2}:\d{2}\s*/, '');
  return [first, ...details].join(' ').slice(0, 500);
}

/**
 * The cause editors read in /redaction: the entry and field at fault in their words
 * (build-errors.ts), a French line as it was printed, or a plain sentence sending them to the log;
 * Astro's English stays in the log (and the server's).
 */
export function editorFailure(log: string): string {
  const explained = explainBuildFailure(log);
  if (explained) return `La construction a échoué. ${explained}`;
  const line = failureOf(log);
  if (/ContentSourceError|[àâçéèêîôûù’«]/.test(line)) return `La construction a échoué : ${line.replace(/^\[ContentSourceError\]\s*/, '')}`;
  return 'La construction a échoué sur une erreur technique, sans contenu mis en cause : le détail est dans le journal de la construction.';
}

/** A short digest of the corpus (paths and contents), so that editors see which content a build holds. */
export function contentDigest(dir: string): string | null {
  return corpusDigest(dir)?.slice(0, 12) ?? null;
}

/**
 * With a remote source, the version is the digest of what the build loaded: Astro's content data
 * store, in the build's cache folder.
 */
export function dataStoreDigest(cacheDir: string): string | null {
  const file = join(cacheDir, 'data-store.json');
  if (!existsSync(file)) return null;
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
}

export function countPages(dir: string): number {
  let pages = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) if (entry.isFile() && entry.name.endsWith('.html')) pages += 1;
  return pages;
}

/** The real build: the host's build entry (src/host/build.ts) in a child process, stopped with the signal. */
export function spawnBuild(places: Places): BuildFn {
  const once = ({ id, dir, previous, signal, onOutput }: BuildRun) =>
    new Promise<number | typeof KILLED>((resolvePromise) => {
      const args = [join(places.root, ENTRY.build), '--out', dir, '--id', id, ...(previous ? ['--previous', previous] : [])];
      const child = spawn(process.execPath, args, {
        cwd: places.root,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, with its Astro process: a build killed from outside leaves no
        // Astro process writing on behind the next one (src/lib/killed-build.ts).
        detached: true,
      });
      child.stdout.setEncoding('utf8').on('data', onOutput);
      child.stderr.setEncoding('utf8').on('data', onOutput);
      let killer: NodeJS.Timeout | undefined;
      const abort = () => {
        child.kill('SIGTERM');
        killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      };
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      child.on('error', (error) => onOutput(`\n${String(error)}\n`));
      child.on('close', (code, killedBy) => {
        clearTimeout(killer);
        signal.removeEventListener('abort', abort);
        if (killedBy) killProcessGroup(child.pid);
        resolvePromise(code ?? (killedBy && !signal.aborted ? KILLED : 1));
      });
    });
  return (run) => onceMoreIfKilled(() => once(run), run.onOutput);
}

/** Whether a runner (`host:pid`) named a process of this machine that no longer exists. */
export function runnerIsGone(runner: string): boolean {
  const [host, pid] = runner.split(':');
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes build folders that are neither live, nor running, nor among the last `keep` successful ones. */
export async function pruneBuilds(db: Kysely<Database>, places: Places, keep: number, protect: string[]): Promise<string[]> {
  if (!existsSync(places.buildsDir)) return [];
  const builds = await listBuilds(db, 500);
  const kept = new Set([
    ...protect,
    ...builds
      .filter((b) => b.status === 'succeeded')
      .slice(0, keep)
      .map((b) => b.id),
  ]);
  const live = readLive(places.buildsDir);
  if (live) kept.add(live.id);
  // The build whose server code the app processes run (a content-only switch kept them).
  if (live?.server) kept.add(live.server);
  for (const b of builds) if (b.status === 'running' || b.status === 'queued') kept.add(b.id);
  const removed: string[] = [];
  for (const name of readdirSync(places.buildsDir)) {
    if (!BUILD_ID_PATTERN.test(name) || kept.has(name)) continue;
    rmSync(join(places.buildsDir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

export function createPublisher(options: PublisherOptions): Publisher {
  const { db, clock, places } = options;
  const runner = options.runner ?? `${hostname()}:${process.pid}`;
  const build = options.build ?? spawnBuild(places);
  const pollMs = options.pollMs ?? 2000;
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const log = options.log ?? { info: () => {}, error: () => {} };
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let current: { controller: AbortController; done: Promise<void> } | undefined;
  /** The passes under way (a poke can start one beside another), awaited by stop(): one stopped between its queries must not start a build after. */
  const passes = new Set<Promise<void>>();
  // A build marked as this runner's while this publisher runs none is a previous life's (a restart
  // that got the same pid, as in a container); others are gone when their process is.
  const isGone = (other: string) => (other === runner ? current === undefined : runnerIsGone(other));

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped)
      timer = setTimeout(
        () => {
          const pass = tick().finally(() => passes.delete(pass));
          passes.add(pass);
        },
        Math.max(0, ms),
      );
  };

  async function tick(): Promise<void> {
    if (stopped || current) return;
    try {
      // A build interrupted by a process that stopped or died (on another machine: found by its
      // heartbeat) goes first, under its own id; then the waiting one.
      const resumed = await resumeInterrupted(db, runner, clock.now(), { staleMs: options.staleMs ?? 60_000, isGone });
      if (resumed) log.info('build.resumed', { build: resumed.id });
      const claimed = resumed ?? (stopped ? undefined : await claimBuild(db, runner, clock.now()));
      if (claimed && stopped) {
        // Stopped while claiming: given back at once, for the next process.
        await releaseBuild(db, claimed, runner, claimed.log ?? '');
        return;
      }
      if (!claimed) {
        const due = await nextDue(db);
        schedule(due ? Math.min(pollMs, due.getTime() - clock.now().getTime()) : pollMs);
        return;
      }
      const controller = new AbortController();
      const done = run(claimed, controller, resumed !== undefined).catch((error: unknown) =>
        log.error('build.crashed', { build: claimed.id, error: String(error) }),
      );
      current = { controller, done };
      await done;
      current = undefined;
      schedule(0);
    } catch (error) {
      current = undefined;
      log.error('publisher.tick_failed', { error: String(error) });
      schedule(pollMs);
    }
  }

  async function run(claimed: SiteBuildRow, controller: AbortController, resumed: boolean): Promise<void> {
    const dir = buildDir(places, claimed.id);
    const liveId = readLive(places.buildsDir)?.id ?? DIST_BUILD_ID;
    const previousDir = buildDir(places, liveId);
    const output = new LogTail();
    if (resumed) {
      output.push(`${claimed.log ?? ''}\n— Construction reprise après l\u2019arrêt du serveur qui la menait —\n`);
      // Its process stopped after the front had made it live: it did succeed.
      if (liveId === claimed.id && isCompleteBuild(dir)) {
        await finishBuild(
          db,
          claimed,
          runner,
          { status: 'succeeded', pages: countPages(join(dir, 'client')), contentVersion: claimed.content_version, log: output.toString() },
          clock.now(),
        );
        log.info('build.live', { build: claimed.id, resumed: true });
        return;
      }
      // What the interrupted run left in its folder.
      rmSync(dir, { recursive: true, force: true });
    }
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    const beat = setInterval(() => {
      void heartbeat(db, claimed.id, runner, clock.now())
        .then(() =>
          db
            .updateTable('site_builds')
            .set({ log: output.toString() })
            .where('id', '=', claimed.id)
            .where('runner', '=', runner)
            .where('status', '=', 'running')
            .execute(),
        )
        .catch(() => {});
    }, heartbeatMs);
    log.info('build.started', { build: claimed.id, requests: claimed.requests });
    try {
      let contentVersion = options.contentDir ? contentDigest(options.contentDir) : null;
      let followUp = false;
      const code = await build({
        id: claimed.id,
        dir,
        previous: isCompleteBuild(previousDir) ? previousDir : undefined,
        signal: controller.signal,
        onOutput: (chunk) => output.push(chunk),
        onFollowUp: () => (followUp = true),
      });
      if (controller.signal.aborted && !timedOut) {
        // Stopped with the process: back in the queue, for the next process.
        rmSync(dir, { recursive: true, force: true });
        await releaseBuild(db, claimed, runner, output.toString());
        log.info('build.released', { build: claimed.id });
        return;
      }
      let failure: string | undefined;
      if (timedOut) failure = `La construction a dépassé ${Math.round(options.timeoutMs / 60_000)} min et a été arrêtée.`;
      else if (code !== 0) failure = editorFailure(output.toString());
      else if (!isCompleteBuild(dir)) failure = 'La construction s\u2019est terminée sans produire de site complet.';
      if (!failure) {
        try {
          await options.switchTo(claimed.id);
        } catch (error) {
          failure = `La nouvelle version n\u2019a pas pu être mise en ligne : ${(error as Error).message}`;
        }
      }
      if (failure) {
        output.push(`\n${failure}\n`);
        await finishBuild(db, claimed, runner, { status: 'failed', error: failure, log: output.toString() }, clock.now());
        rmSync(dir, { recursive: true, force: true });
        log.error('build.failed', { build: claimed.id, error: failure, cause: code !== 0 ? failureOf(output.toString()) : undefined });
        return;
      }
      const pages = countPages(join(dir, 'client'));
      contentVersion ??= options.cacheDir ? dataStoreDigest(options.cacheDir) : null;
      await finishBuild(db, claimed, runner, { status: 'succeeded', pages, contentVersion, log: output.toString() }, clock.now());
      log.info('build.live', { build: claimed.id, pages });
      if (followUp) {
        const queued = await requestBuild(db, { trigger: 'follow-up', now: clock.now(), debounceMs: 0 });
        log.info('build.follow_up', { build: claimed.id, next: queued.id });
      }
      const removed = await pruneBuilds(db, places, options.keep, [claimed.id]);
      if (removed.length > 0) log.info('build.pruned', { builds: removed });
    } finally {
      clearTimeout(timeout);
      clearInterval(beat);
    }
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    poke() {
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (current) {
        current.controller.abort();
        await current.done;
      }
      await Promise.all(passes);
    },
  };
}

export const resolveContentDir = (root: string): string => resolve(root, process.env['CONTENT_DIR'] ?? 'src/content');
