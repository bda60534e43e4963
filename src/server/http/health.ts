/**
 * What `GET /api/health` answers: liveness (the process answers) and readiness (it can serve:
 * the database answers a trivial query, the build's static files are there), with the job
 * queue's counts and the newsroom's build queue beside them.
 *
 * Readiness decides the status: 200 when the database and the build are both fine, 503
 * otherwise, so that a load balancer or an orchestrator stops sending readers to an instance
 * that cannot serve them. The queue does not decide it (an instance taken out of rotation does
 * not make late jobs run); it is reported, `late` when a due job has waited more than
 * `LATE_AFTER_SECONDS` or a lease has ended with its job still running, for monitoring to alert on.
 *
 * Nothing private: no path, no address, no error text (a database error may quote a host or a
 * user name; it goes to the log, not to the answer), no job kind or payload. The build id is
 * already in every page (`<meta name="build-id">`).
 */
import { existsSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import type { Clock } from '../core/clock';
import { log } from '../core/log';
import type { Database } from '../db/database';
import { type QueueState, queueState } from '../jobs/queue';

/** A due job waiting longer than this (or a stalled one) makes the queue `late`. */
export const LATE_AFTER_SECONDS = 300;
/** A database that has not answered in this time counts as unreachable. */
export const DATABASE_TIMEOUT_MS = 3000;

/** `starting`: the process's first opening of the database (migrations, the demo's seed) is under way. */
export type CheckStatus = 'ok' | 'starting' | 'unavailable';

export interface HealthBody {
  /** `ok` when ready, `starting` while the first opening of the database runs, `unavailable` otherwise. */
  status: 'ok' | 'starting' | 'unavailable';
  /** Always true in an answer: a process that answers is alive. */
  live: true;
  ready: boolean;
  checks: {
    database: { status: CheckStatus };
    build: { status: 'ok'; id: string } | { status: 'missing' };
    queue: ({ status: 'ok' | 'late' } & QueueState) | { status: 'unavailable' };
    /** The newsroom's builds (src/server/editorial/): one waiting, one running. */
    publishing: { status: 'ok'; queued: number; running: number } | { status: 'unavailable' };
  };
}

export interface HealthInput {
  /** The process's database (opening and migrating it on first use); may reject. */
  database: () => Promise<Kysely<Database>>;
  clock: Clock;
  /** The folder of the build's static files (dist/client), undefined when it cannot be found. */
  clientDir: string | undefined;
  /** The id of the build this server is (the one in every page's `<meta name="build-id">`). */
  buildId: string;
  timeoutMs?: number;
  /**
   * True while the process has not finished opening its database the first time (migrations, and
   * in demo mode the demo's seed, which takes longer than the timeout): not answering then is
   * starting, told at info level, not an outage told at error level.
   */
  starting?: () => boolean;
}

/** No answer yet: as opposed to an answer that is an error. */
class NoAnswer extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswer(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A build is present when its static folder holds the home page. */
export function buildPresent(clientDir: string | undefined): boolean {
  return clientDir !== undefined && existsSync(join(clientDir, 'index.html'));
}

/**
 * The static folder of the running build: walks up from the server module's own file to the
 * build's `server/` folder (the one holding `entry.mjs`), whose sibling is `client/`, as the
 * Node adapter does. Undefined outside a build (development, tests).
 */
export function findClientDir(moduleUrl: string): string | undefined {
  if (!moduleUrl.startsWith('file:')) return undefined;
  let dir = dirname(fileURLToPath(moduleUrl));
  while (dir !== parse(dir).root) {
    if (existsSync(join(dir, 'entry.mjs'))) return join(dirname(dir), 'client');
    dir = dirname(dir);
  }
  return undefined;
}

export async function healthReport(input: HealthInput): Promise<{ status: 200 | 503; body: HealthBody }> {
  const timeoutMs = input.timeoutMs ?? DATABASE_TIMEOUT_MS;
  let db: Kysely<Database> | undefined;
  let starting = false;
  try {
    db = await withTimeout(
      input.database().then(async (opened) => {
        await sql`select 1`.execute(opened);
        return opened;
      }),
      timeoutMs,
    );
  } catch (error) {
    // Still migrating and seeding on a first start: not an error yet. A start that failed (a
    // setting refused, a migration that threw) is one, with its reason: it used to pass for a slow
    // start until `npm start` gave up, saying only that the app process had stopped.
    starting = error instanceof NoAnswer && (input.starting?.() ?? false);
    if (starting) log.info('health.database_starting', { timeoutMs });
    else log.error('health.database_unreachable', { error });
  }

  let queue: HealthBody['checks']['queue'] = { status: 'unavailable' };
  if (db) {
    try {
      const state = await withTimeout(queueState(db, input.clock.now()), timeoutMs);
      const late = state.stalled > 0 || state.oldestDueSeconds > LATE_AFTER_SECONDS;
      queue = { status: late ? 'late' : 'ok', ...state };
    } catch (error) {
      log.error('health.queue_unreadable', { error });
    }
  }

  let publishing: HealthBody['checks']['publishing'] = { status: 'unavailable' };
  if (db) {
    try {
      const rows = await withTimeout(
        db
          .selectFrom('site_builds')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .where('status', 'in', ['queued', 'running'])
          .groupBy('status')
          .execute(),
        timeoutMs,
      );
      const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      publishing = { status: 'ok', queued: count('queued'), running: count('running') };
    } catch (error) {
      log.error('health.publishing_unreadable', { error });
    }
  }

  const build: HealthBody['checks']['build'] = buildPresent(input.clientDir) ? { status: 'ok', id: input.buildId } : { status: 'missing' };
  const ready = db !== undefined && build.status === 'ok';
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? 'ok' : starting ? 'starting' : 'unavailable',
      live: true,
      ready,
      checks: { database: { status: db ? 'ok' : starting ? 'starting' : 'unavailable' }, build, queue, publishing },
    },
  };
}
