/**
 * The protocol between the site's processes, in one place: what one process sends another (IPC
 * messages, socket lines), where it listens, the headers the front adds to a request and the
 * environment variables a process is started with. Every process of `npm start` speaks it:
 *
 *   front (front.ts) ──fork, IPC──▶ app processes (app.ts, each on a private Unix socket)
 *        │                              │  the app side: src/server/editorial/front-link.ts,
 *        │                              │  src/server/runtime.ts (`wake`)
 *        │                              └──Unix socket (builderSocket)──▶ resident builder (builder.ts)
 *        └── HTTP to the app socket, with CLIENT_HEADER and NO_FILE_HEADER
 *
 * This module is a leaf: it imports nothing of ours, so that both sides can use it, the host
 * (run by Node as is) and the server code in Astro's bundle (src/server, src/integrations).
 * It is the only file of src/host that src/server may import (.dependency-cruiser.cjs).
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ── Headers the front adds to the request it passes to an app process ──────────────────────────

/** The reader's address, as the front found it (its trusted proxies applied). Removed before the app sees the request. */
export const CLIENT_HEADER = 'x-contrechamp-client';
/** Set by the front on a request it looked up in the build's files and found no file for: the app renders the page at once (src/host/app.ts). */
export const NO_FILE_HEADER = 'x-contrechamp-no-file';

// ── Environment variables one process starts another with ───────────────────────────────────────

/** The environment the front gives each app process. */
export const APP_ENV = {
  /** The build's folder (`<BUILDS_DIR>/<id>` or dist/). */
  buildDir: 'APP_BUILD_DIR',
  /** The Unix socket it listens on. */
  socket: 'APP_SOCKET',
  /** The build's id, shown to editors. */
  liveBuildId: 'LIVE_BUILD_ID',
  /** Its place among the build's app processes (0: the background writer). */
  index: 'APP_INDEX',
  /** How many app processes serve the build. */
  processes: 'APP_PROCESSES',
  /** The project's folder. */
  root: 'CONTRECHAMP_ROOT',
  /** Where builds go. */
  buildsDir: 'BUILDS_DIR',
} as const;

/** The environment the publisher (src/server/editorial/resident.ts) gives the resident builder. */
export const BUILDER_ENV = {
  socket: 'BUILDER_SOCKET',
  buildsDir: 'BUILDS_DIR',
  /** The pid of the process that owns it (the front): it exits when that one is gone. */
  owner: 'BUILDER_OWNER',
  /** `1`: make a first build at once, into the cache. */
  warm: 'BUILDER_WARM',
} as const;

/** Where a build's staged pages are finished after `astro build` (build-places.ts `StagedPages`, as JSON). */
export const STAGED_PAGES_ENV = 'CONTRECHAMP_STAGED_PAGES';

// ── Entry points: which file each kind of process runs (relative to the project's folder) ─────────

export const ENTRY = {
  /** `npm start`. */
  start: 'src/host/start.ts',
  /** One app process (started by the front). */
  app: 'src/host/app.ts',
  /** One full build in its own process: `--out <dir> --id <id> [--previous <dir>]`. */
  build: 'src/host/build.ts',
  /** The resident builder (started by the publisher). */
  builder: 'src/host/builder.ts',
  /** A worker thread that compresses files (src/integrations/precompress.mjs, publish-fast.ts). */
  compressWorker: 'src/host/compress-worker.ts',
} as const;

// ── The build processes' heap ──────────────────────────────────────────────────────────────────

/**
 * The heap limit of a build's Astro process, in MiB (`--max-old-space-size`). Without one, V8
 * sizes the heap from the machine's memory and lets it grow long before collecting: a
 * 10,000-story build reached 4.7 GB of resident memory, most of it garbage (docs/performance.md,
 * goal 5). BUILD_HEAP_MB overrides it (a much larger corpus may need more).
 */
export const DEFAULT_BUILD_HEAP_MIB = 2048;

export function buildHeapMiB(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env['BUILD_HEAP_MB']);
  return Number.isInteger(value) && value >= 256 ? value : DEFAULT_BUILD_HEAP_MIB;
}

// ── IPC between the front and its app processes ────────────────────────────────────────────────

/** What an app process sends the front. */
export type AppToFront =
  /** It answers its own health check: requests may come. */
  | { type: 'ready' }
  /** It took the build the front gave it (`FrontToApp` `content`). */
  | { type: 'content-ready'; id: string }
  /** The publisher asks to make a build live; answered by `switch-result` with the same requestId. */
  | { type: 'switch'; id: string; requestId: string }
  /** Work was queued: the build's background writer should look at its queue now. */
  | { type: 'wake'; what: WakeTarget };

/** What the front sends an app process. */
export type FrontToApp =
  /** A build of the same server code went live: take its folder and data, keep running. */
  | { type: 'content'; id: string; dir: string }
  | { type: 'switch-result'; requestId: string; ok: boolean; switched?: boolean; error?: string }
  /** Passed on to the background writer (index 0) from another app process. */
  | { type: 'wake'; what: WakeTarget };

export type WakeTarget = 'jobs' | 'publisher';

/** The message, when it is one of `type`'s (IPC messages arrive untyped). */
export function ipcMessage<M extends { type: string }, T extends M['type']>(message: unknown, type: T): Extract<M, { type: T }> | undefined {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type ? (message as Extract<M, { type: T }>) : undefined;
}

// ── The resident builder's socket ──────────────────────────────────────────────────────────────

/** The builder's socket: in the system's temporary folder (a socket's path is limited to ~100 bytes), one per builds folder. */
export function builderSocket(buildsDir: string): string {
  return join(tmpdir(), `contrechamp-builder-${createHash('sha256').update(buildsDir).digest('hex').slice(0, 16)}.sock`);
}

/** What the publisher writes on the builder's socket: one JSON line per build, built into `<BUILDS_DIR>/<id>`. */
export type BuilderRequest = { id: string };

/**
 * What the builder answers, one JSON line each: the build's log (`output`), `followUp` when later
 * list pages wait for the next build, and a last `code` (0: the folder holds a complete build).
 */
export type BuilderMessage = { output?: string; followUp?: boolean; code?: number };
