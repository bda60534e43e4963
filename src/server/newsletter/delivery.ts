/**
 * Sending an issue: durable jobs in batches, one delivery row per recipient.
 *
 * 1. `startSend` (job SEND_ISSUE, due at the scheduled time) fixes the recipients in one
 *    transaction: the issue gets its number and its mail as sent (the record), and one delivery
 *    row per recipient is inserted by a single INSERT … SELECT (unique per issue and subscriber;
 *    no list ever leaves the database: no address in a job's payload or a log line). Its first
 *    `LANES` batch jobs are queued in the same transaction.
 * 2. `deliverBatch` (job DELIVER_BATCH) takes the rows of its batch, checks each recipient again
 *    (unsubscribed, account deleted or suppressed since: skipped), sends each one through the
 *    pooled transport at the configured rate, and records the outcomes: a refusal at once, the
 *    messages accepted by groups (one commit per 50 messages or 200 ms). Then it queues the batch `LANES` further on: one batch job per lane at a time, so
 *    that the other jobs of the queue (a sign-in link) never wait behind a whole send.
 *
 * Exactly once. A batch job is run by one worker at a time (the queue's lease), and a delivery's
 * Message-ID and outbox file name are fixed before its first attempt. A worker killed mid-batch
 * leaves rows `sending`; the batch's next attempt sends them again, with the same identity: the
 * outbox writes the same file, a relay or mailbox provider sees the same Message-ID. A row whose
 * outcome is recorded is never sent again, and no row is left behind: the batch job is retried
 * until every row has an outcome. Several server processes on PostgreSQL take different batches.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { findNewsletter } from '../../config/newsletters';
import type { ServerDeps } from '../core/deps';
import { log } from '../core/log';
import { type Database, fromFlag, toTimestamp } from '../db/database';
import { writeTransaction } from '../db/transaction';
import { schedule } from '../jobs/schedule';
import { siteLink } from '../mail/layout';
import { type Mailer, outboxStamp } from '../mail/transport';
import { recipientsQuery, stillSubscribed } from './audience';
import { type IssueMailTemplate, personaliseIssueMail, renderIssueMail } from './issue-mail';
import { DELIVER_BATCH, SEND_ISSUE } from './job-types';
import { newsletterHeaders, preferencesUrl, unsubscribeUrl } from './mails';
import { storiesByUrl } from './stories';
import { countSoftBounce, suppress } from './suppression';
import type { Segment } from './tables';
import { unsubscribeTokenFor } from './service';

/**
 * Recipients per batch job: about five seconds of sending at the configured rate, between 20 and
 * 500. A batch holds one lane of the job worker while it runs: short batches let a sign-in link
 * queued meanwhile go out within seconds, however long the send.
 */
export function batchSizeFor(ratePerSecond: number): number {
  return Math.max(20, Math.min(500, Math.round(ratePerSecond * 5)));
}
/** Batch jobs of one issue in the queue at once (one per lane). */
export const LANES = 2;
/** A recipient refused for now (4xx) is tried again this many times in all, then counted as a soft bounce. */
export const SOFT_ATTEMPTS = 3;
/** Accepted messages recorded together: at most this many, or this long after the first. */
const SENT_GROUP = 50;
const SENT_GROUP_MS = 200;
/** Delay before a batch retries the recipients the relay deferred. */
const SOFT_RETRY_MS = 15 * 60_000;

export interface SendingOptions {
  /** The pooled transport for newsletters. */
  mailer: Mailer;
  /** Messages per second, in this process. */
  ratePerSecond: number;
  /** Messages in flight at once (the pool's connections). */
  concurrency: number;
  /** The mailto: address of List-Unsubscribe. */
  unsubscribeMailto: string;
  /** Recipients per batch (`batchSizeFor` the rate) and batches in the queue at once (LANES): tests make them small. */
  batchSize?: number;
  lanes?: number;
}

/**
 * A process-wide pace: each message takes the next slot, `1 / rate` seconds after the previous
 * one. Every batch of the process shares it, so the relay sees the configured rate at most.
 */
