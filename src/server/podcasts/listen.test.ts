import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import { resetKeysForTests } from '../core/keys';
import { newId, toTimestamp } from '../db/database';
import { checkAudioSignature } from './audio-access';
import { NO_TRANSCRIPT_MESSAGE, NOT_SUPPORTING_MESSAGE, SIGNED_OUT_MESSAGE, UNKNOWN_EPISODE_MESSAGE, listenAddress, supportersTranscriptFor } from './listen';

const episodes = [{ podcast: 'les-voix-du-terrain', slug: 'bonus-coulisses', filename: 'bonus-coulisses.mp3' }];
const ask = { podcast: 'les-voix-du-terrain', episode: 'bonus-coulisses' };

describeEachDialect('« Écouter » a supporters-only episode', (kind) => {
  let t: TestDatabase;
  const clock = fakeClock(new Date('2026-12-01T10:00:00Z'));
  let n = 0;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t.close());
  afterEach(() => resetKeysForTests());

  const user = (label: string) => createUser(t.db, { email: `${label}-${(n += 1)}@exemple.fr`, now: clock.now() });
  async function subscription(userId: string, kind: 'plan' | 'gift' | 'donation', interval: 'month' | 'year', status: 'active' | 'canceled' = 'active') {
    const now = toTimestamp(clock.now());
    await t.db
      .insertInto('subscriptions')
      .values({
        id: newId(),
        user_id: userId,
        kind,
        plan_id: kind === 'plan' ? 'mensuel' : null,
        amount_cents: kind === 'gift' ? 0 : 700,
        interval,
        vat_rate_bp: 210,
        status,
        current_period_start: now,
        current_period_end: now,
        next_plan_id: null,
        next_amount_cents: null,
        provider: 'simulated',
        provider_ref: null,
        source: null,
        created_at: now,
        updated_at: now,
        ended_at: status === 'active' ? null : now,
      })
      .execute();
  }
  /** A member of the cooperative: each entry of the register is (shares, effective on). */
  async function shares(userId: string, entries: [number, string][]) {
    const now = toTimestamp(clock.now());
    const memberId = newId();
    await t.db
      .insertInto('share_members')
      .values({ id: memberId, member_number: 100 + (n += 1), user_id: userId, person: 'natural', name: 'Sociétaire', identity: '{}', created_at: now })
      .execute();
    for (const [delta, on] of entries) {
      await t.db
        .insertInto('share_register')
        .values({
          id: newId(),
          entry_number: 100 + (n += 1),
          member_id: memberId,
          kind: delta > 0 ? 'admission' : 'withdrawal',
          college_id: 'lecteurs',
          shares_delta: delta,
          nominal_cents: 2500 * Math.abs(delta),
          repaid_cents: 0,
          certificate_number: null,
          bulletin_id: null,
          withdrawal_id: null,
          effective_on: on,
          recorded_at: now,
          recorded_by: null,
          note: '',
        })
        .execute();
    }
  }
  const listen = (userId: string | null, what = ask) => listenAddress({ db: t.db, clock }, { userId, ...what }, episodes);

  it('gives every kind of supporter a signed address of this very file, valid for hours', async () => {
    const subscriber = await user('abonnee');
    await subscription(subscriber, 'plan', 'year');
    const giftee = await user('offert');
    await subscription(giftee, 'gift', 'month');
    const donor = await user('donatrice');
    await subscription(donor, 'donation', 'month');
    const member = await user('societaire');
    await shares(member, [[2, '2026-01-01']]);
    for (const id of [subscriber, giftee, donor, member]) {
      const answer = await listen(id);
      if (!answer.ok) throw new Error(`refused: ${answer.message}`);
      const url = new URL(answer.url, 'http://x');
      expect(url.pathname).toBe('/audio/soutiens/les-voix-du-terrain/bonus-coulisses.mp3');
      const file = { podcast: 'les-voix-du-terrain', filename: 'bonus-coulisses.mp3' };
      expect(checkAudioSignature(file, url.searchParams.get('e'), url.searchParams.get('s'), clock.now())).toBe('ok');
      expect(answer.expires.getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(3600_000);
    }
  });

  it('refuses a reader who supports nothing, or no longer, with 403 and the way to support', async () => {
    const reader = await user('lectrice');
    const former = await user('ancienne');
    await subscription(former, 'plan', 'month', 'canceled');
    const yearlyDonor = await user('donateur-annuel');
    await subscription(yearlyDonor, 'donation', 'year');
    const seller = await user('cedante');
    await shares(seller, [
      [2, '2026-01-01'],
      [-2, '2026-06-01'],
    ]);
    for (const id of [reader, former, yearlyDonor, seller]) expect(await listen(id)).toEqual({ ok: false, status: 403, message: NOT_SUPPORTING_MESSAGE });
  });

  it('asks a signed-out reader to sign in (401), and knows no public or unknown episode (404)', async () => {
    expect(await listen(null)).toEqual({ ok: false, status: 401, message: SIGNED_OUT_MESSAGE });
    const subscriber = await user('abonne');
    await subscription(subscriber, 'plan', 'month');
    expect(await listen(subscriber, { podcast: 'les-voix-du-terrain', episode: 'la-derniere-poste-du-canton' })).toEqual({
      ok: false,
      status: 404,
      message: UNKNOWN_EPISODE_MESSAGE,
    });
    expect(await listen(subscriber, { podcast: 'a-contre-courant', episode: 'bonus-coulisses' })).toMatchObject({ status: 404 });
  });

  it('gives a bonus episode’s transcript to supporters only, and says when there is none yet', async () => {
    const transcript = {
      vtt: 'WEBVTT\n\n00:00.000 --> 00:02.000\n<v Annick>Bonjour.\n',
      cues: [{ index: 1, start: 0, end: 2, speaker: 'Annick', text: 'Bonjour.' }],
    };
    const withTranscripts: ((typeof episodes)[number] & { transcript?: typeof transcript })[] = [
      { ...episodes[0]!, transcript },
      { podcast: 'les-voix-du-terrain', slug: 'bonus-sans-texte', filename: 'bonus-sans-texte.mp3' },
    ];
    const read = (userId: string | null, episode = 'bonus-coulisses') =>
      supportersTranscriptFor({ db: t.db, clock }, { userId, podcast: 'les-voix-du-terrain', episode }, withTranscripts);
    const subscriber = await user('abonnee-texte');
    await subscription(subscriber, 'plan', 'month');
    const answer = await read(subscriber);
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.episode.transcript.cues[0]!.text).toBe('Bonjour.');
    expect(await read(subscriber, 'bonus-sans-texte')).toEqual({ ok: false, status: 404, message: NO_TRANSCRIPT_MESSAGE });
    expect(await read(subscriber, 'la-derniere-poste-du-canton')).toEqual({ ok: false, status: 404, message: UNKNOWN_EPISODE_MESSAGE });
    expect(await read(null)).toEqual({ ok: false, status: 401, message: SIGNED_OUT_MESSAGE });
    const reader = await user('lecteur-texte');
    expect(await read(reader)).toEqual({ ok: false, status: 403, message: NOT_SUPPORTING_MESSAGE });
  });
});
