import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { fakeClock } from '../core/clock';
import { openDatabase } from '../db/client';
import { toTimestamp } from '../db/database';
import { writeLive } from './live';
import { type BuildFn, type BuildRun, createPublisher, failureOf, pruneBuilds } from './publisher';
import { claimBuild, finishBuild, getBuild, heartbeat, listBuilds, releaseBuild, requestBuild, resumeInterrupted } from './queue';
import { rollback } from './service';

const START = new Date('2026-11-23T10:00:00Z');

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A fake build that writes a complete build folder (or fails), and can be held until released. */
function fakeBuilds(behaviour: (run: BuildRun, n: number) => 'ok' | 'fail' | 'hold' = () => 'ok') {
  const runs: BuildRun[] = [];
  const releases: (() => void)[] = [];
  const build: BuildFn = async (run) => {
    runs.push(run);
    const what = behaviour(run, runs.length);
    run.onOutput(`building ${run.id}\n`);
    if (what === 'hold') {
      await new Promise<void>((resolve) => {
        releases.push(resolve);
        run.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (run.signal.aborted) return 143;
    }
    if (what === 'fail') {
      run.onOutput('[InvalidContentEntryDataError] stories → articles/exemple data does not match collection schema.\n  title: Required\n');
      return 1;
    }
    mkdirSync(join(run.dir, 'server'), { recursive: true });
    mkdirSync(join(run.dir, 'client', 'articles'), { recursive: true });
    writeFileSync(join(run.dir, 'server', 'entry.mjs'), 'export {}');
    writeFileSync(join(run.dir, 'client', 'index.html'), '<p>accueil</p>');
    writeFileSync(join(run.dir, 'client', 'articles', 'index.html'), '<p>articles</p>');
    return 0;
  };
  return { build, runs, release: () => releases.shift()?.() };
}

describeEachDialect('the build queue', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.db.deleteFrom('site_builds').execute();
    await t.db.deleteFrom('site_switches').execute();
  });

  it('merges a burst of publications into one waiting build, pushing its start back but not past the cap', async () => {
    const first = await requestBuild(t.db, { trigger: 'cms', now: START, debounceMs: 2000 });
    const second = await requestBuild(t.db, { trigger: 'cms', now: new Date(START.getTime() + 1500), debounceMs: 2000 });
    expect(second).toMatchObject({ id: first.id, joined: true });
    expect(second.notBefore.toISOString()).toBe(new Date(START.getTime() + 3500).toISOString());
    // A steady trickle: never later than 20 s after the first publication.
    const late = await requestBuild(t.db, { trigger: 'cms', now: new Date(START.getTime() + 19_000), debounceMs: 2000 });
    expect(late.notBefore.toISOString()).toBe(new Date(START.getTime() + 20_000).toISOString());
    const rows = await listBuilds(t.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'queued', requests: 3 });
  });

  it('does not start a waiting build before it is due, and runs one build at a time', async () => {
    await requestBuild(t.db, { trigger: 'cms', now: START, debounceMs: 2000 });
    expect(await claimBuild(t.db, 'a', START)).toBeUndefined();
    const running = await claimBuild(t.db, 'a', new Date(START.getTime() + 2000));
    expect(running?.status).toBe('running');
    // A publication during the build queues exactly one more, which waits for the running one.
    const next = await requestBuild(t.db, { trigger: 'editor', now: new Date(START.getTime() + 3000), debounceMs: 0 });
    await requestBuild(t.db, { trigger: 'cms', now: new Date(START.getTime() + 3100), debounceMs: 0 });
    expect(next.id).not.toBe(running?.id);
    expect(await claimBuild(t.db, 'b', new Date(START.getTime() + 10_000))).toBeUndefined();
    const builds = await listBuilds(t.db);
    expect(builds.map((b) => b.status).sort()).toEqual(['queued', 'running']);
    expect(builds.find((b) => b.status === 'queued')?.requests).toBe(2);
  });

  // Two connections of one process cannot race on SQLite (the second waits for the first, which
  // waits for the event loop): SQLite's lock serialises processes; the race is PostgreSQL's.
  it.skipIf(kind === 'sqlite')('lets only one of two racing processes claim the build', async () => {
    const second = openDatabase(t.config);
    try {
      await requestBuild(t.db, { trigger: 'cms', now: START, debounceMs: 0 });
      const claims = await Promise.all([claimBuild(t.db, 'a', START), claimBuild(second.db, 'b', START)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('takes over a build whose process died under its own id, so that the publication keeps its identity', async () => {
    const publication = await requestBuild(t.db, { trigger: 'cms', now: START, debounceMs: 0 });
    const running = await claimBuild(t.db, 'host:123', START);
    const later = new Date(START.getTime() + 5000);
    // Alive and beating: nobody takes it.
    expect(await resumeInterrupted(t.db, 'host:456', later, { staleMs: 60_000, isGone: () => false })).toBeUndefined();
    const resumed = await resumeInterrupted(t.db, 'host:456', later, { staleMs: 60_000, isGone: (runner) => runner === 'host:123' });
    expect(resumed).toMatchObject({ id: publication.id, status: 'running', runner: 'host:456', trigger: 'cms', started_at: toTimestamp(later) });
    expect(resumed?.id).toBe(running?.id);
    // Taken once: a second publisher finds it beating under its new runner.
    expect(await resumeInterrupted(t.db, 'host:789', later, { staleMs: 60_000, isGone: (runner) => runner === 'host:123' })).toBeUndefined();
    const builds = await listBuilds(t.db);
    expect(builds).toHaveLength(1);
    expect(builds[0]).toMatchObject({ id: publication.id, status: 'running', error: null });
  });

  it('takes over a build whose heartbeat stopped (its process died on another machine), and one given back by a stopping process', async () => {
    await requestBuild(t.db, { trigger: 'editor', now: START, debounceMs: 0 });
    const running = await claimBuild(t.db, 'other-host:1', START);
    await heartbeat(t.db, running!.id, 'other-host:1', new Date(START.getTime() + 10_000));
    expect(await resumeInterrupted(t.db, 'b', new Date(START.getTime() + 60_000), { staleMs: 60_000, isGone: () => false })).toBeUndefined();
    const taken = await resumeInterrupted(t.db, 'b', new Date(START.getTime() + 71_000), { staleMs: 60_000, isGone: () => false });
    expect(taken?.id).toBe(running?.id);
    await releaseBuild(t.db, taken!, 'b', 'journal');
    expect(await getBuild(t.db, running!.id)).toMatchObject({ status: 'running', runner: null, log: 'journal' });
    const again = await resumeInterrupted(t.db, 'c', new Date(START.getTime() + 72_000), { staleMs: 60_000, isGone: () => false });
    expect(again).toMatchObject({ id: running?.id, runner: 'c' });
    expect(await listBuilds(t.db)).toHaveLength(1);
  });

  it('records an outcome only from the process that runs the build', async () => {
    await requestBuild(t.db, { trigger: 'cms', now: START, debounceMs: 0 });
    const running = await claimBuild(t.db, 'a', START);
    if (!running) throw new Error('not claimed');
    expect(await finishBuild(t.db, running, 'b', { status: 'succeeded', pages: 3, contentVersion: null, log: '' }, START)).toBe(false);
    expect(await finishBuild(t.db, running, 'a', { status: 'succeeded', pages: 3, contentVersion: 'abc', log: '' }, START)).toBe(true);
    expect(await t.db.selectFrom('site_switches').selectAll().execute()).toHaveLength(1);
  });
});

describeEachDialect('the publisher', (kind) => {
  let t: TestDatabase;
  let places: { root: string; buildsDir: string };
  let switched: string[];
  let publishers: ReturnType<typeof createPublisher>[];
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.db.deleteFrom('site_builds').execute();
    await t.db.deleteFrom('site_switches').execute();
    const root = mkdtempSync(join(tmpdir(), 'publisher-'));
    places = { root, buildsDir: join(root, 'builds') };
    mkdirSync(places.buildsDir);
    switched = [];
    publishers = [];
  });
  afterEach(async () => {
    for (const p of publishers) await p.stop();
    rmSync(places.root, { recursive: true, force: true });
  });

  const start = async (
    build: BuildFn,
    options: { switchTo?: (id: string) => Promise<void>; keep?: number; timeoutMs?: number; runner?: string; clock?: { now: () => Date } } = {},
  ) => {
    const publisher = createPublisher({
      db: t.db,
      clock: options.clock ?? { now: () => new Date() },
      places,
      keep: options.keep ?? 5,
      timeoutMs: options.timeoutMs ?? 60_000,
      build,
      pollMs: 20,
      heartbeatMs: 20,
      ...(options.runner ? { runner: options.runner } : {}),
      switchTo:
        options.switchTo ??
        (async (id) => {
          switched.push(id);
          writeLive(places, id, new Date());
        }),
    });
    publishers.push(publisher);
    await publisher.start();
    return publisher;
  };
  const builds = () => listBuilds(t.db);

  it('builds a burst of publications once, makes it live, and builds exactly once more for a publication made during the build', async () => {
    const fake = fakeBuilds((_run, n) => (n === 1 ? 'hold' : 'ok'));
    for (let i = 0; i < 5; i += 1) await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    await start(fake.build);
    await until(() => fake.runs.length === 1);
    for (let i = 0; i < 3; i += 1) await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    fake.release();
    await until(async () => (await builds()).filter((b) => b.status === 'succeeded').length === 2);
    expect(fake.runs).toHaveLength(2);
    const history = await builds();
    expect(history.map((b) => b.requests).sort()).toEqual([3, 5]);
    expect(switched).toEqual(history.map((b) => b.id).reverse());
    expect(history[0]).toMatchObject({ status: 'succeeded', pages: 2 });
    // The second build was given the live one to start from.
    expect(fake.runs[1]?.previous).toBe(join(places.buildsDir, switched[0]!));
  });

  it('never makes a failed build live: the editors see why, and its folder is gone', async () => {
    writeLive(places, '2026-11-23T09-00-00Z-live', new Date());
    const fake = fakeBuilds(() => 'fail');
    await requestBuild(t.db, { trigger: 'editor', now: new Date(), debounceMs: 0 });
    await start(fake.build);
    await until(async () => (await builds())[0]?.status === 'failed');
    const [failed] = await builds();
    // Editors read the entry and the field in their words; Astro's English line stays in the log.
    expect(failed?.error).toBe('La construction a échoué. L’article « exemple » : le titre est manquant.');
    expect(failed?.log).toContain('[InvalidContentEntryDataError] stories → articles/exemple');
    expect(failed?.log).toContain('title: Required');
    expect(switched).toEqual([]);
    expect(existsSync(join(places.buildsDir, failed!.id))).toBe(false);
  });

  it('fails a build whose new version does not start, and keeps the live one', async () => {
    const fake = fakeBuilds();
    await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    await start(fake.build, {
      switchTo: async () => {
        throw new Error('la version ne répond pas');
      },
    });
    await until(async () => (await builds())[0]?.status === 'failed');
    expect((await builds())[0]?.error).toContain('la version ne répond pas');
    expect(await t.db.selectFrom('site_switches').selectAll().execute()).toHaveLength(0);
  });

  it('stops a build that runs too long', async () => {
    const fake = fakeBuilds(() => 'hold');
    await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    await start(fake.build, { timeoutMs: 100 });
    await until(async () => (await builds())[0]?.status === 'failed');
    expect((await builds())[0]?.error).toContain('a dépassé');
    expect(fake.runs[0]?.signal.aborted).toBe(true);
  });

  it('gives a build back to the queue when its process stops, and another process finishes it', async () => {
    const fake = fakeBuilds((_run, n) => (n === 1 ? 'hold' : 'ok'));
    await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    const first = await start(fake.build);
    await until(() => fake.runs.length === 1);
    await first.stop();
    const [given] = await builds();
    expect(given).toMatchObject({ status: 'running', runner: null });
    await start(fake.build);
    await until(async () => (await builds()).some((b) => b.status === 'succeeded'));
    expect(switched).toEqual([given!.id]);
    expect(await builds()).toMatchObject([{ id: given!.id, status: 'succeeded' }]);
  });

  it('takes up a build left running under its own name by a previous process (a restart with the same pid)', async () => {
    await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    await claimBuild(t.db, 'same-host:1', new Date());
    await start(fakeBuilds().build, { runner: 'same-host:1' });
    await until(async () => (await builds()).some((b) => b.status === 'succeeded'));
    expect((await builds()).map((b) => b.status)).toEqual(['succeeded']);
  });

  it('after a crash mid-build (kill -9), ends the same publication with its real outcome, before the one made meanwhile', async () => {
    // The server that ran it was killed: its heartbeat stopped two minutes ago, a publication came in meanwhile.
    const crashedAt = new Date(Date.now() - 120_000);
    const publication = await requestBuild(t.db, { trigger: 'cms', now: crashedAt, debounceMs: 0 });
    await claimBuild(t.db, 'dead-host:4242', crashedAt);
    await t.db.updateTable('site_builds').set({ log: 'building (interrupted)\n' }).where('id', '=', publication.id).execute();
    mkdirSync(join(places.buildsDir, publication.id, 'client'), { recursive: true });
    const meanwhile = await requestBuild(t.db, { trigger: 'editor', now: new Date(), debounceMs: 0 });
    expect(meanwhile.id).not.toBe(publication.id);

    // A CMS polls the publication's id from the restart on.
    const seen = new Set<string>();
    const fake = fakeBuilds();
    await start(fake.build);
    await until(async () => {
      const row = await getBuild(t.db, publication.id);
      if (row) seen.add(row.status);
      return row?.status === 'succeeded' && (await getBuild(t.db, meanwhile.id))?.status === 'succeeded';
    });
    expect([...seen]).not.toContain('failed');
    expect(fake.runs.map((r) => r.id)).toEqual([publication.id, meanwhile.id]);
    expect(switched).toEqual([publication.id, meanwhile.id]);
    const history = await builds();
    expect(history).toHaveLength(2);
    expect(history.some((b) => b.trigger === 'restart')).toBe(false);
    const resumed = history.find((b) => b.id === publication.id);
    expect(resumed).toMatchObject({ status: 'succeeded', trigger: 'cms', error: null, pages: 2 });
    expect(resumed?.log).toContain('building (interrupted)');
    expect(resumed?.log).toContain('reprise');
  });

  it('records as live, without building it again, an interrupted build the front had already switched to', async () => {
    const crashedAt = new Date(Date.now() - 120_000);
    const publication = await requestBuild(t.db, { trigger: 'cms', now: crashedAt, debounceMs: 0 });
    await claimBuild(t.db, 'dead-host:4242', crashedAt);
    const dir = join(places.buildsDir, publication.id);
    mkdirSync(join(dir, 'server'), { recursive: true });
    mkdirSync(join(dir, 'client'), { recursive: true });
    writeFileSync(join(dir, 'server', 'entry.mjs'), 'export {}');
    writeFileSync(join(dir, 'client', 'index.html'), '<p>accueil</p>');
    writeLive(places, publication.id, new Date());
    const fake = fakeBuilds();
    await start(fake.build);
    await until(async () => (await getBuild(t.db, publication.id))?.status === 'succeeded');
    expect(fake.runs).toHaveLength(0);
    expect(existsSync(join(dir, 'client', 'index.html'))).toBe(true);
    expect(await t.db.selectFrom('site_switches').select('build_id').execute()).toEqual([{ build_id: publication.id }]);
  });

  it('keeps the last successful builds for a rollback and removes the older ones', async () => {
    const fake = fakeBuilds();
    await start(fake.build, { keep: 2 });
    for (let i = 0; i < 4; i += 1) {
      await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
      await until(async () => (await builds()).filter((b) => b.status === 'succeeded').length === i + 1);
    }
    const ids = (await builds()).map((b) => b.id);
    // The publisher prunes just after it records a success: wait for that last pass.
    await until(async () => !ids.slice(2).some((id) => existsSync(join(places.buildsDir, id))));
    expect(ids.slice(0, 2).every((id) => existsSync(join(places.buildsDir, id)))).toBe(true);
    expect(await pruneBuilds(t.db, places, 2, [])).toEqual([]);

    // The build whose server code the live app processes run (a content-only switch kept them)
    // stays while they do, even past the builds kept for a rollback.
    const [newest, older] = ids;
    writeLive(places, newest!, new Date(), older);
    expect(await pruneBuilds(t.db, places, 1, [])).toEqual([]);
    writeLive(places, newest!, new Date());
    expect(await pruneBuilds(t.db, places, 1, [])).toEqual([older]);
  });

  it.each([
    ['before it claims', 1],
    ['while its claim is on its way', 2],
  ])('starts no build once stopped, even when stopped %s', async (_when, nth) => {
    // The clock is read once before each of the pass's queries: stop() is called right there.
    const fake = fakeBuilds();
    const queued = await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
    let reads = 0;
    let stopping: Promise<void> | undefined;
    // Its first pass runs after start() has returned (a timer): the publisher is known by then.
    let publisher: Awaited<ReturnType<typeof start>> | undefined;
    const clock = {
      now: () => {
        reads += 1;
        if (reads === nth) stopping = publisher!.stop();
        return new Date();
      },
    };
    publisher = await start(fake.build, { clock });
    await until(() => stopping !== undefined);
    await stopping;
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.runs).toHaveLength(0);
    // The build waits for the next process: queued, or given back (running, no runner) to be resumed.
    expect(await getBuild(t.db, queued.id)).toMatchObject({ runner: null, finished_at: null });
  });

  it('rolls back to a kept build through the front, records it, and refuses what cannot be rolled back to', async () => {
    const fake = fakeBuilds();
    await start(fake.build);
    for (let i = 0; i < 2; i += 1) {
      await requestBuild(t.db, { trigger: 'cms', now: new Date(), debounceMs: 0 });
      await until(async () => (await builds()).filter((b) => b.status === 'succeeded').length === i + 1);
    }
    const [latest, earlier] = await builds();
    const clock = fakeClock(START);
    const doSwitch = async (id: string) => {
      switched.push(id);
      writeLive(places, id, new Date());
    };
    expect(await rollback({ db: t.db, clock }, { buildId: earlier!.id, userId: 'u1' }, places, doSwitch)).toEqual({ ok: true });
    expect(switched.at(-1)).toBe(earlier!.id);
    expect(await rollback({ db: t.db, clock }, { buildId: earlier!.id, userId: 'u1' }, places, doSwitch)).toMatchObject({ ok: false, status: 409 });
    expect(await rollback({ db: t.db, clock }, { buildId: '2026-01-01T00-00-00Z-none', userId: 'u1' }, places, doSwitch)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await rollback({ db: t.db, clock }, { buildId: '../../etc', userId: 'u1' }, places, doSwitch)).toMatchObject({ ok: false, status: 404 });
    const switches = await t.db.selectFrom('site_switches').selectAll().where('kind', '=', 'rollback').execute();
    expect(switches).toMatchObject([{ build_id: earlier!.id, user_id: 'u1', at: toTimestamp(START) }]);
    expect(latest!.id).not.toBe(earlier!.id);
  });
});