export function createThrottle(ratePerSecond: number, now: () => number = () => performance.now()) {
  const interval = 1000 / ratePerSecond;
  let next = 0;
  return {
    async take(signal?: AbortSignal): Promise<void> {
      const t = now();
      const slot = Math.max(t, next);
      next = slot + interval;
      const wait = slot - t;
      if (wait <= 0.5) return;
      await new Promise<void>((resolve, reject) => {
        const stop = () => {
          clearTimeout(timer);
          reject(signal?.reason);
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', stop);
          resolve();
        }, wait);
        signal?.addEventListener('abort', stop, { once: true });
      });
    },
  };
}
export type Throttle = ReturnType<typeof createThrottle>;

/** The issue changed while its send was starting: the job's next attempt sees it as it is now. */
class IssueChangedError extends Error {
  override name = 'IssueChangedError';
  constructor() {
    super('the issue changed while its send was starting');
  }
}

/** The domain of Message-IDs: the site's. */
const messageDomain = (siteUrl: URL) => `lettres.${siteUrl.hostname}`;

/**
 * Starts the send of an issue scheduled by schedule `version`: does nothing if it was cancelled or
 * rescheduled since, or has started already (a retried job).
 */
export async function startSend(
  deps: ServerDeps,
  input: { issueId: string; version: number },
  options: Pick<SendingOptions, 'batchSize' | 'lanes' | 'ratePerSecond'>,
): Promise<void> {
  const batchSize = options.batchSize ?? batchSizeFor(options.ratePerSecond);
  const timeoutMs = batchTimeoutMs(batchSize, options.ratePerSecond);
  const lanes = options.lanes ?? LANES;
  const now = deps.clock.now();
  const at = toTimestamp(now);
  const started = await writeTransaction(deps.db, async (trx) => {
    const issue = await trx.selectFrom('newsletter_issues').selectAll().where('id', '=', input.issueId).executeTakeFirst();
    if (!issue || issue.status !== 'scheduled' || issue.schedule_version !== input.version) return null;
    const newsletter = findNewsletter(issue.newsletter);
    if (!newsletter) throw new Error(`newsletter: unknown newsletter ${issue.newsletter}`);
    const last = await trx
      .selectFrom('newsletter_issues')
      .select((eb) => eb.fn.max<number>('number').as('n'))
      .where('newsletter', '=', issue.newsletter)
      .executeTakeFirst();
    const number = Number(last?.n ?? 0) + 1;
    const urls = JSON.parse(issue.stories) as string[];
    const stories = storiesByUrl(urls).filter((s) => s !== undefined);
    const template = renderIssueMail({
      siteUrl: deps.siteUrl,
      newsletter,
      number,
      date: now,
      subject: issue.subject,
      preheader: issue.preheader,
      intro: issue.intro,
      stories,
      supportBlock: fromFlag(issue.support_block),
      webUrl: siteLink(deps.siteUrl, `/lettres/${newsletter.id}/${number}`),
    });
    // One row per recipient, in one statement: the list never leaves the database. The batch is
    // the recipient's rank by id; the Message-ID is fixed now, for every attempt.
    const recipients = recipientsQuery(trx, { newsletter: issue.newsletter, segment: issue.segment as Segment, now });
    const domain = messageDomain(deps.siteUrl);
    const inserted = await sql<{ n: number }>`
      insert into newsletter_deliveries (id, issue_id, subscriber_id, batch, status, attempts, message_id, sent_at, error, updated_at)
      select cast(${issue.id} as text) || '.' || r.id, cast(${issue.id} as text), r.id, (row_number() over (order by r.id) - 1) / ${sql.lit(batchSize)}, 'queued', 0,
             cast(${`n${number}.${newsletter.id}.`} as text) || r.id || cast(${`@${domain}`} as text), null, null, cast(${at} as text)
      from (${recipients}) as r`.execute(trx);
    const count = Number(inserted.numAffectedRows ?? 0n);
    // Only if still scheduled by this version: an editor's cancellation or change committed
    // meanwhile (PostgreSQL does not lock the row read above) rolls all of this back.
    const started = await trx
      .updateTable('newsletter_issues')
      .set({
        status: count === 0 ? 'sent' : 'sending',
        number,
        queued_at: at,
        sent_at: count === 0 ? at : null,
        recipients: count,
        mail_html: template.html,
        mail_text: template.text,
        mail_stories: JSON.stringify(stories),
        subject: template.subject,
        updated_at: at,
      })
      .where('id', '=', issue.id)
      .where('status', '=', 'scheduled')
      .where('schedule_version', '=', input.version)
      .where('updated_at', '=', issue.updated_at)
      .executeTakeFirst();
    if (Number(started.numUpdatedRows) !== 1) throw new IssueChangedError();
    const batches = Math.ceil(count / batchSize);
    for (let batch = 0; batch < Math.min(lanes, batches); batch++) await queueBatch(deps, trx, issue.id, batch, timeoutMs);
    return { count, batches, number, newsletter: newsletter.id };
  });
  if (started) {
    log.info('newsletter.send_started', {
      issue: input.issueId,
      newsletter: started.newsletter,
      number: started.number,
      recipients: started.count,
      batches: started.batches,
    });
    deps.jobs.wake();
  }
}

