import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import type { PersonalFeedsData } from '../../lib/build-data';
import { FEED_SECRET_PLACEHOLDER, personalAudioPath, personalFeedPath } from '../../lib/personal-feed-paths';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import type { ServerDeps } from '../core/deps';
import { resetKeysForTests } from '../core/keys';
import { newId, toTimestamp } from '../db/database';
import { checkAudioSignature } from './audio-access';
import {
  AUDIO_ENDED_MESSAGE,
  AUDIO_INVALID_MESSAGE,
  personalAudioResponse,
  personalFeedResponse,
  personalTranscriptResponse,
  UNKNOWN_FEED_MESSAGE,
} from './feed-answer';
import { FLAG_GONE_MESSAGE, podcastsPage, resetOwnFeed, resolveSharingFlag } from './service';
import { flushFetches, forgetRecordedFetches, SHARING_NETWORKS_PER_DAY } from './sharing';

/** Stand-ins for the build's templates: what matters is which one answers, and the secret in it. */
const data: PersonalFeedsData = {
  builtAt: '2026-11-30T08:00:00.000Z',
  feeds: [
    {
      name: 'tous',
      label: 'Tous les podcasts',
      xml: `<rss><channel><atom:link href="${personalFeedPath(FEED_SECRET_PLACEHOLDER, 'tous')}"/><item>public</item><item><enclosure url="${personalAudioPath(FEED_SECRET_PLACEHOLDER, 'les-voix-du-terrain', 'bonus.mp3')}"/>bonus</item></channel></rss>`,
    },
    {
      name: 'les-voix-du-terrain',
      label: 'Les voix du terrain',
      xml: `<rss><channel><item>voix</item><item>bonus voix ${FEED_SECRET_PLACEHOLDER}</item></channel></rss>`,
    },
  ],
  notices: {
    ended: `<rss><channel><atom:link href="${personalFeedPath(FEED_SECRET_PLACEHOLDER, 'tous')}"/><item>votre soutien a pris fin</item></channel></rss>`,
    invalid: `<rss><channel><atom:link href="${personalFeedPath(FEED_SECRET_PLACEHOLDER, 'tous')}"/><item>cette adresse n’est plus valable</item></channel></rss>`,
  },
};
const episodes = [{ podcast: 'les-voix-du-terrain', slug: 'bonus', filename: 'bonus.mp3' }];

