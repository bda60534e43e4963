/**
 * Newsletter benchmark (issue 25): one issue sent to N synthetic confirmed subscribers (100,000
 * by default) by `npm start` (the production build, built first if needed) on a scratch data
 * folder, through a real SMTP server on loopback that this script runs (tests/helpers/smtp-sink.ts,
 * nodemailer's smtp-server: it counts, by recipient and Message-ID, and keeps nothing else).
 *
 * Prints:
 * - the time to queue: from the schedule to the send job's commit of every delivery row;
 * - messages per second end to end: from that commit to the last message accepted by the sink;
 * - the resident memory of the server's processes: idle, peak during the send, peak above idle;
 * - then a second issue to the same subscribers, with two `kill -9` of the whole server (front,
 *   app processes) during the send and a restart after each: recipients mailed twice (two
 *   different Message-IDs), recipients missing, and the resubmissions of a message in doubt (the
 *   same Message-ID again, which the outbox and mailbox providers keep once).
 *
 * Goals: queue ≤ 30 s, ≥ 200 messages per second, memory above idle ≤ 256 MB, 0 duplicates, 0 missing.
 *
 *   npm run bench:newsletter                  100,000 subscribers, with the kill run
 *   npm run bench:newsletter -- 20000         fewer subscribers
 *   npm run bench:newsletter -- --no-kill     the first issue only
 *
 * The server's settings apply (APP_PROCESSES, NEWSLETTER_SMTP_CONNECTIONS); NEWSLETTER_RATE is set
 * high here, to measure the pipeline rather than the throttle.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { systemClock } from '../../src/server/core/clock';
import type { ServerDeps } from '../../src/server/core/deps';
import { openDatabase } from '../../src/server/db/client';
import { toTimestamp } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';
import { createIssue, scheduleIssue } from '../../src/server/newsletter/issues';
import { startSmtpSink } from '../../tests/helpers/smtp-sink';
import { freePort, startServer as startBenchServer, type BenchServer } from './server.ts';

const GOALS = { queueSeconds: 30, messagesPerSecond: 200, memoryAboveIdleMiB: 256 };

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const subscribers = Number(args.find((a) => !a.startsWith('--')) ?? 100_000);
const withKills = !flags.has('--no-kill');

const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-bench-newsletter-'));
const port = await freePort();
const siteUrl = new URL(`http://localhost:${port}`);
const dbPath = join(dataDir, 'contrechamp.db');

// The sink: per recipient, the Message-IDs it got, and how many times each; and the messages
// accepted per issue number (Message-IDs start with `n<number>.`), counted as they come, so that
// watching the send costs nothing (the sink answers in this process).
const received = new Map<string, Map<string, number>>();
const acceptedOf = new Map<string, number>();
const sink = await startSmtpSink({
  keep: false,
  onMessage: (to, messageId) => {
    const ids = received.get(to) ?? new Map<string, number>();
    ids.set(messageId, (ids.get(messageId) ?? 0) + 1);
    received.set(to, ids);
    const number = /^n(\d+)\./.exec(messageId)?.[1] ?? '?';
    acceptedOf.set(number, (acceptedOf.get(number) ?? 0) + 1);
  },
});

// The subscribers, written straight into the scratch database.
const handle = openDatabase({ kind: 'sqlite', path: dbPath });
await migrateToLatest(handle.db);
const db = handle.db;
{
  const started = performance.now();
  const now = toTimestamp(new Date());
  for (let from = 0; from < subscribers; from += 2000) {
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(2000, subscribers - from) }, (_, i) => from + i);
      await trx
        .insertInto('newsletter_subscribers')
        .values(
          rows.map((i) => ({
            id: uuidOf(i),
            email: `lecteur-${i}@exemple.fr`,
            status: 'confirmed' as const,
            unsubscribe_hash: null,
            created_at: now,
            confirmed_at: now,
            unsubscribed_at: null,
          })),
        )
        .execute();
      await trx
        .insertInto('newsletter_subscriptions')
        .values(
          rows.map((i) => ({
            subscriber_id: uuidOf(i),
            newsletter: 'hebdo',
            status: 'confirmed' as const,
            created_at: now,
            confirmed_at: now,
            unsubscribed_at: null,
          })),
        )
        .execute();
    });
  }
  console.log(
    `newsletter bench: ${subscribers.toLocaleString('en')} confirmed subscribers written in ${((performance.now() - started) / 1000).toFixed(1)} s (scratch database ${dbPath})`,
  );
}

/** A UUID-shaped id per subscriber index (the tokens expect one). */
function uuidOf(i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/**
 * The pids of a process and every process under it, read from /proc without spawning anything
 * (a `pgrep` here would block this process's event loop, where the SMTP sink answers).
 */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const out: number[] = [];
  const visit = (p: number) => {
    out.push(p);
    for (const child of parents.get(p) ?? []) visit(child);
  };
  visit(root);
  return out;
}