/**
 * A batch's time limit: twice what its messages take at the configured rate, and a minute at
 * least. Its lease (this plus the queue's margin) is how long a batch whose worker died waits
 * before another takes it up, so it is kept close to the real need.
 */
export function batchTimeoutMs(batchSize: number, ratePerSecond: number): number {
  return Math.min(30 * 60_000, Math.max(60_000, Math.ceil((2 * batchSize * 1000) / ratePerSecond)));
}

function queueBatch(
  deps: Pick<ServerDeps, 'clock'>,
  db: Kysely<Database>,
  issueId: string,
  batch: number,
  timeoutMs: number,
  retry?: { runAt: Date; round: number },
) {
  return schedule(
    deps,
    db,
    DELIVER_BATCH,
    { issueId, batch },
    {
      timeoutMs,
      uniqueKey: `newsletter-batch:${issueId}:${batch}${retry ? `:retry${retry.round}` : ''}`,
      ...(retry ? { runAt: retry.runAt } : {}),
    },
  );
}

type Outcome = { status: 'sent' } | Refusal;
type Refusal = { status: 'refused'; code: string } | { status: 'deferred'; code: string };

/**
 * What the relay's answer means for one recipient. Only a refusal of the recipient itself (at
 * RCPT TO) is the reader's: 5xx for good (a hard bounce), 4xx for now. Anything else — a wrong
 * password, a sender the relay refuses, a message refused at DATA, a dropped connection, 421 —
 * is the relay's or ours, rethrown: the batch stops and is tried again, and no reader is
 * suppressed for it.
 */
function outcomeOf(error: unknown): Outcome {
  const e = error as { responseCode?: number; code?: string; command?: string };
  const code = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  if (e?.command === 'RCPT TO' && code !== undefined) {
    if (code >= 500 && code < 600) return { status: 'refused', code: String(code) };
    if (code >= 400 && code < 500 && code !== 421) return { status: 'deferred', code: String(code) };
  }
  throw error;
}

