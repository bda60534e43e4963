/**
 * Sending an issue through a real SMTP server on loopback (tests/helpers/smtp-sink.ts), on both
 * databases: who gets it, the list headers, DKIM verified by a real verifier, batches and the
 * throttle, bounces, and exactly once when a worker dies mid-batch or two workers share a send.
 */
import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { startSmtpSink, type SmtpSink } from '../../../tests/helpers/smtp-sink';
import { fakeClock } from '../core/clock';
import type { ServerDeps } from '../core/deps';
import { openDatabase } from '../db/client';
import { newId, toTimestamp } from '../db/database';
import { createJobWorker, type JobDefinition } from '../jobs';
import { createMailer, type Mailer } from '../mail/transport';
import { countRecipients } from './audience';
import { createThrottle, type SendingOptions } from './delivery';
import { cancelIssue, createIssue, type IssueInput, issueStats, scheduleIssue } from './issues';
import { newsletterJobs } from './jobs';
import { endSubscription, purgeOldDeliveries, setAccountNewsletters, unsubscribe, unsubscribeTokenFor } from './service';
import { applyRelayEvent, knownBounce, liftSuppression, listSuppressions, suppress } from './suppression';

const SITE = new URL('https://contrechamp.example');
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const DKIM = { domainName: 'contrechamp.example', keySelector: 'lettres2026', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
const dnsRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

const draft = (over: Partial<IssueInput> = {}): IssueInput => ({
  newsletter: 'hebdo',
  subject: 'L’Hebdo : la semaine en revue',
  preheader: 'Nos enquêtes de la semaine',
  intro: 'Bonjour à toutes et à tous,\n\nvoici **la semaine** de Contrechamp.',
  stories: [],
  supportBlock: true,
  segment: 'all',
  ...over,
});

describeEachDialect('newsletter delivery', (kind) => {
  let t: TestDatabase;
  let sink: SmtpSink;
  const refusals = new Map<string, { code: number; message: string }>();
  let clock: ReturnType<typeof fakeClock>;
  let deps: ServerDeps;
  let mailer: Mailer;
  let n = 0;

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    sink = await startSmtpSink({ refuse: (to) => refusals.get(to) ?? null });
    mailer = createMailer(
      {
        from: 'Contrechamp <ne-pas-repondre@contrechamp.example>',
        newsroom: 'redaction@contrechamp.example',
        transport: { kind: 'smtp', url: sink.url },
        returnPath: 'rebonds@contrechamp.example',
        dkim: DKIM,
      },
      { pool: { maxConnections: 3 } },
    );
  });
  afterAll(async () => {
    mailer.close?.();
    await sink.close();
    await t.close();
  });
  beforeEach(async () => {
    clock = fakeClock(new Date('2026-11-28T06:00:00Z'));
    deps = { db: t.db, mailer, clock, siteUrl: SITE, jobs: { wake: () => {} }, payments: undefined as never };
    sink.messages.length = 0;
    refusals.clear();
    // Each test mails its own readers: the earlier tests' leave every newsletter, their jobs go.
    await t.db.deleteFrom('jobs').execute();
    await t.db.updateTable('newsletter_subscriptions').set({ status: 'unsubscribed' }).execute();
    await t.db.deleteFrom('newsletter_suppressions').execute();
    n += 1;
  });

  const sending = (over: Partial<SendingOptions> = {}): SendingOptions => ({
    mailer,
    ratePerSecond: 1000,
    concurrency: 3,
    unsubscribeMailto: 'desinscription@contrechamp.example',
    batchSize: 2,
    lanes: 2,
    ...over,
  });
  const worker = (options: Partial<SendingOptions> = {}, db = t.db) =>
    createJobWorker({ db, handlers: newsletterJobs({ ...deps, db }, sending(options)) as JobDefinition[], clock, retryDelay: () => 0 });
  /** Runs every due job until none is left. */
  const drain = async (options: Partial<SendingOptions> = {}) => {
    const w = worker(options);
    for (let i = 0; i < 50 && (await w.runDue()) > 0; i++);
    await w.stop({ graceMs: 0 });
  };
  const reader = async (name: string, newsletters: string[]) => {
    const email = `${name}-${n}@exemple.fr`;
    await setAccountNewsletters(deps, { email, newsletters });
    return email;
  };
  const user = async (email: string) => {
    const id = newId();
    await t.db
      .insertInto('users')
      .values({ id, email, password_hash: null, email_verified_at: null, created_at: toTimestamp(clock.now()), updated_at: toTimestamp(clock.now()) })
      .execute();
    return id;
  };
  const sendNow = async (input: IssueInput) => {
    const created = await createIssue(deps, { userId: 'redaction', issue: input });
    if (!created.ok) throw new Error(created.message);
    const scheduled = await scheduleIssue(deps, { id: created.id, at: 'now' });
    if (!scheduled.ok) throw new Error(scheduled.message);
    return created.id;
  };
  const to = (email: string) => sink.messages.filter((m) => m.to.includes(email));

  it('mails each confirmed subscriber of the newsletter once, with the list headers, its own links and a DKIM signature that verifies', async () => {
    const weekly = await Promise.all(['ana', 'bea', 'carl', 'dina', 'eli'].map((name) => reader(name, ['hebdo'])));
    const dailyOnly = await reader('fred', ['quotidienne']);
    const left = await reader('gil', ['hebdo']);
    await setAccountNewsletters(deps, { email: left, newsletters: [] });

    const id = await sendNow(draft());
    await drain();

    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([...weekly].sort());
    expect(to(dailyOnly)).toHaveLength(0);
    expect(to(left)).toHaveLength(0);
    const issue = await t.db.selectFrom('newsletter_issues').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(issue).toMatchObject({ status: 'sent', number: 1, recipients: 5 });
    expect(await issueStats(t.db, id)).toMatchObject({ recipients: 5, sent: 5, queued: 0, refused: 0 });

    const message = to(weekly[0]!)[0]!;
    expect(message.from).toBe('rebonds@contrechamp.example');
    const parsed = await simpleParser(message.raw);
    const subscriber = await t.db.selectFrom('newsletter_subscribers').select('id').where('email', '=', weekly[0]!).executeTakeFirstOrThrow();
    const token = unsubscribeTokenFor(subscriber.id);
    // Header lines as sent (unfolded), not as mailparser interprets them.
    const header = (name: string) => parsed.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n[ \t]+/g, ' ');
    const listUnsubscribe = header('list-unsubscribe') ?? '';
    expect(listUnsubscribe).toContain(`<https://contrechamp.example/api/mailinglist/unsubscribe?token=${encodeURIComponent(token)}&lettre=hebdo>`);
    expect(listUnsubscribe).toContain('<mailto:desinscription@contrechamp.example?subject=unsubscribe');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header('list-id')).toMatch(/^List-Id: L'Hebdo - Contrechamp <hebdo\.lettres\.contrechamp\.example>$/i);
    expect(parsed.subject).toContain('L’Hebdo');
    expect(parsed.text).toContain(`https://contrechamp.example/mailinglist/preferences?token=${encodeURIComponent(token)}`);
    expect(parsed.html).toContain('la semaine');
    // Nobody else's link is in it.
    const other = await t.db.selectFrom('newsletter_subscribers').select('id').where('email', '=', weekly[1]!).executeTakeFirstOrThrow();
    expect(message.raw.toString()).not.toContain(other.id);

    const dkim = await dkimVerify(message.raw, {
      resolver: async (name: string, type: string) =>
        name === 'lettres2026._domainkey.contrechamp.example' && type === 'TXT'
          ? [[dnsRecord]]
          : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })),
      curTime: new Date(),
    });
    expect(dkim.results.map((r) => r.status.result)).toEqual(['pass']);
    // Tampering breaks it: the verifier is real.
    const tampered = Buffer.from(message.raw.toString().replace(/^From: Contrechamp/m, 'From: Contrechamq'));
    expect(tampered.equals(message.raw)).toBe(false);
    const broken = await dkimVerify(tampered, { resolver: async () => [[dnsRecord]], curTime: new Date() });
    expect(broken.results[0]?.status.result).not.toBe('pass');
  });

  it('paces the messages at the configured rate', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, i) => reader(`rythme${i}`, ['emissions'])));
    await sendNow(draft({ newsletter: 'emissions' }));
    const started = performance.now();
    await drain({ ratePerSecond: 20, batchSize: 3 });
    // 8 messages at 20 per second: the last leaves 7 intervals of 50 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(340);
    expect(sink.messages).toHaveLength(8);
  });

  it('counts the recipients of each segment within the newsletter, never beyond', async () => {
    const subscriber = await reader('abonnee', ['quotidienne']);
    const donor = await reader('donateur', ['quotidienne']);
    const owner = await reader('societaire', ['quotidienne']);
    const plain = await reader('lecteur', ['quotidienne']);
    const outside = `hors-lettre-${n}@exemple.fr`;
    const now = toTimestamp(clock.now());
    const subscription = (userId: string, kind: 'plan' | 'donation', interval: 'month' | 'year') =>
      t.db
        .insertInto('subscriptions')
        .values({
          id: newId(),
          user_id: userId,
          kind,
          plan_id: kind === 'plan' ? 'mensuel' : null,
          amount_cents: 700,
          interval,
          vat_rate_bp: 210,
          status: 'active',
          current_period_start: now,
          current_period_end: now,
          next_plan_id: null,
          next_amount_cents: null,
          provider: 'simulated',
          provider_ref: null,
          source: null,
          created_at: now,
          updated_at: now,
          ended_at: null,
        })
        .execute();
    await subscription(await user(subscriber), 'plan', 'year');
    await subscription(await user(donor), 'donation', 'month');
    await subscription(await user(outside), 'plan', 'month');
    await user(plain);
    const ownerId = await user(owner);
    const memberId = newId();
    await t.db
      .insertInto('share_members')
      .values({ id: memberId, member_number: 900 + n, user_id: ownerId, person: 'natural', name: 'Sociétaire', identity: '{}', created_at: now })
      .execute();
    await t.db
      .insertInto('share_register')
      .values({
        id: newId(),
        entry_number: 900 + n,
        member_id: memberId,
        kind: 'admission',
        college_id: 'lecteurs',
        shares_delta: 2,
        nominal_cents: 5000,
        repaid_cents: 0,
        certificate_number: null,
        bulletin_id: null,
        withdrawal_id: null,
        effective_on: '2026-01-01',
        recorded_at: now,
        recorded_by: null,
        note: '',
      })
      .execute();

    const count = (segment: IssueInput['segment']) => countRecipients(t.db, { newsletter: 'quotidienne', segment, now: clock.now() });
    const all = await count('all');
    expect(await count('supporters')).toBe(3);
    expect(await count('shareholders')).toBe(1);
    expect(await count('non_supporters')).toBe(all - 3);
    // The subscriber of another newsletter is nobody's recipient here.
    expect(all).toBeGreaterThanOrEqual(4);

    await sendNow(draft({ newsletter: 'quotidienne', segment: 'supporters' }));
    await drain();
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([subscriber, donor, owner].sort());
  });

  it('suppresses an address the relay refuses (5xx) for every newsletter, and retries one it defers (4xx) before counting a soft bounce', async () => {
    const refused = await reader('inconnu', ['hebdo', 'emissions']);
    const full = await reader('pleine', ['hebdo']);
    const fine = await reader('bien', ['hebdo']);
    refusals.set(refused, { code: 550, message: '5.1.1 User unknown' });
    refusals.set(full, { code: 452, message: '4.2.2 Mailbox full' });
    const id = await sendNow(draft());
    await drain();
    expect(to(fine)).toHaveLength(1);
    const rows = await t.db
      .selectFrom('newsletter_deliveries')
      .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_deliveries.subscriber_id')
      .select(['email', 'newsletter_deliveries.status', 'error', 'attempts'])
      .where('issue_id', '=', id)
      .execute();
    const of = (email: string) => rows.find((r) => r.email === email)!;
    expect(of(refused)).toMatchObject({ status: 'refused', error: '550' });
    expect(of(full)).toMatchObject({ status: 'queued', error: '452', attempts: 1 });
    expect((await listSuppressions(t.db, { search: refused })).rows).toEqual([
      expect.objectContaining({ email: refused, reason: 'hard_bounce', source: 'relay' }),
    ]);

    // Deferred twice more, fifteen minutes apart: then a failure for this issue, and one soft bounce counted.
    for (let round = 0; round < 2; round++) {
      clock.advance(16 * 60_000);
      await drain();
    }
    const after = await t.db
      .selectFrom('newsletter_deliveries')
      .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_deliveries.subscriber_id')
      .select(['newsletter_deliveries.status', 'attempts', 'soft_bounces'])
      .where('issue_id', '=', id)
      .where('email', '=', full)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ status: 'failed', attempts: 3, soft_bounces: 1 });
    expect(await issueStats(t.db, id)).toMatchObject({ sent: 1, refused: 1, failed: 1, queued: 0 });
    expect((await t.db.selectFrom('newsletter_issues').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe('sent');

    // The suppressed address gets no other newsletter either, until staff lift it.
    const another = await reader('autre', ['emissions']);
    await sendNow(draft({ newsletter: 'emissions' }));
    await drain();
    expect(to(refused)).toHaveLength(0);
    expect(to(another)).toHaveLength(1);
    expect(await liftSuppression(deps, { email: refused, staffEmail: 'admin@exemple.fr' })).toEqual({ ok: true });
    expect(await liftSuppression(deps, { email: refused, staffEmail: 'admin@exemple.fr' })).toMatchObject({ ok: false, status: 404 });
    refusals.clear();
    await sendNow(draft({ newsletter: 'emissions' }));
    await drain();
    expect(to(refused)).toHaveLength(1);
  });

  it('applies the relay’s bounce and complaint events once each, and marks the delivery', async () => {
    const bounced = await reader('rebond', ['hebdo']);
    const annoyed = await reader('plainte', ['hebdo']);
    const id = await sendNow(draft());
    await drain();
    const messageId = (email: string) =>
      t.db
        .selectFrom('newsletter_deliveries')
        .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_deliveries.subscriber_id')
        .select('message_id')
        .where('issue_id', '=', id)
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
    const event = { provider: 'generic' as const, at: clock.now(), detail: '550 5.1.1' };
    expect(
      await applyRelayEvent(deps, { ...event, eventId: `b-${n}`, kind: 'hard_bounce', email: bounced, messageId: (await messageId(bounced)).message_id }),
    ).toBe('applied');
    expect(await applyRelayEvent(deps, { ...event, eventId: `b-${n}`, kind: 'hard_bounce', email: bounced })).toBe('duplicate');
    expect(
      await applyRelayEvent(deps, { ...event, eventId: `c-${n}`, kind: 'complaint', email: annoyed, messageId: `<${(await messageId(annoyed)).message_id}>` }),
    ).toBe('applied');
    expect(await applyRelayEvent(deps, { ...event, eventId: `u-${n}`, kind: 'hard_bounce', email: `personne-${n}@exemple.fr` })).toBe('unknown');
    expect(await issueStats(t.db, id)).toMatchObject({ sent: 2, bounced: 1, complained: 1 });
    const suppressed = (await listSuppressions(t.db)).rows
      .filter((r) => r.email === bounced || r.email === annoyed)
      .map((r) => r.reason)
      .sort();
    expect(suppressed).toEqual(['complaint', 'hard_bounce']);
  });

  it('tells the sign-up guard which addresses are known not to take mail: a hard bounce, a domain that takes none', async () => {
    const now = clock.now();
    const record = (email: string, reason: 'hard_bounce' | 'soft_bounce' | 'complaint', detail: string) =>
      suppress(t.db, { email, reason, source: 'webhook:generic', detail, now });
    await record(`inconnu-${n}@exemple.fr`, 'hard_bounce', 'refusée par le relais (550)');
    await record(`a-${n}@sans-mx.example`, 'hard_bounce', '550 5.1.10 (bounce)');
    await record(`b-${n}@disparu.example`, 'hard_bounce', 'Host or domain name not found');
    await record(`c-${n}@vivant.example`, 'hard_bounce', '550 5.1.1 (bounce)');
    await record(`d-${n}@proche.example`, 'hard_bounce', '550 5.1.20');
    await record(`e-${n}@exemple.fr`, 'complaint', 'complained');
    await record(`f-${n}@exemple.fr`, 'soft_bounce', '3 rebonds temporaires (452)');
    await record(`g-${n}@exemple.fr`, 'hard_bounce', '550 5.1.1');
    expect(await liftSuppression(deps, { email: `g-${n}@exemple.fr`, staffEmail: 'admin@exemple.fr' })).toEqual({ ok: true });
    expect(await knownBounce(t.db, ` Inconnu-${n}@Exemple.FR`)).toBe('address');
    expect(await knownBounce(t.db, 'qui-que-ce-soit@sans-mx.example')).toBe('domain');
    expect(await knownBounce(t.db, 'qui-que-ce-soit@disparu.example')).toBe('domain');
    // One mailbox gone says nothing of its neighbours; nor a lifted suppression, a complaint, soft bounces.
    for (const email of [
      'voisin@vivant.example',
      'voisin@proche.example',
      `e-${n}@exemple.fr`,
      `f-${n}@exemple.fr`,
      `g-${n}@exemple.fr`,
      'x@exemple.fr',
      'x@%.example',
      'pas-une-adresse',
    ]) {
      expect(await knownBounce(t.db, email)).toBeNull();
    }
  });

  it('stops the delivery of a reader who unsubscribes or deletes their account during the send', async () => {
    const readers = await Promise.all(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name) => reader(name, ['hebdo'])));
    const rows = await t.db.selectFrom('newsletter_subscribers').select(['id', 'email']).where('email', 'in', readers).orderBy('id').execute();
    // Batches go in the order of subscriber ids: the last two readers leave while the first batch goes out.
    const [leaving, deleting] = rows.slice(-2) as [{ id: string; email: string }, { id: string; email: string }];
    let first = true;
    const leavingMidSend: Mailer = {
      send: async (mail) => {
        if (first) {
          first = false;
          await unsubscribe(deps, { token: unsubscribeTokenFor(leaving.id), newsletter: 'hebdo' });
          await endSubscription(t.db, { email: deleting.email, now: clock.now() });
        }
        return mailer.send(mail);
      },
    };
    const id = await sendNow(draft());
    await drain({ lanes: 1, mailer: leavingMidSend });
    expect(to(leaving.email)).toHaveLength(0);
    expect(to(deleting.email)).toHaveLength(0);
    expect(sink.messages).toHaveLength(readers.length - 2);
    expect(await issueStats(t.db, id)).toMatchObject({ sent: 4, skipped: 2, unsubscribed: 2 });
  });

  it('sends exactly once to everyone when a worker dies mid-batch, and when two workers share a send', async () => {
    const readers = await Promise.all(Array.from({ length: 9 }, (_, i) => reader(`k${i}`, ['emissions'])));
    await sendNow(draft({ newsletter: 'emissions' }));
    // Worker A, on its own connection, hands the relay three messages, then dies: its last
    // message was accepted by the relay but its outcome never written (a kill -9 right then).
    const other = openDatabase(t.config);
    let handed = 0;
    const dying: Mailer = {
      send: async (mail) => {
        handed += 1;
        if (handed > 3) return new Promise(() => {});
        const submitted = await mailer.send(mail);
        if (handed === 3) return new Promise(() => {});
        return submitted;
      },
    };
    const a = createJobWorker({
      db: other.db,
      handlers: newsletterJobs({ ...deps, db: other.db }, sending({ mailer: dying, concurrency: 1, batchSize: 5, lanes: 1 })) as JobDefinition[],
      clock,
      retryDelay: () => 0,
      abortGraceMs: 100,
    });
    // A's passes never end on their own (its relay hangs): they are stopped, and its connection
    // closed, at the end of the test, before the test database is dropped.
    const passes: Promise<number>[] = [];
    onTestFinished(async () => {
      await a.stop({ graceMs: 0 });
      await Promise.allSettled(passes);
      await other.close();
    });
    passes.push(a.runDue()); // the send job
    for (let i = 0; i < 200 && sink.messages.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    passes.push(a.runDue());
    for (let i = 0; i < 300 && sink.messages.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    expect(sink.messages).toHaveLength(3);
    // Its lease runs out; two workers on PostgreSQL (or one on SQLite's one writer) finish the send.
    clock.advance(6 * 60_000);
    const b = worker({ batchSize: 5, lanes: 1 });
    const c = worker({ batchSize: 5, lanes: 1 });
    for (let i = 0; i < 20; i++) {
      const ran = await Promise.all([b.runDue(), c.runDue()]);
      if (ran[0] + ran[1] === 0) break;
    }
    await Promise.all([b.stop({ graceMs: 0 }), c.stop({ graceMs: 0 })]);

    for (const email of readers) {
      const ids = new Set(to(email).map((m) => m.messageId));
      expect(ids.size, email).toBe(1);
    }
    // The messages in doubt (accepted by the relay, their outcome not yet written when it died: at
    // most the three it handed over) went again, with the same Message-ID: the outbox writes the
    // same file again, mailbox providers keep one copy.
    const resubmitted = sink.messages.length - readers.length;
    expect(resubmitted).toBeGreaterThanOrEqual(1);
    expect(resubmitted).toBeLessThanOrEqual(3);
  });

  it('keeps a scheduled issue waiting, sends nothing once cancelled, and once when scheduled again', async () => {
    const one = await reader('programme', ['hebdo']);
    const created = await createIssue(deps, { userId: 'redaction', issue: draft() });
    if (!created.ok) throw new Error(created.message);
    expect(await scheduleIssue(deps, { id: created.id, at: new Date(clock.now().getTime() - 5 * 60_000) })).toMatchObject({ ok: false, status: 400 });
    expect(await scheduleIssue(deps, { id: created.id, at: new Date(clock.now().getTime() + 60 * 60_000) })).toMatchObject({ ok: true });
    await drain();
    expect(to(one)).toHaveLength(0);
    expect(await cancelIssue(deps, created.id)).toEqual({ ok: true });
    clock.advance(61 * 60_000);
    await drain();
    expect(to(one)).toHaveLength(0);
    expect(await scheduleIssue(deps, { id: created.id, at: 'now' })).toMatchObject({ ok: true });
    await drain();
    expect(to(one)).toHaveLength(1);
    // Sent, it is a record: the database refuses to change or delete it.
    await expect(t.db.updateTable('newsletter_issues').set({ subject: 'Autre chose' }).where('id', '=', created.id).execute()).rejects.toThrow(/record/);
    await expect(t.db.deleteFrom('newsletter_issues').where('id', '=', created.id).execute()).rejects.toThrow(/cannot be deleted/);
    expect(await cancelIssue(deps, created.id)).toMatchObject({ ok: false, status: 409 });
  });

  it('keeps the state of each delivery 13 months after the send, then erases it; the issue keeps its number of recipients', async () => {
    await reader('retention', ['hebdo']);
    const id = await sendNow(draft());
    await drain();
    const rows = () => t.db.selectFrom('newsletter_deliveries').select('id').where('issue_id', '=', id).execute();
    expect(await rows()).toHaveLength(1);
    clock.advance(365 * 86_400_000);
    await purgeOldDeliveries(t.db, clock.now());
    expect(await rows()).toHaveLength(1);
    clock.advance(40 * 86_400_000);
    await purgeOldDeliveries(t.db, clock.now());
    expect(await rows()).toHaveLength(0);
    expect((await t.db.selectFrom('newsletter_issues').select('recipients').where('id', '=', id).executeTakeFirstOrThrow()).recipients).toBe(1);
  });
});

describe('createThrottle', () => {
  it('spaces the slots by one interval, whatever the number of callers', async () => {
    let now = 0;
    const throttle = createThrottle(10, () => now);
    const waits: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      waits.push(ms);
      return realSetTimeout(fn, 0);
    }) as typeof setTimeout;
    try {
      await Promise.all([throttle.take(), throttle.take(), throttle.take()]);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
    expect(waits).toEqual([100, 200]);
    now = 1000;
    await throttle.take();
  });
});