describe('failureOf', () => {
  it('names the first error line of a build log, with the field under it, without hints or stack', () => {
    expect(
      failureOf('16:01:02 [build] collecting\n16:01:03 [ERROR] [InvalidContentEntryDataError] stories → x data does not match\n  at foo (bar.js:1)\n'),
    ).toBe('[ERROR] [InvalidContentEntryDataError] stories → x data does not match');
    const astro =
      '15:35:19 [content] Syncing content\n[InvalidContentEntryDataError] stories → articles/a data does not match collection schema.\n\n  title**: **title: Required\n\n  Hint:\n    See https://docs.astro.build\n  Location:\n    /tmp/x.md:0:0\n';
    expect(failureOf(astro)).toBe('[InvalidContentEntryDataError] stories → articles/a data does not match collection schema. title: Required');
    // The resident builder's log (src/host/builder.ts) names an error the same way.
    const resident =
      '[contrechamp:staged-pages] 0 pages kept from the last build, 0 no longer built removed\n\n[InvalidContentEntryDataError] stories → articles/a data does not match collection schema.\n\n  title: Required\n    at getEntryData (file:///x/utils.js:1:1)\n';
    expect(failureOf(resident)).toBe('[InvalidContentEntryDataError] stories → articles/a data does not match collection schema. title: Required');
  });
});
