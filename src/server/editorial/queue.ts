/**
 * The build queue, in the database (`site_builds`): at most one build waits (`queued`) and at most
 * one runs (`running`), which two partial unique indexes guarantee on both dialects.
 *
 * - A publication while a build waits joins it and pushes its start back (the debounce), but never
 *   further than `maxWaitMs` after the first one: a burst gives one build, a steady trickle still
 *   gets published.
 * - A publication while a build runs queues exactly one more (the waiting one).
 * - A build left `running` by a process that died, or given back by one that stopped, keeps its
 *   id: the next publisher takes it over and runs it again, so that a CMS or `npm run rebuild
 *   -- --wait` following that id sees how the publication really ended. It stays `running` in
 *   between (never failed, never a new row), and goes before the build that waits.
 */
import type { Kysely, Transaction } from 'kysely';
import { type BuildTrigger, type Database, type SiteBuildRow, newId, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { newBuildId } from './live';

export interface BuildRequest {
  trigger: BuildTrigger;
  userId?: string | null;
  now: Date;
  /** Wait this long for more publications (0 for « Publier maintenant »). */
  debounceMs: number;
  /** Never wait longer than this after the first publication. */
  maxWaitMs?: number;
  /** Publications this request stands for (a resumed build carries its own). */
  requests?: number;
}

export interface Queued {
  id: string;
  notBefore: Date;
  /** True when the publication joined a build that was already waiting. */
  joined: boolean;
}

const MAX_WAIT_MS = 20_000;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(String(e?.message));
}

async function queueIn(trx: Transaction<Database>, request: BuildRequest): Promise<Queued> {
  const waiting = await trx.selectFrom('site_builds').selectAll().where('status', '=', 'queued').executeTakeFirst();
  const wanted = request.now.getTime() + request.debounceMs;
  if (waiting) {
    const cap = new Date(waiting.queued_at).getTime() + (request.maxWaitMs ?? MAX_WAIT_MS);
    const notBefore = new Date(Math.max(request.now.getTime(), Math.min(wanted, cap)));
    await trx
      .updateTable('site_builds')
      .set((eb) => ({ requests: eb('requests', '+', request.requests ?? 1), not_before: toTimestamp(notBefore) }))
      .where('id', '=', waiting.id)
      .where('status', '=', 'queued')
      .execute();
    return { id: waiting.id, notBefore, joined: true };
  }
  const id = newBuildId(request.now);
  const notBefore = new Date(wanted);
  await trx
    .insertInto('site_builds')
    .values({
      id,
      status: 'queued',
      trigger: request.trigger,
      requested_by: request.userId ?? null,
      requests: request.requests ?? 1,
      queued_at: toTimestamp(request.now),
      not_before: toTimestamp(notBefore),
    })
    .execute();
  return { id, notBefore, joined: false };
}

/** Asks for a build: joins the waiting one, or queues one. */
export async function requestBuild(db: Kysely<Database>, request: BuildRequest): Promise<Queued> {
  try {
    return await writeTransaction(db, (trx) => queueIn(trx, request));
  } catch (error) {
    // Two processes queued at once (PostgreSQL): the other one's build is there now; join it.
    if (!isUniqueViolation(error)) throw error;
    return writeTransaction(db, (trx) => queueIn(trx, request));
  }
}

