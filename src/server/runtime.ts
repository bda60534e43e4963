/**
 * The composition root: the process's ServerDeps (the database, migrated on first use; the
 * mailer; the clock; the configured site URL) and its job worker, which runs the deferred work of
 * every domain. In demo mode the demo accounts are created on first use; production never
 * creates them.
 *
 * `npm start` (src/host/start.ts) calls `/api/health` right after listening, so all of this
 * happens at start; on SIGTERM it calls the shutdown hook registered here, which stops the
 * worker (letting running jobs finish) before the database closes.
 *
 * One writer per SQLite file: `npm start` runs several app processes per build (APP_PROCESSES,
 * one per core by default), and only the first (APP_INDEX 0) is the background writer: it seeds
 * the demo, runs the job worker and the newsroom's publisher. Every process writes what a
 * request needs (a session, an order, a scheduled job) in its own short `BEGIN IMMEDIATE`
 * transaction, waiting for the lock (busy_timeout) rather than failing; a process that scheduled
 * work asks the writer, through the front, to look at the queue at once (`wake`). Without the
 * background work of N processes polling and claiming, the lock is held only for requests. Jobs
 * and builds are claimed under a lease all the same (src/server/jobs, src/server/editorial/queue.ts),
 * so the writers of two builds overlapping during a switch never run the same job twice.
 */
import { contractWithdrawalJobs } from './contract-withdrawals/service';
import { join } from 'node:path';
import { systemClock } from './core/clock';
import { config } from './core/config';
import type { ServerDeps } from './core/deps';
import { log } from './core/log';
import { closeDatabase, getDatabase } from './db/client';
import { createJobWorker, type JobDefinition, type JobWorker } from './jobs';
import { mailJobs } from './mail/jobs';
import { sweepStaleTemporaries } from './mail/outbox';
import { closeBulkMailer, getBulkMailer, getMailer, type Mailer } from './mail/transport';
import { authJobs } from './auth/jobs';
import { contactJobs } from './contact/service';
import { newsletterJobs } from './newsletter/jobs';
import { scheduleDailyPurge } from './newsletter/retention';
import { rateLimitJobs, scheduleRateLimitPurge } from './rate-limit/jobs';
import { podcastJobs, scheduleFeedFetchPurge } from './podcasts/jobs';
import { seedDemoAccounts, seedDemoAssemblies, seedDemoCooperative, seedDemoNewsletters, seedDemoRevenue } from './demo/seed';
import { orderJobs } from './orders/service';
import { subscriptionJobs } from './subscriptions/service';
import { giftJobs } from './gifts/public';
import { createPaymentProvider } from './payments/registry';
import { isSimulated } from './payments/simulated';
import { handlePaymentWebhook } from './checkout/service';
import { billingJobs, scheduleBillingWork } from './billing/service';
import { assemblyJobs } from './shares/assemblies';
import { shareJobs } from './shares/service';
import { hasFront, switchThroughFront } from './editorial/front-link';
import { createPublisher, type Publisher, resolveContentDir } from './editorial/publisher';
import { APP_ENV, ipcMessage, type AppToFront, type FrontToApp, type WakeTarget } from '../host/protocol';
import { ensureBuilder, residentBuild } from './editorial/resident';
import { places, setPublisherWake } from './editorial/service';
import { setHook } from '../lib/process-hooks';

/**
 * Every domain's job handlers: a domain with deferred work adds its list here. Newsletters go
 * through `bulkMailer` (the server's pooled one); tests leave it to the deps' own mailer.
 */
export function jobHandlers(deps: ServerDeps, bulkMailer: Mailer = deps.mailer): JobDefinition[] {
  const payments = isSimulated(deps.payments) ? deps.payments.jobs((raw, headers) => handlePaymentWebhook(deps, 'simulated', raw, headers)) : [];
  return [
    ...mailJobs(deps.mailer),
    ...rateLimitJobs(deps),
    ...podcastJobs(deps),
    ...authJobs(deps),
    ...newsletterJobs(deps, newsletterSending(bulkMailer)),
    ...contactJobs(deps),
    ...orderJobs(deps),
    ...subscriptionJobs(deps),
    ...giftJobs(deps),
    ...billingJobs(deps),
    ...assemblyJobs(deps),
    ...shareJobs(deps),
    ...contractWithdrawalJobs(deps),
    ...payments,
  ] as JobDefinition[];
}

/** How this process sends newsletter issues (src/server/newsletter/delivery.ts). */
function newsletterSending(mailer: Mailer) {
  const { newsletter, mail } = config();
  // The pace protects a relay's reputation; the outbox has none, and the demo's first start
  // writes its 129 mails at once instead of keeping both job lanes busy for seconds.
  const ratePerSecond = mail.transport.kind === 'outbox' ? Math.max(newsletter.ratePerSecond, 1000) : newsletter.ratePerSecond;
  return { mailer, ratePerSecond, concurrency: newsletter.connections, unsubscribeMailto: newsletter.unsubscribeMailto };
}

/** How long a stopping process lets running jobs finish before giving them back. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Whether this process does the background writing (see above): the first app process of
 * `npm start`, or the only process of any other server (`astro dev`, tests).
 */
export function isBackgroundWriter(env: NodeJS.ProcessEnv = process.env): boolean {
  const index = env[APP_ENV.index];
  return index === undefined || index === '' || index === '0';
}

/** Asks the background writer of this build to look at a queue now (through the front, src/host/front.ts). */
function wakeWriter(what: WakeTarget): void {
  const message: AppToFront = { type: 'wake', what };
  if (hasFront()) process.send?.(message);
}

