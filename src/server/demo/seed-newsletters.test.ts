/**
 * The demo's newsletters (seedDemoNewsletters), on both databases: subscribers in every
 * newsletter, the sent issues in the archive and their mails, each recipient mailed once by the
 * job worker's batches; a second start adds nothing and sends nothing. Then, with a build's story
 * catalogue, the issues carry the demo corpus's stories (without one, as in the suite above, none).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { findUserRowByEmail } from '../auth/repository';
import { countRecipients } from '../newsletter/audience';
import { archiveOf } from '../newsletter/issues';
import { listSuppressions } from '../newsletter/suppression';
import { insertSubscription } from '../subscriptions/repository';
import { nextSaturdayMorning, seedDemoAccounts, seedDemoNewsletters } from './seed';

// The demo's 20 mails a second would make the suite wait; the pace is not what is tested here.
vi.hoisted(() => {
  process.env['NEWSLETTER_RATE'] = '5000';
});

const SITE = new URL('https://contrechamp.example');
const NOW = new Date('2026-11-27T12:00:00Z');

const countBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
};

describeEachDialect('demo newsletters', (kind) => {
  let t: TestDatabase;
  let mails: OutgoingMail[];
  let deps: ReturnType<typeof withJobs>;
  const mailer: Mailer = {
    send: async (mail) => {
      mails.push(mail);
      return { messageId: 'x' };
    },
  };

  /** What a start could add: rows of every newsletter table, and the jobs. */
  const footprint = async () => {
    const count = async (
      table: 'newsletter_subscribers' | 'newsletter_subscriptions' | 'newsletter_issues' | 'newsletter_deliveries' | 'newsletter_suppressions' | 'jobs',
    ) =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      subscribers: await count('newsletter_subscribers'),
      subscriptions: await count('newsletter_subscriptions'),
      issues: await count('newsletter_issues'),
      deliveries: await count('newsletter_deliveries'),
      suppressions: await count('newsletter_suppressions'),
      jobs: await count('jobs'),
    };
  };

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    mails = [];
    deps = withJobs({ db: t.db, mailer, clock: fakeClock(NOW), siteUrl: SITE });
    await seedDemoAccounts(t.db, NOW);
    // The subscriber and the sociétaires support the newspaper (the revenue and cooperative seeds' part, in short).
    for (const email of ['abonne@exemple.fr', 'societaire@exemple.fr', 'salariee@exemple.fr']) {
      const user = await findUserRowByEmail(t.db, email);
      const id = await insertSubscription(
        t.db,
        {
          userId: user!.id,
          kind: 'plan',
          planId: 'mensuel',
          amountCents: 700,
          interval: 'month',
          vatRateBp: 210,
          provider: 'simulated',
          source: null,
          status: 'active',
        },
        NOW,
      );
      await t.db
        .updateTable('subscriptions')
        .set({ current_period_start: '2026-11-10T00:00:00.000Z', current_period_end: '2026-12-10T00:00:00.000Z' })
        .where('id', '=', id)
        .execute();
    }
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    mails.length = 0;
  });

  // Generous: a fresh PostgreSQL database and a hundred mails, on a machine that may be building the site.
  it('subscribes the demo, sends its past issues once through the job worker, and a second start adds and sends nothing', { timeout: 60_000 }, async () => {
    await seedDemoNewsletters(deps);

    // Every newsletter has readers; pending, unsubscribed and a suppressed address too.
    for (const newsletter of ['quotidienne', 'hebdo', 'emissions', 'coulisses']) {
      expect(await countRecipients(t.db, { newsletter, segment: 'all', now: NOW }), newsletter).toBeGreaterThan(2);
    }
    const byStatus = countBy(await t.db.selectFrom('newsletter_subscriptions').select('status').execute(), (r) => r.status);
    expect(byStatus['confirmed']).toBeGreaterThan(50);
    expect(byStatus['pending']).toBeGreaterThan(2);
    expect(byStatus['unsubscribed']).toBeGreaterThan(2);
    const suppressed = await listSuppressions(t.db);
    expect(suppressed.rows).toEqual([
      expect.objectContaining({ email: 'lina.vincent@exemple.fr', reason: 'hard_bounce', since: new Date('2026-11-15T12:00:00Z') }),
    ]);
    // The demo accounts: the supporters' newsletter for supporters only.
    const choices = async (email: string) =>
      (
        await t.db
          .selectFrom('newsletter_subscriptions')
          .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_subscriptions.subscriber_id')
          .select(['newsletter', 'newsletter_subscriptions.status'])
          .where('email', '=', email)
          .orderBy('newsletter')
          .execute()
      ).map((r) => `${r.newsletter}:${r.status}`);
    expect(await choices('abonne@exemple.fr')).toEqual(['coulisses:confirmed', 'hebdo:confirmed', 'quotidienne:confirmed']);
    expect(await choices('societaire@exemple.fr')).toEqual(['coulisses:confirmed', 'hebdo:confirmed']);
    expect(await choices('lecteur@exemple.fr')).toEqual(['emissions:confirmed', 'hebdo:confirmed']);

    // The sent issues are in the archive at once, numbered in the order written; the weekly's second is for supporters.
    const archive = async (newsletter: string) => (await archiveOf(t.db, newsletter)).map((i) => ({ number: i.number, restricted: i.restricted }));
    expect(await archive('quotidienne')).toEqual([3, 2, 1].map((number) => ({ number, restricted: false })));
    expect(await archive('hebdo')).toEqual([
      { number: 3, restricted: false },
      { number: 2, restricted: true },
      { number: 1, restricted: false },
    ]);
    expect(await archive('emissions')).toEqual([2, 1].map((number) => ({ number, restricted: false })));
    expect(await archive('coulisses')).toEqual([{ number: 1, restricted: true }]);
    // As sent: the French spacing of the mail (no-break spaces) read as spaces.
    expect((await archiveOf(t.db, 'quotidienne')).at(-1)!.subject.replace(/[\u00a0\u202f]/g, ' ')).toBe(
      'Amérique latine : 31 journalistes tués depuis janvier',
    );
    // For the newsroom: a weekly scheduled for Saturday 07:00 in Paris, and a draft.
    const waiting = await t.db
      .selectFrom('newsletter_issues')
      .select(['newsletter', 'status', 'scheduled_at'])
      .where('status', 'in', ['draft', 'scheduled'])
      .orderBy('status')
      .execute();
    expect(waiting).toEqual([
      { newsletter: 'hebdo', status: 'draft', scheduled_at: null },
      { newsletter: 'hebdo', status: 'scheduled', scheduled_at: '2026-11-28T06:00:00.000Z' },
    ]);
    // Without a build there is no story catalogue: the issues have none, and are sent all the same.
    expect((await t.db.selectFrom('newsletter_issues').select('stories').execute()).map((r) => r.stories)).toEqual(Array(11).fill('[]'));
    expect(mails).toEqual([]);

    // The job worker mails each recipient of each issue once.
    await deps.flush();
    const sent = mails.filter((m) => m.template === 'newsletter-issue');
    const deliveries = await t.db
      .selectFrom('newsletter_deliveries')
      .innerJoin('newsletter_subscribers', 'newsletter_subscribers.id', 'newsletter_deliveries.subscriber_id')
      .innerJoin('newsletter_issues', 'newsletter_issues.id', 'newsletter_deliveries.issue_id')
      .select(['newsletter_subscribers.email', 'newsletter_deliveries.status', 'newsletter_issues.subject'])
      .execute();
    expect(deliveries.every((d) => d.status === 'sent')).toBe(true);
    expect(sent).toHaveLength(deliveries.length);
    expect(countBy(sent, (m) => `${m.to} ${m.subject}`)).toEqual(countBy(deliveries, (d) => `${d.email} ${d.subject}`));
    const perRecipient = countBy(sent, (m) => m.to);
    expect(perRecipient).toMatchObject({
      'abonne@exemple.fr': 7, // 3 daily, 3 weekly (one for supporters), 1 supporters'
      'societaire@exemple.fr': 4,
      'salariee@exemple.fr': 6,
      'lecteur@exemple.fr': 4, // 2 weekly (not the supporters' one), 2 émissions
      'redaction@exemple.fr': 7,
      'camille.martin@exemple.fr': 5,
    });
    for (const nobody of ['lina.vincent@exemple.fr', 'elise.morin@exemple.fr', 'louis.durand@exemple.fr']) expect(perRecipient[nobody], nobody).toBeUndefined();
    expect(await t.db.selectFrom('newsletter_issues').select('status').where('number', 'is not', null).execute()).toEqual(Array(9).fill({ status: 'sent' }));
    // Nothing else was mailed (no confirmation nor welcome: these readers signed up long ago).
    expect(mails).toHaveLength(sent.length);

    // A second start: nothing added, nothing sent.
    const before = await footprint();
    await seedDemoNewsletters(deps);
    await deps.flush();
    expect(await footprint()).toEqual(before);
    expect(mails).toHaveLength(sent.length);
  });

  it(
    'with a build’s catalogue, each issue carries the stories written for it, or the newest ones when the corpus is another',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'contrechamp-demo-stories-'));
      mkdirSync(join(dir, 'server'));
      const card = (url: string, title: string, kicker: string, published: string) => ({
        url,
        title,
        kicker,
        lead: `${title}, en quelques mots.`,
        image: null,
        published,
      });
      writeFileSync(
        join(dir, 'server', 'newsletter-stories.json'),
        JSON.stringify([
          // A brève pushed to the second page of its list since the issue was written: found by its anchor.
          card(
            '/breves/page/2#breve-amerique-latine-31-journalistes-tues-depuis-janvier',
            'Amérique latine : 31 journalistes tués depuis janvier',
            'Brève',
            '2026-11-12T08:00:00.000Z',
          ),
          card(
            '/emissions/2026/le-journal-climat-expulsions-et-liberte-de-la-presse',
            'Le Journal : climat, expulsions et liberté de la presse',
            'Émission',
            '2026-11-13T08:00:00.000Z',
          ),
          card(
            '/breves#breve-finistere-une-commune-achete-des-terres-pour-ses-maraichers',
            'Finistère : une commune achète des terres',
            'Brève',
            '2026-11-03T08:00:00.000Z',
          ),
          card('/articles/2026/encadrement-des-loyers-fin-de-l-experimentation-parlement', 'Encadrement des loyers', 'Article', '2026-09-29T08:00:00.000Z'),
          card('/articles/2026/un-article-d-un-autre-corpus', 'Un article d’un autre corpus', 'Article', '2026-11-20T08:00:00.000Z'),
          card('/podcasts/une-emission/un-episode', 'Un épisode', 'Podcast', '2026-11-19T08:00:00.000Z'),
        ]),
      );
      vi.stubEnv('APP_BUILD_DIR', dir);
      vi.resetModules();
      const fresh = await createTestDatabase(kind);
      try {
        // A fresh module graph reads this catalogue (the stories module keeps the first one it reads).
        const seed = await import('./seed');
        const local = withJobs({ db: fresh.db, mailer, clock: fakeClock(NOW), siteUrl: SITE });
        await seed.seedDemoAccounts(fresh.db, NOW);
        await seed.seedDemoNewsletters(local);
        const issues = await fresh.db
          .selectFrom('newsletter_issues')
          .select(['newsletter', 'number', 'stories', 'mail_stories'])
          .where('number', 'is not', null)
          .execute();
        const daily1 = issues.find((i) => i.newsletter === 'quotidienne' && Number(i.number) === 1)!;
        expect((JSON.parse(daily1.mail_stories!) as { url: string }[]).map((s) => s.url)).toEqual([
          '/breves/page/2#breve-amerique-latine-31-journalistes-tues-depuis-janvier',
          '/emissions/2026/le-journal-climat-expulsions-et-liberte-de-la-presse',
          '/breves#breve-finistere-une-commune-achete-des-terres-pour-ses-maraichers',
          '/articles/2026/encadrement-des-loyers-fin-de-l-experimentation-parlement',
        ]);
        // The others (their stories are not in this corpus) take the newest ones, 3 to 5 each, never twice.
        for (const issue of issues) {
          const urls = JSON.parse(issue.stories) as string[];
          expect(urls.length, `${issue.newsletter} ${issue.number}`).toBeGreaterThanOrEqual(3);
          expect(urls.length).toBeLessThanOrEqual(5);
          expect(new Set(urls).size).toBe(urls.length);
        }
      } finally {
        vi.unstubAllEnvs();
        await fresh.close();
      }
    },
  );
});

describe('next Saturday morning', () => {
  it('is the first Saturday at 07:00 in Paris after now, in winter and in summer time', () => {
    expect(nextSaturdayMorning(new Date('2026-11-27T12:00:00Z'))).toEqual(new Date('2026-11-28T06:00:00Z'));
    expect(nextSaturdayMorning(new Date('2026-11-28T05:59:00Z'))).toEqual(new Date('2026-11-28T06:00:00Z'));
    expect(nextSaturdayMorning(new Date('2026-11-28T06:00:00Z'))).toEqual(new Date('2026-12-05T06:00:00Z'));
    expect(nextSaturdayMorning(new Date('2026-11-28T23:30:00Z'))).toEqual(new Date('2026-12-05T06:00:00Z'));
    expect(nextSaturdayMorning(new Date('2026-03-23T10:00:00Z'))).toEqual(new Date('2026-03-28T06:00:00Z'));
    expect(nextSaturdayMorning(new Date('2026-06-10T10:00:00Z'))).toEqual(new Date('2026-06-13T05:00:00Z'));
  });
});