/** Resident memory (MiB) of a process tree. */
function residentMemory(pids: number[]): number {
  let total = 0;
  for (const p of pids) {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    } catch {}
  }
  return total;
}

/** CPU time (ms) a process tree has used so far (clock ticks of 10 ms). */
function cpuMs(pids: number[]): number {
  let total = 0;
  for (const p of pids) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {}
  }
  return total;
}

let server: BenchServer | undefined;
/** npm start (scripts/bench/server.ts) on this data folder, again after each kill. */
function startServer(): Promise<BenchServer> {
  return startBenchServer({
    dataDir,
    port,
    host: 'localhost',
    // Its own process group: a kill -9 of the group takes the front and every app process at once.
    detached: true,
    env: {
      SITE_URL: siteUrl.href,
      APP_MODE: 'production',
      PAYMENT_PROVIDER: 'simulated',
      RESIDENT_BUILDER: 'off',
      SMTP_URL: sink.url,
      NEWSLETTER_RATE: process.env['NEWSLETTER_RATE'] ?? '10000',
    },
  });
}
function killServer(signal: NodeJS.Signals): Promise<void> {
  return server?.kill(signal) ?? Promise.resolve();
}

const deps = {
  db,
  clock: systemClock,
  siteUrl,
  jobs: { wake: () => {} },
  mailer: { send: () => Promise.reject(new Error('unused')) },
} as unknown as ServerDeps;

async function newIssue(subject: string): Promise<string> {
  const created = await createIssue(deps, {
    userId: 'bench',
    issue: {
      newsletter: 'hebdo',
      subject,
      preheader: 'La semaine de Contrechamp',
      intro: 'Bonjour,\n\nvoici **la semaine** de Contrechamp, ses enquêtes et ses émissions.',
      stories: [],
      supportBlock: true,
      segment: 'all',
    },
  });
  if (!created.ok) throw new Error(created.message);
  return created.id;
}

const issueRow = (id: string) => db.selectFrom('newsletter_issues').select(['status', 'number', 'recipients']).where('id', '=', id).executeTakeFirstOrThrow();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts, for one issue's Message-IDs (they start with `n<number>.`), recipients mailed twice, missing, and resubmissions. */
function tally(number: number) {
  const prefix = `n${number}.`;
  let recipients = 0;
  let duplicates = 0;
  let resubmissions = 0;
  let accepted = 0;
  for (const ids of received.values()) {
    const mine = [...ids].filter(([id]) => id.startsWith(prefix));
    if (mine.length === 0) continue;
    recipients += 1;
    if (mine.length > 1) duplicates += 1;
    for (const [, count] of mine) {
      accepted += count;
      resubmissions += count - 1;
    }
  }
  return { recipients, duplicates, missing: subscribers - recipients, resubmissions, accepted };
}