describeEachDialect('supporters’ personal podcast feeds', (kind) => {
  let t: TestDatabase;
  const clock = fakeClock(new Date('2026-12-01T10:00:00Z'));
  let n = 0;
  const jobsWoken: number[] = [];
  const deps = () => ({ db: t.db, clock, siteUrl: new URL('https://contrechamp.test'), jobs: { wake: () => jobsWoken.push(1) } }) as unknown as ServerDeps;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t.close());
  beforeEach(() => forgetRecordedFetches());
  afterEach(() => resetKeysForTests());

  const user = (label: string, role?: 'admin') => createUser(t.db, { email: `${label}-${(n += 1)}@exemple.fr`, now: clock.now(), ...(role ? { role } : {}) });
  async function subscribe(userId: string): Promise<string> {
    const now = toTimestamp(clock.now());
    const id = newId();
    await t.db
      .insertInto('subscriptions')
      .values({
        id,
        user_id: userId,
        kind: 'plan',
        plan_id: 'mensuel',
        amount_cents: 700,
        interval: 'month',
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
    return id;
  }
  const end = (subscriptionId: string) =>
    t.db
      .updateTable('subscriptions')
      .set({ status: 'canceled', ended_at: toTimestamp(clock.now()) })
      .where('id', '=', subscriptionId)
      .execute();
  const fetchFeed = (secret: string, feed = 'tous', extra: Partial<Parameters<typeof personalFeedResponse>[2]> = {}) =>
    personalFeedResponse(t.db, data, {
      secret,
      feed,
      method: 'GET',
      ifNoneMatch: null,
      ifModifiedSince: null,
      address: '203.0.113.7',
      now: clock.now(),
      ...extra,
    });
  async function supporter(label: string) {
    const id = await user(label);
    const subscription = await subscribe(id);
    const page = await podcastsPage({ db: t.db, clock }, id);
    if (page.state !== 'supporting') throw new Error('not supporting');
    return { id, subscription, secret: page.feed.secret };
  }

  it('gives a supporter their feed, with the supporters-only episodes and their secret in every address', async () => {
    const { secret } = await supporter('abonnee');
    const answer = await fetchFeed(secret);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    const xml = await answer.text();
    expect(xml).toContain('bonus');
    expect(xml).toContain(personalFeedPath(secret, 'tous'));
    expect(xml).toContain(personalAudioPath(secret, 'les-voix-du-terrain', 'bonus.mp3'));
    expect(xml).not.toContain(FEED_SECRET_PLACEHOLDER);
    expect(await (await fetchFeed(secret, 'les-voix-du-terrain')).text()).toContain(`bonus voix ${secret}`);
    // The page shows the same address on every visit.
    const again = await podcastsPage(
      { db: t.db, clock },
      (await t.db.selectFrom('podcast_feeds').select('user_id').orderBy('created_at').executeTakeFirstOrThrow()).user_id,
    );
    expect(again.state === 'supporting' && again.feed.secret).toBe(secret);
  });

  it('answers an app’s conditional request with 304 and no body, and the full feed when the validator is stale', async () => {
    const { secret } = await supporter('abonne');
    const first = await fetchFeed(secret);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    expect(lastModified).toBe(new Date(data.builtAt).toUTCString());
    const cached = await fetchFeed(secret, 'tous', { ifNoneMatch: etag });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
    expect((await fetchFeed(secret, 'tous', { ifNoneMatch: `W/${etag}, "autre"` })).status).toBe(304);
    expect((await fetchFeed(secret, 'tous', { ifModifiedSince: lastModified })).status).toBe(304);
    expect((await fetchFeed(secret, 'tous', { ifNoneMatch: '"perime"' })).status).toBe(200);
    expect((await fetchFeed(secret, 'tous', { ifModifiedSince: new Date('2026-11-29T00:00:00Z').toUTCString() })).status).toBe(200);
    // Another feed of the same supporter has its own validator.
    expect((await fetchFeed(secret, 'les-voix-du-terrain', { ifNoneMatch: etag })).status).toBe(200);
    const head = await fetchFeed(secret, 'tous', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('a reset gives a new address at once; the old one answers a valid notice feed, never the episodes', async () => {
    const { id, secret } = await supporter('abonnee');
    const reset = await resetOwnFeed({ db: t.db, clock }, id);
    if (!reset.ok) throw new Error(reset.message);
    expect(reset.feed.secret).not.toBe(secret);
    const old = await fetchFeed(secret);
    expect(old.status).toBe(200);
    const text = await old.text();
    expect(text).toContain('cette adresse n’est plus valable');
    expect(text).not.toContain('bonus');
    expect(await (await fetchFeed(reset.feed.secret)).text()).toContain('bonus');
    // The old validator does not hide the change from an app.
    expect((await fetchFeed(secret, 'tous', { ifNoneMatch: (await fetchFeed(reset.feed.secret)).headers.get('etag') })).status).toBe(200);
  });

  it('turns into one notice when support ends, and gives the episodes again at the same address when it resumes', async () => {
    const { id, subscription, secret } = await supporter('abonne');
    const before = await fetchFeed(secret);
    await end(subscription);
    const ended = await fetchFeed(secret, 'tous', { ifNoneMatch: before.headers.get('etag') });
    expect(ended.status).toBe(200);
    const text = await ended.text();
    expect(text).toContain('votre soutien a pris fin');
    expect(text).not.toContain('bonus');
    expect(ended.headers.get('last-modified')).toBeNull();
    // The notice of a show's feed names that feed as its own address.
    expect(await (await fetchFeed(secret, 'les-voix-du-terrain')).text()).toContain(personalFeedPath(secret, 'les-voix-du-terrain'));
    expect((await podcastsPage({ db: t.db, clock }, id)).state).toBe('not-supporting');
    await subscribe(id);
    expect(await (await fetchFeed(secret)).text()).toContain('bonus');
  });

  it('answers a forged or malformed address with the notice, and an unknown feed name with 404', async () => {
    const { secret } = await supporter('abonnee');
    const forged = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [forged, 'x', '<script>', `${secret}A`]) {
      const answer = await fetchFeed(bad);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).toContain('cette adresse n’est plus valable');
      expect(text).not.toContain('<script>');
    }
    const unknown = await fetchFeed(secret, 'inconnu');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe(UNKNOWN_FEED_MESSAGE);
  });

  it('redirects a supporter’s audio to a fresh signed address, and refuses it once support ended or the address changed', async () => {
    const { id, subscription, secret } = await supporter('abonne');
    const audio = (s: string, filename = 'bonus.mp3') =>
      personalAudioResponse(t.db, episodes, {
        secret: s,
        podcast: 'les-voix-du-terrain',
        filename,
        now: clock.now(),
        siteUrl: new URL('https://contrechamp.test'),
      });
    const ok = await audio(secret);
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.get('location')!);
    expect(location.origin).toBe('https://contrechamp.test');
    expect(location.pathname).toBe('/audio/soutiens/les-voix-du-terrain/bonus.mp3');
    expect(
      checkAudioSignature(
        { podcast: 'les-voix-du-terrain', filename: 'bonus.mp3' },
        location.searchParams.get('e'),
        location.searchParams.get('s'),
        clock.now(),
      ),
    ).toBe('ok');
    expect((await audio(secret, 'public.mp3')).status).toBe(404);
    await end(subscription);
    const ended = await audio(secret);
    expect([ended.status, await ended.text()]).toEqual([403, AUDIO_ENDED_MESSAGE]);
    await subscribe(id);
    const reset = await resetOwnFeed({ db: t.db, clock }, id);
    if (!reset.ok) throw new Error(reset.message);
    const old = await audio(secret);
    expect([old.status, await old.text()]).toEqual([403, AUDIO_INVALID_MESSAGE]);
    expect((await audio(reset.feed.secret)).status).toBe(302);
  });

  it('gives a supporter the bonus episode’s transcript through the feed’s own address, and refuses it as the audio', async () => {
    const { id, subscription, secret } = await supporter('abonnee-texte');
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:02.000\n<v Annick>Bonjour.\n';
    const withTranscript = [{ ...episodes[0]!, transcript: { vtt } }];
    const read = (s: string, file = 'bonus.vtt') =>
      personalTranscriptResponse(t.db, withTranscript, { secret: s, podcast: 'les-voix-du-terrain', file, now: clock.now() });
    const ok = await read(secret);
    expect([ok.status, ok.headers.get('content-type'), await ok.text()]).toEqual([200, 'text/vtt; charset=utf-8', vtt]);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
    expect((await read(secret, 'bonus.mp3')).status).toBe(404);
    expect((await read(secret, 'autre.vtt')).status).toBe(404);
    await end(subscription);
    const ended = await read(secret);
    expect([ended.status, await ended.text()]).toEqual([403, AUDIO_ENDED_MESSAGE]);
    await subscribe(id);
    expect((await read(secret)).status).toBe(200);
    const forged = await read('a'.repeat(secret.length));
    expect([forged.status, await forged.text()]).toEqual([403, AUDIO_INVALID_MESSAGE]);
  });

  it('flags a feed read from more networks in a day than one listener has; staff reset it and the supporter is mailed', async () => {
    const { id, secret } = await supporter('partageuse');
    const flags = () => t.db.selectFrom('podcast_feed_flags').selectAll().where('user_id', '=', id).execute();
    // Hourly polls from one network, and addresses of one /24, count once.
    for (let i = 0; i < 5; i += 1) await fetchFeed(secret, 'tous', { address: `198.51.100.${i + 1}` });
    for (let i = 0; i < SHARING_NETWORKS_PER_DAY - 1; i += 1) await fetchFeed(secret, 'tous', { address: `192.0.${i}.9` });
    await flushFetches();
    expect(await flags()).toEqual([]);
    await fetchFeed(secret, 'tous', { address: '2001:db8:1:2::5' });
    // Written together, a moment later.
    expect(await flags()).toEqual([]);
    await flushFetches();
    const [flag] = await flags();
    expect(flag).toMatchObject({ networks: SHARING_NETWORKS_PER_DAY + 1, day: '2026-12-01', resolved_at: null });
    // Nothing of an address is kept: only hashes of networks.
    const stored = JSON.stringify(await t.db.selectFrom('podcast_feed_fetches').selectAll().where('user_id', '=', id).execute());
    expect(stored).not.toMatch(/198\.51|192\.0|2001:db8/);

    const reader = await user('lecteur');
    expect(await resolveSharingFlag(deps(), { flagId: flag!.id, staffId: reader, resolution: 'reset' })).toEqual({
      ok: false,
      status: 404,
      message: FLAG_GONE_MESSAGE,
    });
    const admin = await user('admin', 'admin');
    const done = await resolveSharingFlag(deps(), { flagId: flag!.id, staffId: admin, resolution: 'reset' });
    expect(done).toMatchObject({ ok: true });
    expect(await (await fetchFeed(secret)).text()).toContain('cette adresse n’est plus valable');
    const mail = await t.db.selectFrom('jobs').select(['payload']).where('unique_key', '=', `podcasts.feed-reset:${flag!.id}`).executeTakeFirstOrThrow();
    expect(String(mail.payload)).toContain('Votre flux personnel de podcasts a une nouvelle adresse');
    expect((await flags())[0]).toMatchObject({ resolution: 'reset', resolved_by: admin });
    // A second click finds it done, and resets nothing more.
    const generation = (await t.db.selectFrom('podcast_feeds').select('generation').where('user_id', '=', id).executeTakeFirstOrThrow()).generation;
    expect(await resolveSharingFlag(deps(), { flagId: flag!.id, staffId: admin, resolution: 'reset' })).toMatchObject({ ok: false, status: 404 });
    expect((await t.db.selectFrom('podcast_feeds').select('generation').where('user_id', '=', id).executeTakeFirstOrThrow()).generation).toBe(generation);
  });

  it('shows a reader who never supported no feed, and refuses a reset', async () => {
    const reader = await user('lectrice');
    expect(await podcastsPage({ db: t.db, clock }, reader)).toEqual({ state: 'not-supporting', feed: null });
    expect(await resetOwnFeed({ db: t.db, clock }, reader)).toMatchObject({ ok: false, status: 404 });
  });
});
