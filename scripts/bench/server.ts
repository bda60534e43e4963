/**
 * The server a benchmark measures: `npm start` (src/host/start.ts) on a free port of the loopback,
 * with a data folder of its own (a temporary one unless given), in demo mode and without the
 * resident builder unless told otherwise.
 * `npm start` builds dist/ first when it was not made from the current sources and settings, as it
 * does for anyone (SITE_URL is left unset unless given, so that every benchmark and every run
 * share one build: the runtime then takes `http://localhost:PORT` as the site's address).
 *
 * Used by the benchmarks that start a server (account-pages.ts, static.mjs, js.mjs,
 * lighthouse.mjs, publish.mjs, host.ts). Plain TypeScript that Node 24 runs as is (type stripping),
 * so that the `.mjs` benchmarks import it too.
 *
 *   const server = await startServer({ env: { PUBLIC_PLAUSIBLE_DOMAIN: 'contrechamp.media' } });
 *   const cookie = await server.signIn('abonne@exemple.fr');   // `cc_session=…; …`
 *   await server.stop();                                        // SIGTERM, waits, removes the data folder
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');

/** The demo accounts' password (src/server/demo/seed.ts). */
export const DEMO_PASSWORD = 'motdepasse-demo';

/** A port nobody listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
      .once('error', fail)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => done(port));
      });
  });
}

export type ServerOptions = {
  /** Added to (and overriding) the environment: APP_MODE, CONTENT_DIR, PUBLIC_*… */
  env?: Record<string, string | undefined>;
  /** Arguments of start.ts (`--no-build`). */
  args?: string[];
  /** Node's own flags for the server's process (`--cpu-prof`; app processes inherit them). */
  nodeArgs?: string[];
  /** The data folder; a temporary one by default, removed by stop(). A given one is kept. */
  dataDir?: string;
  /** The port; a free one by default. */
  port?: number;
  /** The address it listens on (HOST): 127.0.0.1 by default; `base` names it. */
  host?: string;
  /** Its own process group, so that kill() reaches the front and every app process at once. */
  detached?: boolean;
  /** What the server prints: shown (stderr only, as the benchmarks always did), or kept for log(). */
  output?: 'stderr' | 'capture';
  /** How long to wait for the first answer of /api/health (the first start builds): 20 min. */
  timeoutMs?: number;
};

export type BenchServer = {
  /** `http://127.0.0.1:PORT` (or the host given) */
  base: string;
  port: number;
  dataDir: string;
  /** The pid of start.ts (the front process): its app processes are its children. */
  pid: number;
  process: ChildProcess;
  /** What the server printed so far (output: 'capture'). */
  log(): string;
  /** Signs an account in through POST /api/auth/login; resolves to a Cookie header for it. */
  signIn(email?: string, password?: string): Promise<string>;
  /** Sends a signal to the server (to its whole process group when detached), resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM, then waits for the server to exit (SIGKILL after 30 s); removes a temporary data folder. */
  stop(): Promise<void>;
};

/** Starts `npm start`, resolves once /api/health answers 200. */
export async function startServer(options: ServerOptions = {}): Promise<BenchServer> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'contrechamp-bench-'));
  const port = options.port ?? (await freePort());
  const host = options.host ?? '127.0.0.1';
  const base = `http://${host}:${port}`;
  const env: Record<string, string | undefined> = { ...process.env, SITE_URL: undefined };
  // No resident builder unless asked (publish.mjs): in production mode it would make a first build
  // in the background (RESIDENT_BUILDER=warm), sharing the CPU with what the benchmark measures
  // and writing into the data folder after the server has stopped.
  Object.assign(env, { PORT: String(port), HOST: host, DATA_DIR: dataDir, APP_MODE: 'demo', RESIDENT_BUILDER: 'off' }, options.env);
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const capture = options.output === 'capture';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(root, 'src/host/start.ts'), ...(options.args ?? [])], {
    cwd: root,
    detached: options.detached ?? false,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', capture ? 'pipe' : 'ignore', capture ? 'pipe' : 'inherit'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stopped = false;
  const onExit = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      if (options.detached) process.kill(-child.pid!, 'SIGTERM');
      else child.kill('SIGTERM');
    } catch {
      // Gone already.
    }
  };
  // A benchmark that throws or is interrupted still stops its server.
  process.once('exit', onExit);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => void kill('SIGKILL'), 30_000);
      await kill('SIGTERM');
      clearTimeout(timer);
    }
    if (temporary) rmSync(dataDir, { recursive: true, force: true });
  };

  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      if (options.detached) process.kill(-child.pid!, signal);
      else child.kill(signal);
    } catch {
      // Gone already.
    }
    await exited;
  };

  const deadline = Date.now() + (options.timeoutMs ?? 20 * 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`npm start exited (${child.exitCode ?? child.signalCode}) before answering\n${output.slice(-3000)}`);
    }
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // Not up yet (the first start builds).
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not answer ${base}/api/health in time\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  // The runtime's own address (SITE_URL unset: localhost and the port) is the origin its forms accept.
  const origin = options.env?.['SITE_URL'] ? new URL(options.env['SITE_URL']).origin : `http://localhost:${port}`;
  const signIn = (email?: string, password?: string) => signInAt(base, origin, email, password);

  return { base, port, dataDir, pid: child.pid!, process: child, log: () => output, signIn, kill, stop };
}

/**
 * Signs an account in through POST /api/auth/login of the server at `base` (whose forms accept
 * `origin`); resolves to a Cookie header for it. Demo accounts: `abonne@`, `societaire@`,
 * `lecteur@`, `redaction@`, `administration@exemple.fr`.
 */
export async function signInAt(base: string, origin: string, email = 'abonne@exemple.fr', password = DEMO_PASSWORD): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify({ email, password, rememberMe: true }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email} answered ${response.status}: ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]!);
  if (!cookies.some((c) => c.startsWith('cc_session='))) throw new Error(`sign-in of ${email} set no session cookie`);
  return cookies.join('; ');
}
