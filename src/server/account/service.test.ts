import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { createUser, login, sessionUser } from '../auth/service';
import { sendContactMessage } from '../contact/service';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { isSubscribed } from '../newsletter/service';
import { ACCOUNT_PARTS } from './parts';
import { deleteAccount, exportData, profileOf, setNewsletter, updateProfile } from './service';

vi.setConfig({ testTimeout: 20_000 });
const PASSWORD = 'un mot de passe solide';

describeEachDialect('account', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let deps: ReturnType<typeof withJobs>;
  let email: string;
  let userId: string;
  let n = 0;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    sent = [];
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock: fakeClock(), siteUrl: new URL('https://contrechamp.example') });
    email = `personne${++n}@exemple.fr`;
    userId = await createUser(test.db, { email, password: PASSWORD, now: deps.clock.now() });
  });
  const address = { line1: '3 rue du Port', line2: '', postalCode: '44000', city: 'Nantes', country: 'FR' };

  it('saves the name, the address and the newsletter box together; unticking unsubscribes', async () => {
    expect(await updateProfile(deps, { userId, givenName: 'Inès', familyName: 'Durand', address, newsletter: true })).toEqual({ ok: true });
    const user = (await exportData(deps, userId))!;
    expect(user.account).toMatchObject({ given_name: 'Inès', family_name: 'Durand', address });
    expect(await isSubscribed(test.db, email)).toBe(true);
    await updateProfile(deps, { userId, givenName: 'Inès', familyName: 'Durand', address, newsletter: false });
    expect(await isSubscribed(test.db, email)).toBe(false);
  });

  it('leaves the newsletter as it is when a profile change does not mention it; its own form sets it', async () => {
    await setNewsletter(deps, { userId, subscribed: true });
    expect(await isSubscribed(test.db, email)).toBe(true);
    expect(await updateProfile(deps, { userId, givenName: 'Inès', familyName: 'Durand', address: { ...address, country: 'BE' } })).toEqual({ ok: true });
    expect(await isSubscribed(test.db, email)).toBe(true);
    expect(((await exportData(deps, userId))!.account as { address: unknown }).address).toEqual({ ...address, country: 'BE' });
    expect(await setNewsletter(deps, { userId, subscribed: false })).toEqual({ ok: true });
    expect(await isSubscribed(test.db, email)).toBe(false);
    expect(await setNewsletter(deps, { userId: 'inconnu', subscribed: true })).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a profile change for a user who no longer exists, and changes nothing', async () => {
    expect(await updateProfile(deps, { userId: 'inconnu', givenName: 'X', familyName: 'Y', address, newsletter: true })).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await test.db.selectFrom('newsletter_subscribers').select('id').where('email', '=', 'inconnu').execute()).toEqual([]);
  });

  it('exports one key per registered domain, with what each holds about the user', async () => {
    await updateProfile(deps, { userId, givenName: 'Inès', familyName: 'Durand', address, newsletter: true });
    await sendContactMessage(deps, { name: 'Inès', email, subject: 'redaction', message: 'Une question sur un article.', website: '', client: `c${n}` });
    await login(deps, { email, password: PASSWORD, rememberMe: true, client: `c${n}` });
    const data = (await exportData(deps, userId))!;
    expect(Object.keys(data).sort()).toEqual(['exported_at', ...ACCOUNT_PARTS.map((p) => p.name)].sort());
    expect(data.newsletter).toMatchObject({ status: 'confirmed' });
    expect(data.contact_messages).toEqual([expect.objectContaining({ message: 'Une question sur un article.' })]);
    expect((data.account as { sessions: unknown[] }).sessions).toHaveLength(1);
    expect(JSON.stringify(data)).not.toMatch(/password_hash|scrypt\$/);
  });

  it('deletes the account in every domain after checking the password, and acknowledges it by mail', async () => {
    await updateProfile(deps, { userId, givenName: 'Inès', familyName: 'Durand', address, newsletter: true });
    await sendContactMessage(deps, { name: 'Inès', email, subject: 'redaction', message: 'Effacez-moi, merci beaucoup.', website: '', client: `c${n}` });
    const session = await login(deps, { email, password: PASSWORD, rememberMe: false, client: `c${n}` });
    if (!session.ok) throw new Error(session.message);
    await deps.flush();
    sent.length = 0;

    expect(await deleteAccount(deps, { userId, password: 'pas le bon mot de passe' })).toMatchObject({ ok: false, status: 403 });
    expect(await exportData(deps, userId)).not.toBeNull();

    expect(await deleteAccount(deps, { userId, password: PASSWORD })).toEqual({ ok: true });
    expect(await exportData(deps, userId)).toBeNull();
    expect(await sessionUser(deps, session.session.token)).toBeNull();
    expect(await isSubscribed(test.db, email)).toBe(false);
    expect(await test.db.selectFrom('contact_messages').select('id').where('email', '=', email).execute()).toEqual([]);
    expect(deps.wakes).toBeGreaterThan(0);
    await deps.flush();
    expect(sent.map((m) => [m.to, m.template])).toEqual([[email, 'account-deleted']]);
    // What is kept is named as the site issues it: donation receipts, never « reçus fiscaux ».
    const kept = sent[0]!.text.replace(/\s+/g, ' ');
    // The account is greeted by its first name, read before it was erased.
    expect(kept).toContain('Bonjour Inès,');
    expect(kept).toContain('(factures, reçus de dons, registre des sociétaires)');
    expect(kept).not.toMatch(/reçus? fisca/);
  });

  it('shows the newsletter box as the subscription itself', async () => {
    const user = { id: userId, email } as Parameters<typeof profileOf>[1];
    expect((await profileOf(deps, user)).newsletter).toBe(false);
    await updateProfile(deps, { userId, givenName: '', familyName: '', address, newsletter: true });
    expect((await profileOf(deps, user)).newsletter).toBe(true);
  });
});
