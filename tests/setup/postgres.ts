/**
 * Vitest global setup: a throwaway PostgreSQL server on loopback for the database suites.
 *
 * - TEST_POSTGRES_URL already set (a CI service, a developer's server): used as is.
 * - Otherwise, when `initdb` and `pg_ctl` are installed, a cluster is created in a temporary
 *   folder (trust auth, fsync off, a free port on 127.0.0.1), started, and removed at the end.
 *   PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 * - Otherwise the PostgreSQL suites are skipped, with one line saying so; under CI (env `CI`) the
 *   run fails instead, since CI is expected to install PostgreSQL.
 *
 * Tests read the server's address with `inject('postgresUrl')` (see tests/helpers/db.ts), each
 * suite working in its own fresh database on it.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Server for the PostgreSQL suites (superuser, `postgres` database); null: skip them. */
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env.TEST_POSTGRES_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return undefined;
  }
  const bin = findPostgresBin();
  if (!bin) {
    if (process.env.CI) {
      throw new Error('PostgreSQL absent (initdb/pg_ctl introuvables) : en CI, il doit être installé (paquet postgresql).');
    }
    console.warn('PostgreSQL absent (initdb/pg_ctl introuvables) : les tests PostgreSQL sont ignorés.');
    project.provide('postgresUrl', null);
    return undefined;
  }

  const server = await startServer(bin);
  project.provide('postgresUrl', server.url);
  return server.stop;
}

function findPostgresBin(): string | undefined {
  const versioned = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  const path = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...versioned, '/usr/local/bin', ...path].find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function startServer(bin: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'contrechamp-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  // As root, the server runs as `postgres`; otherwise as the current user.
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
    execFileSync(file, argv, { stdio: 'pipe', cwd: dir });
  };

  const port = await freePort();
  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    const options = [
      '-c listen_addresses=127.0.0.1',
      `-c port=${port}`,
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    run('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '30', '-o', options]);
  } catch (error) {
    const serverLog = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
    const output = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Impossible de démarrer PostgreSQL pour les tests : ${output}\n${serverLog}`, { cause: error });
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