/** Takes the waiting build if it is due and none runs; undefined otherwise. */
export async function claimBuild(db: Kysely<Database>, runner: string, now: Date): Promise<SiteBuildRow | undefined> {
  try {
    return await writeTransaction(db, async (trx) => {
      const running = await trx.selectFrom('site_builds').select('id').where('status', '=', 'running').executeTakeFirst();
      if (running) return undefined;
      return trx
        .updateTable('site_builds')
        .set({ status: 'running', started_at: toTimestamp(now), heartbeat_at: toTimestamp(now), runner })
        .where('status', '=', 'queued')
        .where('not_before', '<=', toTimestamp(now))
        .returningAll()
        .executeTakeFirst();
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

/** When the waiting build is due, if there is one. */
export async function nextDue(db: Kysely<Database>): Promise<Date | undefined> {
  const row = await db.selectFrom('site_builds').select('not_before').where('status', '=', 'queued').executeTakeFirst();
  return row ? new Date(row.not_before) : undefined;
}

export async function heartbeat(db: Kysely<Database>, id: string, runner: string, now: Date): Promise<void> {
  await db
    .updateTable('site_builds')
    .set({ heartbeat_at: toTimestamp(now) })
    .where('id', '=', id)
    .where('runner', '=', runner)
    .where('status', '=', 'running')
    .execute();
}

export type Outcome = { status: 'succeeded'; pages: number; contentVersion: string | null; log: string } | { status: 'failed'; error: string; log: string };

/**
 * Records how a build ended (only by the process running it). A success records the switch to it in
 * the same transaction. Returns false when the build was no longer this runner's.
 */
export async function finishBuild(
  db: Kysely<Database>,
  build: Pick<SiteBuildRow, 'id' | 'started_at'>,
  runner: string,
  outcome: Outcome,
  now: Date,
): Promise<boolean> {
  const started = build.started_at ? new Date(build.started_at).getTime() : now.getTime();
  return writeTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('site_builds')
      .set({
        status: outcome.status,
        finished_at: toTimestamp(now),
        duration_ms: Math.max(0, now.getTime() - started),
        log: outcome.log,
        ...(outcome.status === 'succeeded' ? { pages: outcome.pages, content_version: outcome.contentVersion } : { error: outcome.error }),
      })
      .where('id', '=', build.id)
      .where('runner', '=', runner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return false;
    if (outcome.status === 'succeeded')
      await trx
        .insertInto('site_switches')
        .values({ id: newId(), build_id: build.id, kind: 'publish', user_id: null, at: toTimestamp(now) })
        .execute();
    return true;
  });
}

/**
 * A build given back unfinished (the process stops): it stays `running`, without a runner, so that
 * the next publisher takes it over under the same id (`resumeInterrupted`) before the waiting one.
 */
export async function releaseBuild(db: Kysely<Database>, build: Pick<SiteBuildRow, 'id'>, runner: string, log: string): Promise<void> {
  await db
    .updateTable('site_builds')
    .set({ runner: null, heartbeat_at: null, log })
    .where('id', '=', build.id)
    .where('runner', '=', runner)
    .where('status', '=', 'running')
    .execute();
}

/**
 * Takes over the build left `running` by a process that is gone (its heartbeat older than
 * `staleMs`, its process no longer alive on this machine, or given back by `releaseBuild`): the
 * same row, the same id, now this runner's, started again. Undefined when there is none. Only one
 * of several publishers gets it: the update holds only while the row is as they read it.
 */
export async function resumeInterrupted(
  db: Kysely<Database>,
  runner: string,
  now: Date,
  options: { staleMs: number; isGone: (runner: string) => boolean },
): Promise<SiteBuildRow | undefined> {
  const build = await db.selectFrom('site_builds').selectAll().where('status', '=', 'running').executeTakeFirst();
  if (!build) return undefined;
  const released = !build.runner || !build.heartbeat_at;
  const stale = !build.heartbeat_at || now.getTime() - new Date(build.heartbeat_at).getTime() > options.staleMs;
  if (!released && !stale && !(build.runner && options.isGone(build.runner))) return undefined;
  return db
    .updateTable('site_builds')
    .set({ runner, started_at: toTimestamp(now), heartbeat_at: toTimestamp(now) })
    .where('id', '=', build.id)
    .where('status', '=', 'running')
    .where((eb) => (build.runner === null ? eb('runner', 'is', null) : eb('runner', '=', build.runner)))
    .where((eb) => (build.heartbeat_at === null ? eb('heartbeat_at', 'is', null) : eb('heartbeat_at', '=', build.heartbeat_at)))
    .returningAll()
    .executeTakeFirst();
}

/** A rollback (or any switch made by hand), recorded once the front has switched. */
export async function recordSwitch(db: Kysely<Database>, buildId: string, kind: 'publish' | 'rollback', userId: string | null, now: Date): Promise<void> {
  await db
    .insertInto('site_switches')
    .values({ id: newId(), build_id: buildId, kind, user_id: userId, at: toTimestamp(now) })
    .execute();
}

export async function listBuilds(db: Kysely<Database>, limit = 30): Promise<SiteBuildRow[]> {
  return db.selectFrom('site_builds').selectAll().orderBy('queued_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function getBuild(db: Kysely<Database>, id: string): Promise<SiteBuildRow | undefined> {
  return db.selectFrom('site_builds').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listSwitches(db: Kysely<Database>, limit = 20) {
  return db
    .selectFrom('site_switches')
    .leftJoin('users', 'users.id', 'site_switches.user_id')
    .select(['site_switches.id', 'site_switches.build_id', 'site_switches.kind', 'site_switches.at', 'users.email as user_email'])
    .orderBy('site_switches.at', 'desc')
    .limit(limit)
    .execute();
}