/** Sends one batch of an issue; see the module's comment. */
export async function deliverBatch(
  deps: ServerDeps,
  options: SendingOptions & { throttle: Throttle },
  input: { issueId: string; batch: number },
  signal?: AbortSignal,
): Promise<void> {
  const issue = await deps.db
    .selectFrom('newsletter_issues')
    .select(['id', 'newsletter', 'status', 'number', 'mail_html', 'mail_text', 'subject', 'queued_at'])
    .where('id', '=', input.issueId)
    .executeTakeFirst();
  if (!issue || issue.status !== 'sending' || issue.mail_html === null || issue.mail_text === null) return;
  const newsletter = findNewsletter(issue.newsletter);
  if (!newsletter) throw new Error(`newsletter: unknown newsletter ${issue.newsletter}`);
  const template: IssueMailTemplate = { subject: issue.subject, html: issue.mail_html, text: issue.mail_text };

  // Claim the batch: rows never tried, deferred ones, and those a killed attempt left `sending`.
  const at = toTimestamp(deps.clock.now());
  const rows = await deps.db
    .updateTable('newsletter_deliveries')
    .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), updated_at: at }))
    .where('issue_id', '=', issue.id)
    .where('batch', '=', input.batch)
    .where('status', 'in', ['queued', 'sending'])
    .returning(['id', 'subscriber_id', 'message_id', 'attempts'])
    .execute();

  const still = await stillSubscribed(deps.db, { newsletter: issue.newsletter, subscriberIds: rows.map((r) => r.subscriber_id) });
  const skipped = rows.filter((r) => !still.has(r.subscriber_id)).map((r) => r.id);
  if (skipped.length > 0)
    await deps.db
      .updateTable('newsletter_deliveries')
      .set({ status: 'skipped', updated_at: at })
      .where('id', 'in', skipped)
      .where('status', '=', 'sending')
      .execute();
  const todo = rows.filter((r) => still.has(r.subscriber_id));
  const emails = new Map<string, string>();
  for (let i = 0; i < todo.length; i += 500) {
    const chunk = todo.slice(i, i + 500).map((r) => r.subscriber_id);
    for (const s of await deps.db.selectFrom('newsletter_subscribers').select(['id', 'email']).where('id', 'in', chunk).execute()) emails.set(s.id, s.email);
  }

  const counts = { sent: 0, refused: 0, deferred: 0, skipped: skipped.length };
  // Messages the relay accepted, recorded together: one commit (one fsync, during which SQLite
  // holds the whole process) per SENT_GROUP messages or SENT_GROUP_MS, instead of one each. A
  // worker killed before the commit leaves them `sending`: resubmitted with the same identity.
  const accepted: string[] = [];
  let firstAcceptedAt = 0;
  const flushAccepted = async () => {
    if (accepted.length === 0) return;
    const ids = accepted.splice(0);
    const done = toTimestamp(deps.clock.now());
    await writeTransaction(deps.db, async (trx) => {
      await trx
        .updateTable('newsletter_deliveries')
        .set({ status: 'sent', sent_at: done, error: null, updated_at: done })
        .where('id', 'in', ids)
        .where('status', '=', 'sending')
        .execute();
      // A mail that went through ends a run of soft bounces.
      await trx
        .updateTable('newsletter_subscribers')
        .set({ soft_bounces: 0 })
        .where('soft_bounces', '>', 0)
        .where('id', 'in', trx.selectFrom('newsletter_deliveries').select('subscriber_id').where('id', 'in', ids))
        .execute();
    });
  };
  // One lane failing (the relay gone, the time limit) stops the others before their next message,
  // so that everything the relay took is recorded before the attempt ends.
  const stopping = new AbortController();
  const stop = signal ? AbortSignal.any([signal, stopping.signal]) : stopping.signal;
  let next = 0;
  const lane = async () => {
    while (next < todo.length) {
      if (stop.aborted) throw stop.reason;
      const row = todo[next++]!;
      const email = emails.get(row.subscriber_id);
      if (!email) continue;
      const token = unsubscribeTokenFor(row.subscriber_id);
      const mail = personaliseIssueMail(template, {
        preferences: preferencesUrl(deps.siteUrl, token),
        unsubscribe: unsubscribeUrl(deps.siteUrl, token, newsletter.id),
      });
      await options.throttle.take(stop);
      let outcome: Outcome;
      try {
        await options.mailer.send({
          to: email,
          ...mail,
          template: 'newsletter-issue',
          headers: {
            ...newsletterHeaders(deps.siteUrl, token, { newsletter, mailto: options.unsubscribeMailto }),
            // Gmail's complaint reports are grouped by this (campaign:list:sender); it names no reader.
            'Feedback-ID': `${issue.number}:${newsletter.id}:contrechamp`,
          },
          identity: {
            messageId: row.message_id,
            outboxName: `${outboxStamp(new Date(issue.queued_at ?? 0))}-lettre-${newsletter.id}-${issue.number}-${row.subscriber_id}`,
          },
        });
        outcome = { status: 'sent' };
      } catch (error) {
        outcome = outcomeOf(error);
      }
      counts[outcome.status] += 1;
      if (outcome.status !== 'sent') {
        await record(deps, row, email, outcome);
        continue;
      }
      if (accepted.push(row.id) === 1) firstAcceptedAt = performance.now();
      if (accepted.length >= SENT_GROUP || performance.now() - firstAcceptedAt >= SENT_GROUP_MS) await flushAccepted();
    }
  };
  const lanes = await Promise.allSettled(
    Array.from({ length: Math.max(1, Math.min(options.concurrency, todo.length)) }, () =>
      lane().catch((error: unknown) => {
        stopping.abort(error);
        throw error;
      }),
    ),
  );
  // Stopped or not, what the relay took is recorded; the rest is left to the next attempt.
  await flushAccepted();
  const failed = lanes.find((l) => l.status === 'rejected');
  if (failed) throw failed.reason;
  log.info('newsletter.batch_done', { issue: issue.id, batch: input.batch, ...counts });

  // Deferred recipients are tried again later; the batch's lane goes on meanwhile.
  const deferred = await deps.db
    .selectFrom('newsletter_deliveries')
    .select('attempts')
    .where('issue_id', '=', issue.id)
    .where('batch', '=', input.batch)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  const timeoutMs = batchTimeoutMs(options.batchSize ?? batchSizeFor(options.ratePerSecond), options.ratePerSecond);
  await writeTransaction(deps.db, async (trx) => {
    if (deferred)
      await queueBatch(deps, trx, issue.id, input.batch, timeoutMs, { runAt: new Date(deps.clock.now().getTime() + SOFT_RETRY_MS), round: deferred.attempts });
    const following = input.batch + (options.lanes ?? LANES);
    const more = await trx
      .selectFrom('newsletter_deliveries')
      .select('id')
      .where('issue_id', '=', issue.id)
      .where('batch', '=', following)
      .limit(1)
      .executeTakeFirst();
    // Queued again by a retry of deferred recipients, the next batch's job already exists: its key dedupes it.
    if (more) await queueBatch(deps, trx, issue.id, following, timeoutMs);
    // Is the whole issue done? (Every row has an outcome.) Asked by every batch: the last to end,
    // a lane's or a retry's, closes it.
    const open = await trx
      .selectFrom('newsletter_deliveries')
      .select('id')
      .where('issue_id', '=', issue.id)
      .where('status', 'in', ['queued', 'sending'])
      .limit(1)
      .executeTakeFirst();
    if (!open)
      await trx
        .updateTable('newsletter_issues')
        .set({ status: 'sent', sent_at: toTimestamp(deps.clock.now()), updated_at: toTimestamp(deps.clock.now()) })
        .where('id', '=', issue.id)
        .where('status', '=', 'sending')
        .execute();
  });
  deps.jobs.wake();
}

