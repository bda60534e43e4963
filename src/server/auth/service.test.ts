import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { withJobs } from '../../../tests/helpers/jobs';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import * as auth from './service';
import { hashSecret } from './tokens';
import { ACCOUNT_UNDER_ATTACK_DELAY_MS } from './rate-limits';

// Several tests run a few scrypt derivations (N=2^17): seconds on a busy two-core machine.
vi.setConfig({ testTimeout: 20_000 });

const PASSWORD = 'un mot de passe solide';
const siteUrl = new URL('https://contrechamp.example');

/** Mails land here; sends happen after the answer, so tests wait for them. */
function memoryMailer() {
  const sent: OutgoingMail[] = [];
  const mailer: Mailer = {
    send: async (mail) => {
      sent.push(mail);
      return { messageId: String(sent.length) };
    },
  };
  return { mailer, sent };
}
const tokenIn = (mail: OutgoingMail, path: string) => new RegExp(`${path}/([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];

describeEachDialect('auth service', (kind) => {
  let test: TestDatabase;
  let clock: ReturnType<typeof fakeClock>;
  let box: ReturnType<typeof memoryMailer>;
  let deps: ReturnType<typeof withJobs>;
  const flush = () => deps.flush();
  let userId: string;
  let n = 0;
  let email: string;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    // Work scheduled by an earlier test belongs to it.
    await test.db.deleteFrom('jobs').execute();
    clock = fakeClock();
    box = memoryMailer();
    deps = withJobs({ db: test.db, mailer: box.mailer, clock, siteUrl });
    email = `membre${++n}@exemple.fr`;
    userId = await auth.createUser(test.db, { email, password: PASSWORD, now: clock.now() });
  });
  const client = () => `client-${n}`;

  it('signs in with the right password, in a new session each time, with or without “remember me”', async () => {
    const a = await auth.login(deps, { email: email.toUpperCase(), password: PASSWORD, rememberMe: true, client: client() });
    const b = await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() });
    if (!a.ok || !b.ok) throw new Error('login failed');
    expect(a.session.token).not.toBe(b.session.token);
    expect(a.session.persistent).toBe(true);
    expect(a.session.expiresAt.getTime() - clock.now().getTime()).toBe(30 * 24 * 3600_000);
    expect(b.session.persistent).toBe(false);
    expect(a.user).not.toHaveProperty('password_hash');
    expect((await auth.sessionUser(deps, a.session.token))?.user.email).toBe(email);
  });

  it('answers an unknown address exactly as a wrong password', async () => {
    const wrong = await auth.login(deps, { email, password: 'pas le bon mot de passe', rememberMe: false, client: client() });
    const unknown = await auth.login(deps, { email: 'personne@exemple.fr', password: PASSWORD, rememberMe: false, client: client() });
    expect(wrong).toEqual(unknown);
    expect(wrong).toMatchObject({ ok: false, status: 401, message: auth.MESSAGES.badCredentials });
  });

  it('ends the session on the server at logout', async () => {
    const signed = await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() });
    if (!signed.ok) throw new Error();
    await auth.logout(deps, signed.session.token);
    expect(await auth.sessionUser(deps, signed.session.token)).toBeNull();
  });

  it('expires browser sessions after 12 hours idle, and persistent ones after 30 days', async () => {
    const browser = await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() });
    const persistent = await auth.login(deps, { email, password: PASSWORD, rememberMe: true, client: client() });
    if (!browser.ok || !persistent.ok) throw new Error();
    clock.advance(11 * 3600_000);
    expect(await auth.sessionUser(deps, browser.session.token)).not.toBeNull();
    clock.advance(11 * 3600_000); // 11 h after the last visit: still alive (it slides)
    expect(await auth.sessionUser(deps, browser.session.token)).not.toBeNull();
    clock.advance(13 * 3600_000);
    expect(await auth.sessionUser(deps, browser.session.token)).toBeNull();
    expect(await auth.sessionUser(deps, persistent.session.token)).not.toBeNull();
    clock.advance(30 * 24 * 3600_000);
    expect(await auth.sessionUser(deps, persistent.session.token)).toBeNull();
  });

  describe('password attempts', () => {
    const wrong = 'mauvais mot de passe';
    const attempt = (password: string, from: string, knownDevice?: string) =>
      auth.login(deps, { email, password, rememberMe: false, client: from, knownDevice });
    const timed = async <T>(work: () => Promise<T>) => {
      const started = performance.now();
      const result = await work();
      return { result, ms: performance.now() - started };
    };

    it('throttle a stranger who hammers an address, not its owner from another client; the count outlives the process', async () => {
      const attacker = `attacker-${n}`;
      for (let i = 0; i < 10; i++) expect(await attempt(wrong, attacker)).toMatchObject({ ok: false, status: 401, message: auth.MESSAGES.badCredentials });
      // The stranger is refused now, even with the right password, and told when to come back.
      const refused = await attempt(PASSWORD, attacker);
      expect(refused).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 15 * 60 });
      if (refused.ok) throw new Error();
      expect(refused.message).toBe('Trop de tentatives de connexion à ce compte depuis votre réseau. Réessayez dans 15 minutes.');
      // The owner, from elsewhere, signs in at once.
      expect(await attempt(PASSWORD, `owner-${n}`)).toMatchObject({ ok: true, user: { email } });
      // A "restarted" server (new deps, same database) still refuses the stranger.
      const restarted = await auth.login({ ...deps, mailer: memoryMailer().mailer }, { email, password: PASSWORD, rememberMe: false, client: attacker });
      expect(restarted).toMatchObject({ ok: false, status: 429 });
      clock.advance(15 * 60_000);
      expect(await attempt(PASSWORD, attacker)).toMatchObject({ ok: true });
    }, 30_000);

    it('let the owner in from a browser that signed in before, even from the stranger’s own network', async () => {
      const first = await attempt(PASSWORD, `home-${n}`);
      if (!first.ok) throw new Error('login failed');
      expect(first.device.value).toMatch(/^d1\./);
      expect(first.device.expiresAt.getTime() - clock.now().getTime()).toBe(365 * 24 * 3600_000);
      const shared = `shared-network-${n}`;
      for (let i = 0; i < 12; i++) await attempt(wrong, shared);
      expect(await attempt(PASSWORD, shared)).toMatchObject({ ok: false, status: 429 });
      // The known browser on that same network: its own count, untouched by the stranger's.
      const known = await attempt(PASSWORD, shared, first.device.value);
      expect(known).toMatchObject({ ok: true, user: { email } });
      // Its mark is worth nothing for another account, nor once the password has changed.
      const otherEmail = `autre-${n}@exemple.fr`;
      await auth.createUser(test.db, { email: otherEmail, password: PASSWORD, now: clock.now() });
      for (let i = 0; i < 10; i++) await auth.login(deps, { email: otherEmail, password: wrong, rememberMe: false, client: shared });
      expect(
        await auth.login(deps, { email: otherEmail, password: PASSWORD, rememberMe: false, client: shared, knownDevice: first.device.value }),
      ).toMatchObject({ ok: false, status: 429 });
      if (!known.ok) throw new Error();
      const changed = await auth.changePassword(deps, { userId, currentPassword: PASSWORD, newPassword: 'un tout autre mot de passe', persistent: false });
      expect(changed).toMatchObject({ ok: true });
      expect(
        await auth.login(deps, { email, password: 'un tout autre mot de passe', rememberMe: false, client: shared, knownDevice: known.device.value }),
      ).toMatchObject({ ok: false, status: 429 });
    }, 30_000);

    it('refuse a known browser past its own limit', async () => {
      const first = await attempt(PASSWORD, `home-${n}`);
      if (!first.ok) throw new Error('login failed');
      for (let i = 0; i < 10; i++) expect(await attempt(wrong, `home-${n}`, first.device.value)).toMatchObject({ status: 401 });
      const refused = await attempt(PASSWORD, `home-${n}`, first.device.value);
      expect(refused).toMatchObject({ ok: false, status: 429, message: 'Trop de tentatives de connexion depuis ce navigateur. Réessayez dans 15 minutes.' });
      // The same browser without its mark is one client among others.
      expect(await attempt(PASSWORD, `home-${n}`)).toMatchObject({ ok: true });
    }, 30_000);

    it('refuse a client that sprays many addresses', async () => {
      const sprayer = `sprayer-${n}`;
      for (let i = 0; i < 30; i++) await auth.login(deps, { email: `cible${i}-${n}@exemple.fr`, password: wrong, rememberMe: false, client: sprayer });
      expect(await auth.login(deps, { email: `cible-de-plus-${n}@exemple.fr`, password: wrong, rememberMe: false, client: sprayer })).toMatchObject({
        ok: false,
        status: 429,
        message: 'Trop de tentatives de connexion depuis votre réseau. Réessayez dans 15 minutes.',
      });
      // Others, and the owner of any of those addresses, are not concerned.
      expect(await attempt(PASSWORD, `owner-${n}`)).toMatchObject({ ok: true });
    }, 30_000);

    it('slow down, without refusing, an account tried from many clients at once; its known browsers are not slowed', async () => {
      const first = await attempt(PASSWORD, `home-${n}`);
      if (!first.ok) throw new Error('login failed');
      // Eleven clients, nine wrong passwords each (under their own limit): with the owner's, 100
      // attempts on the account, its limit. The next ones are slowed.
      for (let c = 0; c < 11; c++) for (let i = 0; i < 9; i++) await attempt(wrong, `bot${c}-${n}`);
      const elsewhere = await timed(() => attempt(PASSWORD, `cafe-${n}`));
      expect(elsewhere.result).toMatchObject({ ok: true, user: { email } });
      expect(elsewhere.ms).toBeGreaterThanOrEqual(ACCOUNT_UNDER_ATTACK_DELAY_MS - 50);
      const known = await timed(() => attempt(PASSWORD, `cafe-${n}`, first.device.value));
      expect(known.result).toMatchObject({ ok: true });
      expect(known.ms).toBeLessThan(elsewhere.ms);
    }, 60_000);
  });

  describe('sign-in links', () => {
    it('answer the same whether or not the address has an account, and mail only real accounts', async () => {
      const known = await auth.requestMagicLink(deps, { email, client: client() });
      const unknown = await auth.requestMagicLink(deps, { email: 'inconnu@exemple.fr', client: client() });
      expect(known).toEqual(unknown);
      await flush();
      expect(box.sent.map((m) => m.to)).toEqual([email]);
    });

    it('sign in once, within 15 minutes, and never twice', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const token = tokenIn(box.sent[0]!, '/welcome')!;
      clock.advance(14 * 60_000);
      const first = await auth.redeemMagicLink(deps, { token, client: client() });
      expect(first).toMatchObject({ ok: true, user: { email } });
      expect(await auth.redeemMagicLink(deps, { token, client: client() })).toMatchObject({ ok: false, status: 400, message: auth.MESSAGES.linkInvalid });
    });

    it('expire after 15 minutes', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      clock.advance(15 * 60_000 + 1);
      expect(await auth.redeemMagicLink(deps, { token: tokenIn(box.sent[0]!, '/welcome')!, client: client() })).toMatchObject({ ok: false, status: 400 });
    });

    it('are used once even when two clicks arrive together', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const token = tokenIn(box.sent[0]!, '/welcome')!;
      const results = await Promise.all(Array.from({ length: 5 }, () => auth.redeemMagicLink(deps, { token, client: client() })));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    });

    it('are stored hashed, and a newer link retires the older one', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const [older, newer] = box.sent.map((m) => tokenIn(m, '/welcome')!);
      const stored = await test.db.selectFrom('tokens').select('id_hash').where('user_id', '=', userId).execute();
      expect(stored.map((t) => t.id_hash)).toContain(hashSecret(newer!));
      expect(stored.map((t) => t.id_hash)).not.toContain(newer);
      expect(await auth.redeemMagicLink(deps, { token: older!, client: client() })).toMatchObject({ ok: false });
      expect(await auth.redeemMagicLink(deps, { token: newer!, client: client() })).toMatchObject({ ok: true });
    });

    it('once spent or expired, offer a fresh link to their account, which works', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const used = tokenIn(box.sent[0]!, '/welcome')!;
      expect(await auth.redeemMagicLink(deps, { token: used, client: client() })).toMatchObject({ ok: true });
      // The used link names its account (masked) for a fresh one, and sends it there.
      expect(await auth.maskedSpentLinkTarget(test.db, used, clock.now())).toBe('m•••@exemple.fr');
      expect(await auth.renewMagicLink(deps, { token: used, client: client() })).toEqual({ ok: true, to: 'm•••@exemple.fr' });
      await flush();
      expect(box.sent).toHaveLength(2);
      expect(box.sent[1]!.to).toBe(email);
      const fresh = tokenIn(box.sent[1]!, '/welcome')!;
      expect(fresh).not.toBe(used);
      // An expired one too; the fresh link signs in.
      clock.advance(15 * 60_000 + 1);
      expect(await auth.maskedSpentLinkTarget(test.db, fresh, clock.now())).toBe('m•••@exemple.fr');
      await auth.renewMagicLink(deps, { token: fresh, client: client() });
      await flush();
      expect(await auth.redeemMagicLink(deps, { token: tokenIn(box.sent[2]!, '/welcome')!, client: client() })).toMatchObject({ ok: true, user: { email } });
    });

    it('unknown or a week old, offer nothing and send nothing', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const token = tokenIn(box.sent[0]!, '/welcome')!;
      const unknown = 'A'.repeat(43);
      expect(await auth.maskedSpentLinkTarget(test.db, unknown, clock.now())).toBeNull();
      expect(await auth.renewMagicLink(deps, { token: unknown, client: client() })).toMatchObject({ ok: false, status: 400 });
      clock.advance(7 * 24 * 3600_000 + 1);
      expect(await auth.maskedSpentLinkTarget(test.db, token, clock.now())).toBeNull();
      expect(await auth.renewMagicLink(deps, { token, client: client() })).toMatchObject({ ok: false, status: 400 });
      await flush();
      expect(box.sent).toHaveLength(1);
    });

    it('cannot be used for another purpose', async () => {
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const token = tokenIn(box.sent[0]!, '/welcome')!;
      expect(await auth.resetPassword(deps, { token, newPassword: 'un autre mot de passe long', client: client() })).toMatchObject({ ok: false, status: 400 });
    });
  });

  describe('password reset', () => {
    it('sets the new password within the hour and ends every session', async () => {
      const signed = await auth.login(deps, { email, password: PASSWORD, rememberMe: true, client: client() });
      if (!signed.ok) throw new Error();
      await auth.requestPasswordReset(deps, { email, client: client() });
      await flush();
      const token = tokenIn(box.sent[0]!, '/modifier-mon-mot-de-passe')!;
      // A password that breaks the rules is refused and leaves the link usable.
      expect(await auth.resetPassword(deps, { token, newPassword: 'court', client: client() })).toMatchObject({ ok: false, status: 400 });
      clock.advance(59 * 60_000);
      expect(await auth.resetPassword(deps, { token, newPassword: 'nouveau mot de passe sûr', client: client() })).toEqual({ ok: true });
      expect(await auth.sessionUser(deps, signed.session.token)).toBeNull();
      expect(await auth.login(deps, { email, password: 'nouveau mot de passe sûr', rememberMe: false, client: client() })).toMatchObject({ ok: true });
      expect(await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() })).toMatchObject({ ok: false, status: 401 });
    });

    it('cancels every link sent before it: a pending change of address can no longer act', async () => {
      const attacker = `pirate${n}@exemple.fr`;
      await auth.requestEmailChange(deps, { userId, newEmail: attacker, password: PASSWORD, client: client() });
      await auth.requestPasswordReset(deps, { email, client: client() });
      await flush();
      const change = tokenIn(
        box.sent.find((m) => m.to === attacker)!,
        '/modifier-mon-email',
      )!;
      const reset = tokenIn(
        box.sent.find((m) => m.text.includes('/modifier-mon-mot-de-passe/'))!,
        '/modifier-mon-mot-de-passe',
      )!;
      expect(await auth.resetPassword(deps, { token: reset, newPassword: 'nouveau mot de passe sûr', client: client() })).toEqual({ ok: true });
      expect(await auth.confirmEmailChange(deps, { token: change, client: client() })).toMatchObject({ ok: false, status: 400 });
    });

    it('refuses a link older than one hour', async () => {
      await auth.requestPasswordReset(deps, { email, client: client() });
      await flush();
      clock.advance(60 * 60_000 + 1);
      expect(
        await auth.resetPassword(deps, {
          token: tokenIn(box.sent[0]!, '/modifier-mon-mot-de-passe')!,
          newPassword: 'nouveau mot de passe sûr',
          client: client(),
        }),
      ).toMatchObject({ ok: false, status: 400 });
    });
  });

  describe('signed-in changes', () => {
    it('change the password only with the current one, ending every other session', async () => {
      const here = await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() });
      const elsewhere = await auth.login(deps, { email, password: PASSWORD, rememberMe: true, client: client() });
      if (!here.ok || !elsewhere.ok) throw new Error();
      expect(
        await auth.changePassword(deps, { userId, currentPassword: 'faux mot de passe !', newPassword: 'nouveau mot de passe sûr', persistent: false }),
      ).toMatchObject({ ok: false, status: 403 });
      const changed = await auth.changePassword(deps, { userId, currentPassword: PASSWORD, newPassword: 'nouveau mot de passe sûr', persistent: false });
      if (!changed.ok) throw new Error(changed.message);
      expect(await auth.sessionUser(deps, elsewhere.session.token)).toBeNull();
      expect(await auth.sessionUser(deps, here.session.token)).toBeNull();
      expect(await auth.sessionUser(deps, changed.session.token)).not.toBeNull();
    });

    it('log out the other sessions and keep this one', async () => {
      const here = await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() });
      const elsewhere = await auth.login(deps, { email, password: PASSWORD, rememberMe: false, client: client() });
      if (!here.ok || !elsewhere.ok) throw new Error();
      expect(await auth.logoutOtherSessions(deps, { userId, sessionHash: hashSecret(here.session.token) })).toBe(1);
      expect(await auth.sessionUser(deps, here.session.token)).not.toBeNull();
      expect(await auth.sessionUser(deps, elsewhere.session.token)).toBeNull();
    });

    it('change the address once the new one confirms within 24 hours, telling the old one', async () => {
      const newEmail = `nouvelle${n}@exemple.fr`;
      expect(await auth.requestEmailChange(deps, { userId, newEmail, password: PASSWORD, client: client() })).toEqual({ ok: true });
      await flush();
      expect(box.sent.map((m) => m.to).sort()).toEqual([email, newEmail].sort());
      const confirm = box.sent.find((m) => m.to === newEmail)!;
      clock.advance(23 * 3600_000);
      expect(await auth.confirmEmailChange(deps, { token: tokenIn(confirm, '/modifier-mon-email')!, client: client() })).toEqual({ ok: true, email: newEmail });
      await flush();
      expect(box.sent.at(-1)?.to).toBe(email);
      expect(await auth.login(deps, { email: newEmail, password: PASSWORD, rememberMe: false, client: client() })).toMatchObject({ ok: true });
    });

    it('show whose account a sign-in link opens, masked, without spending it', async () => {
      expect(auth.maskEmail('lea.moreau@exemple.fr')).toBe('l•••@exemple.fr');
      await auth.requestMagicLink(deps, { email, client: client() });
      await flush();
      const token = tokenIn(box.sent[0]!, '/welcome')!;
      expect(await auth.maskedLinkTarget(test.db, token, 'magic_link', clock.now())).toBe(`m•••@exemple.fr`);
      expect(await auth.maskedLinkTarget(test.db, token, 'password_reset', clock.now())).toBeNull();
      // Looking did not spend it.
      expect(await auth.redeemMagicLink(deps, { token, client: client() })).toMatchObject({ ok: true });
      expect(await auth.maskedLinkTarget(test.db, token, 'magic_link', clock.now())).toBeNull();
    });

    it('send nothing to an address another account uses, with the same answer; the old address is told either way', async () => {
      const other = `autre${n}@exemple.fr`;
      await auth.createUser(test.db, { email: other, now: clock.now() });
      expect(await auth.requestEmailChange(deps, { userId, newEmail: other, password: PASSWORD, client: client() })).toEqual({ ok: true });
      await flush();
      expect(box.sent.map((m) => [m.to, m.template])).toEqual([[email, 'email-change-notice']]);
    });

    it('drop a change of address whose link a password change retired before it was mailed', async () => {
      const newEmail = `pirate${n}@exemple.fr`;
      expect(await auth.requestEmailChange(deps, { userId, newEmail, password: PASSWORD, client: client() })).toEqual({ ok: true });
      // The owner changes the password before the job runs (a slow relay, a backlog, a restart).
      const changed = await auth.changePassword(deps, { userId, currentPassword: PASSWORD, newPassword: 'une toute nouvelle phrase', persistent: false });
      expect(changed.ok).toBe(true);
      await flush();
      expect(box.sent.map((m) => m.to)).toEqual([email]);
      expect(box.sent[0]!.template).toBe('password-changed');
    });
  });
});
