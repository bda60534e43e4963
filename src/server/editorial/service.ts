/**
 * The newsroom's use cases: publish (from the CMS, an editor or the shell), roll back, and what
 * /redaction shows. Pages and endpoints call these; the publisher (publisher.ts) does the work.
 */
import type { Kysely } from 'kysely';
import { config } from '../core/config';
import type { ServerDeps } from '../core/deps';
import type { BuildTrigger, Database, SiteBuildRow } from '../db/database';
import { hasFront, switchThroughFront } from './front-link';
import type { Places } from './publisher';
import { BUILD_ID_PATTERN, DIST_BUILD_ID, buildDir, isCompleteBuild, readLive } from './live';
import { type Queued, getBuild, listBuilds, listSwitches, recordSwitch, requestBuild } from './queue';

export const places = (): Places => ({ root: process.env['CONTRECHAMP_ROOT'] ?? process.cwd(), buildsDir: config().publishing.buildsDir });

/** Set by runtime.ts: wakes this process's publisher after a publication. */
let wake: () => void = () => {};
export function setPublisherWake(fn: () => void): void {
  wake = fn;
}

/** A publication: queues a build (or joins the waiting one). « Publier maintenant » skips the debounce. */
export async function publish(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { trigger: BuildTrigger; userId?: string | null; immediately?: boolean },
): Promise<Queued> {
  const queued = await requestBuild(deps.db, {
    trigger: input.trigger,
    userId: input.userId ?? null,
    now: deps.clock.now(),
    debounceMs: input.immediately ? 0 : config().publishing.debounceMs,
  });
  wake();
  return queued;
}

export type RollbackResult = { ok: true } | { ok: false; status: 404 | 409 | 503; message: string };

/** Makes an earlier build live again: one that succeeded and is still kept, or the start-up build. */
export async function rollback(
  deps: Pick<ServerDeps, 'db' | 'clock'>,
  input: { buildId: string; userId: string },
  where: Places = places(),
  switchTo: (id: string) => Promise<void> = switchThroughFront,
): Promise<RollbackResult> {
  const id = input.buildId;
  if (id !== DIST_BUILD_ID) {
    if (!BUILD_ID_PATTERN.test(id)) return { ok: false, status: 404, message: 'Cette version n\u2019existe pas.' };
    const row = await getBuild(deps.db, id);
    if (!row || row.status !== 'succeeded') return { ok: false, status: 404, message: 'Cette version n\u2019existe pas ou n\u2019a pas abouti.' };
  }
  if (!isCompleteBuild(buildDir(where, id))) return { ok: false, status: 409, message: 'Cette version n\u2019est plus conservée sur le serveur.' };
  if (readLive(where.buildsDir)?.id === id) return { ok: false, status: 409, message: 'Cette version est déjà en ligne.' };
  if (switchTo === switchThroughFront && !hasFront())
    return { ok: false, status: 503, message: 'Ce serveur n\u2019a pas été lancé par npm start : il ne peut pas changer de version.' };
  try {
    await switchTo(id);
  } catch (error) {
    return { ok: false, status: 503, message: `La version n\u2019a pas pu être remise en ligne : ${(error as Error).message}` };
  }
  await recordSwitch(deps.db, id, 'rollback', input.userId, deps.clock.now());
  return { ok: true };
}

export interface NewsroomState {
  live: { id: string; since: string | undefined; build: SiteBuildRow | undefined };
  queued: SiteBuildRow | undefined;
  running: SiteBuildRow | undefined;
  history: SiteBuildRow[];
  /** Builds one can go back to (kept on disk, succeeded, not live). */
  kept: Set<string>;
  distKept: boolean;
  switches: Awaited<ReturnType<typeof listSwitches>>;
  /** False under `astro dev` or any server not started by `npm start`: builds wait for one that is. */
  canSwitch: boolean;
}

export async function newsroomState(db: Kysely<Database>, where: Places = places()): Promise<NewsroomState> {
  const pointer = readLive(where.buildsDir);
  const liveId = pointer?.id ?? process.env['LIVE_BUILD_ID'] ?? DIST_BUILD_ID;
  const history = await listBuilds(db, 30);
  const kept = new Set(history.filter((b) => b.status === 'succeeded' && b.id !== liveId && isCompleteBuild(buildDir(where, b.id))).map((b) => b.id));
  return {
    live: {
      id: liveId,
      since: pointer?.since,
      build: liveId === DIST_BUILD_ID ? undefined : (history.find((b) => b.id === liveId) ?? (await getBuild(db, liveId))),
    },
    queued: history.find((b) => b.status === 'queued'),
    running: history.find((b) => b.status === 'running'),
    history,
    kept,
    distKept: liveId !== DIST_BUILD_ID && isCompleteBuild(buildDir(where, DIST_BUILD_ID)),
    switches: await listSwitches(db, 10),
    canSwitch: hasFront(),
  };
}