/** Records a refusal as soon as the relay has answered (only while the row is still this attempt's). */
async function record(deps: ServerDeps, row: { id: string; attempts: number }, email: string, outcome: Refusal): Promise<void> {
  const now = deps.clock.now();
  const at = toTimestamp(now);
  const mine = (db: Kysely<Database>) =>
    db.updateTable('newsletter_deliveries').where('id', '=', row.id).where('status', '=', 'sending').where('attempts', '=', row.attempts);
  switch (outcome.status) {
    case 'refused':
      await writeTransaction(deps.db, async (trx) => {
        await mine(trx).set({ status: 'refused', error: outcome.code, updated_at: at }).execute();
        await suppress(trx, { email, reason: 'hard_bounce', source: 'relay', detail: `refusée par le relais (${outcome.code})`, now });
      });
      return;
    case 'deferred':
      await writeTransaction(deps.db, async (trx) => {
        if (row.attempts >= SOFT_ATTEMPTS) {
          await mine(trx).set({ status: 'failed', error: outcome.code, updated_at: at }).execute();
          await countSoftBounce(trx, { email, source: 'relay', detail: `différée par le relais (${outcome.code})`, now });
        } else await mine(trx).set({ status: 'queued', error: outcome.code, updated_at: at }).execute();
      });
      return;
  }
}

/** Schedules a send job for the issue's current schedule, in the caller's transaction. */
export function scheduleSendJob(deps: Pick<ServerDeps, 'clock'>, trx: Kysely<Database>, input: { issueId: string; version: number; runAt: Date }) {
  return schedule(
    deps,
    trx,
    SEND_ISSUE,
    { issueId: input.issueId, version: input.version },
    { runAt: input.runAt, uniqueKey: `newsletter-send:${input.issueId}:${input.version}` },
  );
}