/** The background writer takes the other processes' `wake` messages. */
let listening = false;
function listenForWake(): void {
  if (listening) return;
  listening = true;
  process.on('message', (message: unknown) => {
    const m = ipcMessage<FrontToApp, 'wake'>(message, 'wake');
    if (!m) return;
    if (m.what === 'jobs') worker?.poke();
    else if (m.what === 'publisher') publisher?.poke();
  });
}

let ready: Promise<ServerDeps> | undefined;
let servicesDone = false;

/** Whether `services()` has finished once: its database migrated, and in demo mode seeded. */
export const servicesStarted = (): boolean => servicesDone;
let worker: JobWorker | undefined;
let publisher: Publisher | undefined;

export function services(): Promise<ServerDeps> {
  ready ??= (async () => {
    const { db } = await getDatabase();
    const writer = isBackgroundWriter();
    const base = {
      db,
      mailer: getMailer(),
      clock: systemClock,
      siteUrl: config().siteUrl,
      jobs: { wake: writer ? () => worker?.poke() : () => wakeWriter('jobs') },
    };
    const deps: ServerDeps = { ...base, payments: createPaymentProvider(base, config().payments) };
    if (!writer) {
      setPublisherWake(() => wakeWriter('publisher'));
      return deps;
    }
    if (config().mode === 'demo') await seedDemoAccounts(db, systemClock.now());
    if (config().mode === 'demo') {
      await seedDemoRevenue(deps);
      await seedDemoCooperative(deps);
      await seedDemoAssemblies(deps);
      await seedDemoNewsletters(deps);
    }
    await reportInFlight(db);
    await sweepOutbox();
    // Two lanes: a newsletter's batch holds one for seconds; a sign-in link or a receipt takes the other.
    worker = createJobWorker({ db, handlers: jobHandlers(deps, getBulkMailer()), clock: systemClock, concurrency: 2 });
    // Paid orders left without their invoice by a crash (or paid before billing) get it now; the January statements are due.
    await scheduleBillingWork(deps);
    // Sign-ups never confirmed are erased after 30 days (the privacy page's promise), daily.
    await scheduleDailyPurge(deps);
    // The rate limits' rows of windows ended a day ago (keys never counted again), daily.
    await scheduleRateLimitPurge(deps);
    // The hashed networks that fetched personal podcast feeds, kept seven days (the privacy page's promise), daily.
    await scheduleFeedFetchPurge(deps);
    worker.start();
    if (hasFront()) listenForWake();
    // The newsroom's builds, in the processes that `npm start` runs (the front switches builds).
    if (hasFront()) {
      const publishing = config().publishing;
      const started = createPublisher({
        db,
        clock: systemClock,
        places: places(),
        keep: publishing.keepBuilds,
        timeoutMs: publishing.buildTimeoutMs,
        switchTo: switchThroughFront,
        ...(publishing.residentBuilder === 'off' ? {} : { build: residentBuild(places()) }),
        contentDir: process.env['CONTENT_SOURCE'] === 'api' ? undefined : resolveContentDir(places().root),
        // Astro's part of the builds' cache (src/host/build.ts), where its content store is.
        cacheDir: process.env['ASTRO_CACHE_DIR'] ?? join(process.env['BUILD_CACHE_DIR'] ?? join(publishing.buildsDir, 'cache'), 'astro'),
        log: { info: (msg, fields) => log.info(msg, fields), error: (msg, fields) => log.error(msg, fields) },
      });
      publisher = started;
      if (publishing.residentBuilder === 'warm') await ensureBuilder(places());
      setPublisherWake(() => started.poke());
      await started.start();
    }
    return deps;
  })().then(
    (deps) => {
      servicesDone = true;
      return deps;
    },
    (error: unknown) => {
      ready = undefined;
      throw error;
    },
  );
  return ready;
}

/** What a previous process left in flight: pending orders (their reconciliation jobs finish them) and failed jobs. */
async function reportInFlight(db: ServerDeps['db']): Promise<void> {
  const pending = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const failed = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'failed')
    .executeTakeFirst();
  if (Number(pending?.n ?? 0) > 0 || Number(failed?.n ?? 0) > 0)
    log.info('start.in_flight', { pendingOrders: Number(pending?.n ?? 0), failedJobs: Number(failed?.n ?? 0) });
}

/**
 * The outbox's temporary files older than an hour: messages a killed process never finished
 * writing (src/server/mail/outbox.ts). Never sent, they would otherwise stay there for ever, and
 * be copied by every backup. A failure is logged; it does not stop the start.
 */
async function sweepOutbox(): Promise<void> {
  const { transport } = config().mail;
  if (transport.kind !== 'outbox') return;
  try {
    await sweepStaleTemporaries(transport.dir, systemClock.now());
  } catch (error) {
    log.warn('mail.outbox_sweep_failed', { error: error instanceof Error ? error.name : 'unknown', code: (error as NodeJS.ErrnoException).code ?? null });
  }
}

/** Stops the worker (running jobs get `graceMs` to finish; the others wait in the table), then closes the database. */
export async function shutdown(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const stopping = worker;
  worker = undefined;
  const publishing = publisher;
  publisher = undefined;
  // A build under way is stopped and given back to the queue before the database closes.
  if (publishing) await publishing.stop();
  ready = undefined;
  if (stopping) {
    const { drained } = await stopping.stop({ graceMs });
    log.info('jobs stopped', { drained });
  }
  // The newsletters' pool of SMTP connections, once no batch runs.
  closeBulkMailer();
  await closeDatabase();
}

// The app process (src/host/app.ts) loads the built server as a bundle; it finds this hook without importing it.
setHook('shutdown', shutdown);
