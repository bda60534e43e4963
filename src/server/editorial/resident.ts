/**
 * The publisher's side of the resident builder (src/host/builder.ts): builds are asked of it
 * on a Unix socket, and it is started when none answers. It outlives the app processes (a switch
 * replaces them), not the front that owns them: it exits when the front is gone.
 *
 * A publication never depends on it: when the builder cannot start (its entry point missing or
 * failing to load, no answer in time) or dies during a build, the same build runs as a full
 * build in a process of its own (`fallback`, src/host/build.ts), and the build's log says
 * why on its first line of that part.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { BUILDER_ENV, ENTRY, buildHeapMiB, builderSocket, type BuilderMessage, type BuilderRequest } from '../../host/protocol';
import { spawnBuild, type BuildFn, type Places } from './publisher';

export { builderSocket };

const CONNECT_TIMEOUT_MS = 30_000;
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

function tryConnect(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}

/** Starts a builder, detached, its output in `<buildsDir>/builder.log`. */
export function startBuilder(places: Places, warm: boolean): ChildProcess {
  mkdirSync(places.buildsDir, { recursive: true });
  const logFile = join(places.buildsDir, 'builder.log');
  // One older log is kept.
  if ((statSync(logFile, { throwIfNoEntry: false })?.size ?? 0) > LOG_ROTATE_BYTES) renameSync(logFile, `${logFile}.1`);
  const output = openSync(logFile, 'a');
  // It holds a build's state between builds: more heap than a one-off build.
  const child = spawn(process.execPath, [`--max-old-space-size=${buildHeapMiB() + 1024}`, join(places.root, ENTRY.builder)], {
    cwd: places.root,
    detached: true,
    stdio: ['ignore', output, output],
    env: {
      ...process.env,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      [BUILDER_ENV.buildsDir]: places.buildsDir,
      [BUILDER_ENV.socket]: builderSocket(places.buildsDir),
      // The front: the app processes come and go with the builds, the front stays.
      [BUILDER_ENV.owner]: String(process.ppid),
      [BUILDER_ENV.warm]: warm ? '1' : '',
    },
  });
  child.unref();
  closeSync(output);
  return child;
}

/** With RESIDENT_BUILDER=warm: a builder started with the server, unless one already runs. */
export async function ensureBuilder(places: Places): Promise<void> {
  const socket = await tryConnect(builderSocket(places.buildsDir));
  if (socket) socket.destroy();
  else startBuilder(places, true);
}

/** A connection to the builder, starting one when none answers. */
async function builder(places: Places): Promise<Socket> {
  const path = builderSocket(places.buildsDir);
  const first = await tryConnect(path);
  if (first) return first;
  const child = startBuilder(places, false);
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = signal ?? `code ${code}`));
  child.once('error', (error) => (exited = error.message));
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const socket = await tryConnect(path);
    if (socket) return socket;
    if (exited) throw new Error(`le constructeur résident s’est arrêté au démarrage (${exited} ; voir ${join(places.buildsDir, 'builder.log')})`);
  }
  throw new Error(`le constructeur résident n’a pas répondu en ${CONNECT_TIMEOUT_MS / 1000} s (voir ${join(places.buildsDir, 'builder.log')})`);
}

/**
 * How long a full build waits after the builder died during a build: its own child build
 * (src/host/build.ts) notices within a second that its parent is gone and stops within
 * five, and must not write into the staging folder behind the fallback.
 */
export const ORPHAN_STOP_MS = 7000;

/**
 * Builds through the resident builder; the signal stops the build (and the builder with it).
 * A builder that cannot start or dies during the build hands the build to `fallback`.
 */
export function residentBuild(places: Places, fallback: BuildFn = spawnBuild(places), orphanStopMs = ORPHAN_STOP_MS): BuildFn {
  return (run) =>
    new Promise((resolve) => {
      const { id, signal, onOutput, onFollowUp } = run;
      const fallBack = (why: string, wait: number) => {
        onOutput(`\n[build] constructeur résident indisponible (${why}) : construction complète dans un processus à part\n`);
        setTimeout(() => resolve(signal.aborted ? 1 : fallback(run)), wait);
      };
      builder(places).then(
        (socket) => {
          let code: number | undefined;
          let buffer = '';
          const abort = () => socket.destroy();
          if (signal.aborted) abort();
          else signal.addEventListener('abort', abort, { once: true });
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => {
            buffer += chunk;
            let end: number;
            while ((end = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, end);
              buffer = buffer.slice(end + 1);
              try {
                const message = JSON.parse(line) as BuilderMessage;
                if (typeof message.output === 'string') onOutput(message.output);
                if (message.followUp === true) onFollowUp?.();
                if (typeof message.code === 'number') code = message.code;
              } catch {
                onOutput(`${line}\n`);
              }
            }
          });
          socket.on('error', () => {});
          socket.on('close', () => {
            signal.removeEventListener('abort', abort);
            if (code === undefined && !signal.aborted) fallBack('il s’est arrêté pendant la construction', orphanStopMs);
            else resolve(code ?? 1);
          });
          const request: BuilderRequest = { id };
          socket.write(`${JSON.stringify(request)}\n`);
        },
        (error: unknown) => fallBack(error instanceof Error ? error.message : String(error), 0),
      );
    });
}