const failures: string[] = [];
try {
  server = await startServer();
  await sleep(2000);
  let pids = processTree(server.pid);
  const idleMiB = residentMemory(pids);
  const cpuBefore = cpuMs(pids);

  // 1. One issue, measured.
  const first = await newIssue('L’Hebdo : la semaine en revue');
  const t0 = performance.now();
  const scheduled = await scheduleIssue(deps, { id: first, at: 'now' });
  if (!scheduled.ok) throw new Error(scheduled.message);
  let queuedAt = 0;
  let peakMiB = idleMiB;
  let number = 0;
  for (let turn = 0; ; turn++) {
    if (turn % 20 === 0) pids = processTree(server.pid);
    peakMiB = Math.max(peakMiB, residentMemory(pids));
    const row = await issueRow(first);
    if (!queuedAt && row.status !== 'scheduled') {
      queuedAt = performance.now();
      number = Number(row.number);
    }
    if (row.status === 'sent') break;
    await sleep(250);
  }
  const doneAt = performance.now();
  const cpuPerMessage = (cpuMs(pids) - cpuBefore) / subscribers;
  const firstTally = tally(number);
  const queueSeconds = (queuedAt - t0) / 1000;
  const rate = firstTally.accepted / ((doneAt - queuedAt) / 1000);
  const aboveIdle = peakMiB - idleMiB;
  console.log(
    `  queue:        ${queueSeconds.toFixed(1)} s from the schedule to ${subscribers.toLocaleString('en')} delivery rows committed (the worker polls every second) — goal ≤ ${GOALS.queueSeconds} s`,
  );
  console.log(
    `  send:         ${firstTally.accepted.toLocaleString('en')} messages in ${((doneAt - queuedAt) / 1000).toFixed(1)} s: ${rate.toFixed(0)} messages per second end to end — goal ≥ ${GOALS.messagesPerSecond}`,
  );
  console.log(`  cpu:          ${cpuPerMessage.toFixed(2)} ms of the server's processes per message (the machine's load aside)`);
  console.log(
    `  memory:       server processes ${idleMiB.toFixed(0)} MiB idle, ${peakMiB.toFixed(0)} MiB at peak: ${aboveIdle.toFixed(0)} MiB above idle — goal ≤ ${GOALS.memoryAboveIdleMiB}`,
  );
  console.log(`  exactly once: ${firstTally.duplicates} recipients mailed twice, ${firstTally.missing} missing`);
  if (queueSeconds > GOALS.queueSeconds) failures.push('queue');
  if (rate < GOALS.messagesPerSecond) failures.push('messages per second');
  if (aboveIdle > GOALS.memoryAboveIdleMiB) failures.push('memory');
  if (firstTally.duplicates || firstTally.missing) failures.push('exactly once (no kill)');

  // 2. The same to everyone again, with two kill -9 of the whole server during the send.
  if (withKills) {
    const second = await newIssue('L’Hebdo : encore une semaine');
    const started = performance.now();
    const again = await scheduleIssue(deps, { id: second, at: 'now' });
    if (!again.ok) throw new Error(again.message);
    let secondNumber = 0;
    for (const share of [0.25, 0.6]) {
      for (;;) {
        const row = await issueRow(second);
        if (row.number !== null) secondNumber = Number(row.number);
        if (secondNumber && (acceptedOf.get(String(secondNumber)) ?? 0) >= share * subscribers) break;
        await sleep(20);
      }
      await killServer('SIGKILL');
      console.log(`  kill -9 at ${(acceptedOf.get(String(secondNumber)) ?? 0).toLocaleString('en')} messages; restarting`);
      server = await startServer();
    }
    for (;;) {
      if ((await issueRow(second)).status === 'sent') break;
      await sleep(500);
    }
    const t = tally(secondNumber);
    const stuck = await db
      .selectFrom('newsletter_deliveries')
      .select(sql<number>`count(*)`.as('n'))
      .where('issue_id', '=', second)
      .where('status', 'in', ['queued', 'sending'])
      .executeTakeFirstOrThrow();
    console.log(
      `  with 2 × kill -9: done in ${((performance.now() - started) / 1000).toFixed(0)} s (a killed batch waits for its lease); ${t.duplicates} recipients mailed twice, ${t.missing} missing (goal 0 and 0); ${t.resubmissions} message(s) in doubt resubmitted with the same Message-ID; ${Number(stuck.n)} rows left open`,
    );
    if (t.duplicates || t.missing) failures.push('exactly once (kill -9)');
  }
  if (failures.length) console.log(`  ÉCHEC : ${failures.join(', ')}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await killServer('SIGTERM');
  await handle.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
}
