/**
 * The publisher's side of the resident builder (scripts/site/builder.mjs): builds are asked of it
 * on a Unix socket, and it is started when none answers. It outlives the app processes (a switch
 * replaces them), not the front that owns them: it exits when the front is gone.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildHeapMiB } from '../../../scripts/site/build-heap.mjs';
import type { BuildFn, Places } from './publisher';

/** The builder's socket: in the system's temporary folder (a socket's path is limited to ~100 bytes), one per builds folder. */
export function builderSocket(buildsDir: string): string {
  return join(tmpdir(), `contrechamp-builder-${createHash('sha256').update(buildsDir).digest('hex').slice(0, 16)}.sock`);
}

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
export function startBuilder(places: Places, warm: boolean): void {
  mkdirSync(places.buildsDir, { recursive: true });
  const logFile = join(places.buildsDir, 'builder.log');
  // One older log is kept.
  if ((statSync(logFile, { throwIfNoEntry: false })?.size ?? 0) > LOG_ROTATE_BYTES) renameSync(logFile, `${logFile}.1`);
  const output = openSync(logFile, 'a');
  // It holds a build's state between builds: more heap than a one-off build.
  const child = spawn(process.execPath, [`--max-old-space-size=${buildHeapMiB() + 1024}`, join(places.root, 'scripts', 'site', 'builder.mjs')], {
    cwd: places.root,
    detached: true,
    stdio: ['ignore', output, output],
    env: {
      ...process.env,
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      BUILDS_DIR: places.buildsDir,
      BUILDER_SOCKET: builderSocket(places.buildsDir),
      // The front: the app processes come and go with the builds, the front stays.
      BUILDER_OWNER: String(process.ppid),
      BUILDER_WARM: warm ? '1' : '',
    },
  });
  child.unref();
  closeSync(output);
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
  startBuilder(places, false);
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const socket = await tryConnect(path);
    if (socket) return socket;
  }
  throw new Error(`le constructeur résident n’a pas répondu en ${CONNECT_TIMEOUT_MS / 1000} s (voir ${join(places.buildsDir, 'builder.log')})`);
}

/** Builds through the resident builder; the signal stops the build (and the builder with it). */
export function residentBuild(places: Places): BuildFn {
  return ({ id, signal, onOutput, onFollowUp }) =>
    new Promise((resolve) => {
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
                const message = JSON.parse(line) as { output?: string; code?: number; followUp?: boolean };
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
            if (code === undefined) onOutput('\nLe constructeur résident s’est arrêté pendant la construction.\n');
            resolve(code ?? 1);
          });
          socket.write(`${JSON.stringify({ id })}\n`);
        },
        (error: unknown) => {
          onOutput(`\n${String(error)}\n`);
          resolve(1);
        },
      );
    });
}
