/**
 * Sign-ups at an account step from one network: a shared address keeps signing readers up while
 * they confirm their address; a flood of unconfirmed accounts is challenged, then refused (429),
 * sooner on evidence of abuse (probing, +tag variants, addresses known to bounce); a refusal gives back what the reader typed (but the password).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AstroGlobal } from 'astro';
import { withJobs } from '../../../tests/helpers/jobs';
import { createTestDatabase, type TestDatabase } from '../../../tests/helpers/db';
import { fakeClock } from '../../server/core/clock';
import { config } from '../../server/core/config';
import type { Mailer, OutgoingMail } from '../../server/mail/transport';
import { confirmSignUp, findUserByEmail } from '../../server/auth/service';
import { EVIDENCE, FREE_PRESSURE, REFUSED_PRESSURE, SIGN_UP_LIMITS, SIGN_UP_MESSAGES } from '../../server/auth/sign-up-guard';
import { knownBounce, suppress } from '../../server/newsletter/suppression';
import { countIn, hit } from '../../server/rate-limit/rate-limit';
import { DEVICE_COOKIE, knownDeviceOf } from '../../server/auth/known-devices';
import { solveProofOfWork } from '../../lib/proof-of-work';

const current: { deps?: ReturnType<typeof withJobs>; client: string } = { client: '' };
vi.mock('../../server/http/page-context', () => ({
  pageRequest: () => ({ deps: current.deps, client: current.client, userAgent: 'test' }),
}));
const { createAccountAndSignIn, signUpAtAccountStep, signUpChallenge } = await import('./new-account.server');

vi.setConfig({ testTimeout: 120_000 });
const MINUTE = 60_000;
const PASSWORD = 'une phrase de passe solide';

describe('sign-ups from one network', () => {
  let t: TestDatabase;
  let clock: ReturnType<typeof fakeClock>;
  let sent: OutgoingMail[];
  let deps: ReturnType<typeof withJobs>;
  let network = 0;
  let client: string;
  let n = 0;

  beforeAll(async () => {
    t = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await t.db.deleteFrom('jobs').execute();
    // The start of an hour: the counts' fixed window holds the whole test.
    clock = fakeClock(new Date('2026-12-01T09:00:00Z'));
    sent = [];
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: String(sent.length) };
      },
    };
    deps = withJobs({ db: t.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
    client = createHash('sha256').update(`network-${++network}`).digest('hex');
    Object.assign(current, { deps, client });
  });

  const input = (email = `lecteur${++n}@exemple.fr`, answer: { defi?: string; preuve?: string } = {}) => ({
    form: 'compte' as const,
    email,
    given_name: 'Camille',
    family_name: 'Lecteur',
    password: PASSWORD,
    ...answer,
  });
  const signUp = (email?: string, answer?: { defi?: string; preuve?: string }) =>
    createAccountAndSignIn(deps, input(email, answer), { client, userAgent: null, previousToken: undefined });
  /** Follows the confirmation mailed to `email`, from another network (the reader's phone). */
  const confirm = async (email: string) => {
    await deps.flush();
    const mail = sent.findLast((m) => m.to === email);
    const token = /\/creer-mon-compte\/confirmer\/([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error(`no confirmation link for ${email}`);
    const confirmed = await confirmSignUp(deps, { token, client: 'elsewhere' });
    expect(confirmed.ok).toBe(true);
  };

  it('lets a shared network sign up 30 readers in an hour who confirm their address, without a challenge', async () => {
    for (let i = 0; i < 30; i++) {
      expect(await signUpChallenge(deps, client)).toBeNull();
      const email = `redaction${i}@journal.example`;
      const result = await signUp(email);
      expect(result.ok).toBe(true);
      clock.advance(MINUTE);
      await confirm(email);
      clock.advance(MINUTE);
    }
    const account = await findUserByEmail(t.db, 'redaction29@journal.example');
    expect(account?.emailVerifiedAt).not.toBeNull();
  });

  it('creates accounts unconfirmed and mails the link that confirms them, once', async () => {
    const email = 'nouvelle@exemple.fr';
    expect((await signUp(email)).ok).toBe(true);
    expect((await findUserByEmail(t.db, email))?.emailVerifiedAt).toBeNull();
    await confirm(email);
    expect((await findUserByEmail(t.db, email))?.emailVerifiedAt).not.toBeNull();
    const token = /\/creer-mon-compte\/confirmer\/([A-Za-z0-9_-]{43})/.exec(sent.at(-1)!.text)![1]!;
    const again = await confirmSignUp(deps, { token, client: 'elsewhere' });
    expect(again).toMatchObject({ ok: false, status: 400 });
  });

  it('challenges a flood of unconfirmed sign-ups, lets an answer through, then refuses it with a 429 in French', async () => {
    for (let i = 0; i < FREE_PRESSURE; i++) expect((await signUp()).ok).toBe(true);
    // Past the free pressure: without an answer, a 429 that says what to do, nothing created.
    const email = 'sans-reponse@exemple.fr';
    const refused = await signUp(email);
    expect(refused).toMatchObject({ ok: false, status: 429 });
    if (refused.ok) return;
    expect(refused.message).toMatch(/^Beaucoup de comptes ont été créés depuis votre réseau/);
    expect(refused.message).toContain('Votre choix et ce que vous avez saisi sont gardés');
    expect(await findUserByEmail(t.db, email)).toBeUndefined();

    // A browser solves the challenge its form carries…
    const challenge = await signUpChallenge(deps, client);
    expect(challenge?.bits).toBe(14);
    const started = performance.now();
    const preuve = await solveProofOfWork(challenge!.token, challenge!.bits);
    console.info(`proof of work at ${challenge!.bits} bits: ${Math.round(performance.now() - started)} ms`);
    expect((await signUp(email, { defi: challenge!.token, preuve })).ok).toBe(true);
    // …once only.
    expect(await signUp(undefined, { defi: challenge!.token, preuve })).toMatchObject({ ok: false, status: 429 });

    // Without JavaScript, waiting it out is the answer. Each account raises the price…
    let created = FREE_PRESSURE + 1;
    let lastWait = 0;
    for (;;) {
      const next = await signUpChallenge(deps, client);
      if (!next) break;
      expect(next.waitSeconds).toBeGreaterThanOrEqual(lastWait);
      lastWait = next.waitSeconds;
      // The waits add up to more than the hour: wait, send, then come back to the same minute
      // (the hour's counts are what this test is about).
      const sentAt = clock.now();
      clock.advance(next.waitSeconds * 1000 - 1000);
      expect(await signUp(undefined, { defi: next.token })).toMatchObject({ ok: false, status: 429 });
      clock.advance(1000);
      const result = await signUp(undefined, { defi: next.token });
      expect(result.ok).toBe(true);
      clock.set(sentAt);
      created++;
      if (created > 100) throw new Error('never refused');
    }
    // …until the network is refused for the rest of the hour, even with an answer.
    expect(created).toBe(REFUSED_PRESSURE);
    const wall = await signUp();
    expect(wall).toMatchObject({ ok: false, status: 429 });
    if (!wall.ok)
      expect(wall.message).toMatch(
        /^Trop de comptes ont été créés depuis votre réseau sans que leur adresse e-mail soit confirmée\. Réessayez dans \d+ minutes\.$/,
      );
    expect(wall.ok || wall.retryAfterSeconds! > 0).toBe(true);
  });

  it('does not accept another network’s challenge, nor a wrong answer', async () => {
    for (let i = 0; i < FREE_PRESSURE; i++) expect((await signUp()).ok).toBe(true);
    const mine = await signUpChallenge(deps, client);
    const other = createHash('sha256').update('another network').digest('hex');
    const theirs = await signUpChallenge(deps, other);
    expect(theirs).toBeNull();
    const stolen = await createAccountAndSignIn(deps, input(undefined, { defi: mine!.token, preuve: await solveProofOfWork(mine!.token, mine!.bits) }), {
      client: other,
      userAgent: null,
      previousToken: undefined,
    });
    expect(stolen.ok).toBe(true); // the other network needs no challenge: the token is simply ignored
    expect(await signUp(undefined, { defi: mine!.token, preuve: 'zzzz' })).toMatchObject({ ok: false, status: 429 });
    expect(
      await signUp(undefined, {
        defi: `${mine!.token.slice(0, -1)}${mine!.token.endsWith('0') ? '1' : '0'}`,
        preuve: await solveProofOfWork(mine!.token, mine!.bits),
      }),
    ).toMatchObject({ ok: false, status: 429 });
  });

  it('lowers the threshold on evidence of abuse: probing addresses that have an account, +tag variants of one mailbox', async () => {
    expect((await signUp('existe@exemple.fr')).ok).toBe(true);
    for (let i = 0; i < 4; i++) expect(await signUp('existe@exemple.fr')).toMatchObject({ ok: false, status: 409 });
    // 1 unconfirmed account + 4 probes × 2 points: still free.
    expect(await signUpChallenge(deps, client)).toBeNull();
    expect((await signUp('prenom@exemple.fr')).ok).toBe(true);
    // 2 accounts + 8: challenged after 2 accounts instead of 10.
    expect(await signUpChallenge(deps, client)).not.toBeNull();

    client = createHash('sha256').update(`variants-${network}`).digest('hex');
    expect((await signUp('alex@exemple.fr')).ok).toBe(true);
    expect((await signUp('alex+2@exemple.fr')).ok).toBe(true);
    expect((await signUp('alex+3@exemple.fr')).ok).toBe(true);
    // 3 accounts + 2 variants × 3 points = 9; one more variant crosses the threshold.
    expect(await signUpChallenge(deps, client)).toBeNull();
    expect((await signUp('alex+4@exemple.fr')).ok).toBe(true);
    expect(await signUpChallenge(deps, client)).not.toBeNull();
  });

  it('counts addresses known to bounce as evidence: a network signing them up is challenged sooner, never refused for it alone', async () => {
    const now = clock.now();
    const bounce = (email: string, detail: string, reason: 'hard_bounce' | 'soft_bounce' | 'complaint' = 'hard_bounce') =>
      suppress(t.db, { email, reason, source: 'webhook:mailgun', detail, now });
    for (let i = 0; i < 3; i++) await bounce(`ancienne${i}@exemple.fr`, 'refusée par le relais (550)');
    await bounce('quelqu-un@domaine-mort.example', '550 5.1.2 (bounce)');
    // What says nothing against an address: a mailbox that bounced alone, a lifted suppression, a complaint, soft bounces.
    await bounce('partie@voisin.example', '550 5.1.1 (bounce)');
    await bounce('revenue@exemple.fr', '550 5.1.1 (bounce)');
    await t.db
      .updateTable('newsletter_suppressions')
      .set({ lifted_at: now.toISOString(), lifted_by: 'equipe@contrechamp.example' })
      .where('email', '=', 'revenue@exemple.fr')
      .execute();
    await bounce('plainte@exemple.fr', 'complained', 'complaint');
    await bounce('pleine@exemple.fr', '3 rebonds temporaires (452)', 'soft_bounce');
    expect(await knownBounce(t.db, ' Ancienne0@Exemple.fr ')).toBe('address');
    expect(await knownBounce(t.db, 'autre@domaine-mort.example')).toBe('domain');
    for (const email of ['voisine@voisin.example', 'revenue@exemple.fr', 'plainte@exemple.fr', 'pleine@exemple.fr', 'lea@exemple.fr'])
      expect(await knownBounce(t.db, email)).toBeNull();

    // A network signing up good addresses: 4 unconfirmed accounts, free.
    for (const email of ['voisine@voisin.example', 'revenue@exemple.fr', 'plainte@exemple.fr', 'pleine@exemple.fr'])
      expect((await signUp(email)).ok).toBe(true);
    expect(await signUpChallenge(deps, client)).toBeNull();

    // A network signing up addresses that bounce: each account created (a bounce refuses nothing
    // by itself), 3 accounts + 3 × 2 points still free, the fourth crosses the threshold.
    client = createHash('sha256').update(`bounces-${network}`).digest('hex');
    for (let i = 0; i < 3; i++) expect((await signUp(`ancienne${i}@exemple.fr`)).ok).toBe(true);
    expect(await signUpChallenge(deps, client)).toBeNull();
    expect((await signUp('personne@domaine-mort.example')).ok).toBe(true);
    expect(await countIn(t.db, SIGN_UP_LIMITS.evidenceByClient, client, clock.now())).toBe(4 * EVIDENCE.addressBounced);
    expect(await signUpChallenge(deps, client)).not.toBeNull();
  });

  it('gives back what the reader typed, but the password, with the 429 of an account step', async () => {
    for (let i = 0; i < FREE_PRESSURE; i++) expect((await signUp()).ok).toBe(true);
    const body = new URLSearchParams({ form: 'compte', email: 'camille@exemple.fr', given_name: 'Camille', family_name: 'Dupont', password: PASSWORD });
    const request = new Request(`${config().siteUrl.origin}/soutenir/mon-compte?formule=mensuel`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: config().siteUrl.origin },
      body,
    });
    const response = { status: 200, statusText: 'OK', headers: new Headers() };
    const astro = { request, response, cookies: { get: () => undefined }, clientAddress: '192.0.2.1' } as unknown as AstroGlobal;
    const answer = await signUpAtAccountStep(astro, '/soutenir/paiement?formule=mensuel', 'ok');
    expect('redirect' in answer).toBe(false);
    if ('redirect' in answer) return;
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(answer.error).toMatch(/^Beaucoup de comptes/);
    expect(answer.values).toMatchObject({ email: 'camille@exemple.fr', given_name: 'Camille', family_name: 'Dupont' });
    expect(answer.values).not.toHaveProperty('password');
    expect(await findUserByEmail(t.db, 'camille@exemple.fr')).toBeUndefined();
  });

  it('counts forms sent at once as if sent one after the other: challenged past the free pressure, capped at the hard ceiling', async () => {
    const burst = await Promise.all(Array.from({ length: FREE_PRESSURE + 5 }, () => signUp()));
    expect(burst.filter((r) => r.ok)).toHaveLength(FREE_PRESSURE);
    const refused = burst.filter((r) => !r.ok);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r).toMatchObject({ ok: false, status: 429, message: expect.stringMatching(/^Beaucoup de comptes/) });
    // The refused forms gave their place back.
    expect(await countIn(t.db, SIGN_UP_LIMITS.createdByClient, client, clock.now())).toBe(FREE_PRESSURE);

    // A network whose 110 accounts of the hour all confirmed their address: 10 more, whatever arrives at once.
    client = createHash('sha256').update(`confirmed-${network}`).digest('hex');
    await hit(t.db, SIGN_UP_LIMITS.createdByClient, client, clock.now(), 110);
    await hit(t.db, SIGN_UP_LIMITS.confirmedByClient, client, clock.now(), 110);
    const capped = await Promise.all(Array.from({ length: 15 }, () => signUp()));
    expect(capped.filter((r) => r.ok)).toHaveLength(SIGN_UP_LIMITS.createdByClient.limit - 110);
    for (const r of capped.filter((r) => !r.ok))
      expect(r).toMatchObject({ status: 429, message: expect.stringMatching(/^Trop de comptes ont été créés depuis votre réseau\. Réessayez/) });
  });

  it('does not let a challenge serve again once the hour has turned', async () => {
    clock.set(new Date('2026-12-01T09:50:00Z'));
    for (let i = 0; i < FREE_PRESSURE; i++) expect((await signUp()).ok).toBe(true);
    const challenge = (await signUpChallenge(deps, client))!;
    const preuve = await solveProofOfWork(challenge.token, challenge.bits);
    clock.set(new Date('2026-12-01T09:55:00Z'));
    expect((await signUp(undefined, { defi: challenge.token, preuve })).ok).toBe(true);
    // 10:05: a new hour's counts, the same pressure again; the challenge is 15 minutes old, still fresh, but spent.
    clock.set(new Date('2026-12-01T10:05:00Z'));
    for (let i = 0; i < FREE_PRESSURE; i++) expect((await signUp()).ok).toBe(true);
    expect(await signUp(undefined, { defi: challenge.token, preuve })).toMatchObject({ ok: false, status: 429 });
  });

  it('counts a confirmation only against the hour its account was created in', async () => {
    clock.set(new Date('2026-12-01T09:59:00Z'));
    const early = Array.from({ length: 5 }, (_, i) => `avant${i}@exemple.fr`);
    for (const email of early) expect((await signUp(email)).ok).toBe(true);
    clock.set(new Date('2026-12-01T10:00:00Z'));
    for (let i = 0; i < FREE_PRESSURE - 1; i++) expect((await signUp()).ok).toBe(true);
    clock.set(new Date('2026-12-01T10:01:00Z'));
    for (const email of early) await confirm(email);
    // The accounts of 09:59 confirmed: this hour's 9 unconfirmed accounts still weigh, one more makes 10.
    expect(await countIn(t.db, SIGN_UP_LIMITS.confirmedByClient, client, clock.now())).toBe(0);
    expect((await signUp()).ok).toBe(true);
    expect(await signUpChallenge(deps, client)).not.toBeNull();
  });

  it('offers the answer by waiting on a limited number of challenges an hour, then asks for the proof of work', async () => {
    for (let i = 0; i < FREE_PRESSURE; i++) expect((await signUp()).ok).toBe(true);
    // A robot loading the form again and again to collect challenges it can answer by waiting.
    const collected = [];
    for (let i = 0; i < SIGN_UP_LIMITS.waitableChallengesByClient.limit; i++) collected.push((await signUpChallenge(deps, client))!);
    expect(collected.every((c) => c.waitSeconds > 0)).toBe(true);
    const late = (await signUpChallenge(deps, client))!;
    expect(late.waitSeconds).toBe(0);
    expect(SIGN_UP_MESSAGES.challenge(late.waitSeconds)).toContain('JavaScript soit activé');
    clock.advance(3 * MINUTE);
    expect(await signUp(undefined, { defi: late.token })).toMatchObject({ ok: false, status: 429 });
    expect((await signUp(undefined, { defi: late.token, preuve: await solveProofOfWork(late.token, late.bits) })).ok).toBe(true);
    // The collected ones serve by waiting for a few minutes after their wait only.
    clock.advance(10 * MINUTE);
    expect(await signUp(undefined, { defi: collected[0]!.token })).toMatchObject({ ok: false, status: 429 });
  });

  it('marks the browser as a known device of the new account, as a password sign-in does', async () => {
    const email = 'appareil@exemple.fr';
    const created = await signUp(email);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const row = await t.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(knownDeviceOf(created.device?.value, { userId: row.id, passwordHash: row.password_hash! }, clock.now())).not.toBeNull();

    // The account step sets it as the `cc_device` cookie.
    const body = new URLSearchParams({ form: 'compte', email: 'appareil2@exemple.fr', given_name: 'Camille', family_name: 'Dupont', password: PASSWORD });
    const request = new Request(`${config().siteUrl.origin}/soutenir/mon-compte?formule=mensuel`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: config().siteUrl.origin },
      body,
    });
    const set = new Map<string, string>();
    const cookies = {
      get: () => undefined,
      set: (name: string, value: string) => {
        set.set(name, value);
      },
    };
    const astro = {
      request,
      response: { status: 200, statusText: 'OK', headers: new Headers() },
      cookies,
      clientAddress: '192.0.2.1',
    } as unknown as AstroGlobal;
    const answer = await signUpAtAccountStep(astro, '/soutenir/paiement?formule=mensuel', 'ok');
    expect('redirect' in answer).toBe(true);
    const second = await t.db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', 'appareil2@exemple.fr').executeTakeFirstOrThrow();
    expect(knownDeviceOf(set.get(DEVICE_COOKIE), { userId: second.id, passwordHash: second.password_hash! }, clock.now())).not.toBeNull();
  });
});
