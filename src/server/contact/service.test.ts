import { afterAll, beforeAll, expect, it } from 'vitest';
import { withJobs } from '../../../tests/helpers/jobs';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { sendContactMessage } from './service';

describeEachDialect('contact form', (kind) => {
  let test: TestDatabase;
  const sent: OutgoingMail[] = [];
  const mailer: Mailer = {
    send: async (mail) => {
      sent.push(mail);
      return { messageId: 'x' };
    },
  };
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  const message = { name: 'Jeanne', email: 'Jeanne@Exemple.fr', subject: 'redaction' as const, message: 'Un message assez long pour passer.', website: '' };

  it('stores the message and mails the newsroom, replying to the sender', async () => {
    const deps = withJobs({ db: test.db, mailer, clock: fakeClock(), siteUrl: new URL('https://contrechamp.example') });
    expect(await sendContactMessage(deps, { ...message, client: 'a' })).toEqual({ ok: true });
    await deps.flush();
    const stored = await test.db.selectFrom('contact_messages').selectAll().where('client_hash', '=', 'a').execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.email).toBe('jeanne@exemple.fr');
    expect(sent.at(-1)).toMatchObject({ to: 'redaction@contrechamp.media', replyTo: 'jeanne@exemple.fr' });
  });

  it('sends each subject to the address the contact page gives for it', async () => {
    const deps = withJobs({ db: test.db, mailer, clock: fakeClock(), siteUrl: new URL('https://contrechamp.example') });
    const routes = {
      abonnement: 'abonnements@contrechamp.media',
      societariat: 'societaires@contrechamp.media',
      partenariat: 'partenariats@contrechamp.media',
      donnees: 'donnees@contrechamp.media',
      autre: 'contact@contrechamp.media',
    } as const;
    for (const [subject, to] of Object.entries(routes)) {
      expect(await sendContactMessage(deps, { ...message, subject: subject as keyof typeof routes, client: `route-${subject}` })).toEqual({ ok: true });
      await deps.flush();
      expect(sent.at(-1), subject).toMatchObject({ to, replyTo: 'jeanne@exemple.fr' });
    }
  });

  it('drops a robot’s message (honeypot) while answering as usual', async () => {
    const deps = withJobs({ db: test.db, mailer, clock: fakeClock(), siteUrl: new URL('https://contrechamp.example') });
    const before = sent.length;
    expect(await sendContactMessage(deps, { ...message, website: 'http://spam.example', client: 'robot' })).toEqual({ ok: true });
    await deps.flush();
    expect(sent.length).toBe(before);
    expect(await test.db.selectFrom('contact_messages').selectAll().where('client_hash', '=', 'robot').execute()).toEqual([]);
  });

  it('limits one client to five messages an hour', async () => {
    const clock = fakeClock();
    const deps = withJobs({ db: test.db, mailer, clock, siteUrl: new URL('https://contrechamp.example') });
    for (let i = 0; i < 5; i++) expect(await sendContactMessage(deps, { ...message, client: 'busy' })).toEqual({ ok: true });
    expect(await sendContactMessage(deps, { ...message, client: 'busy' })).toMatchObject({ ok: false, status: 429 });
    clock.advance(3600_000);
    expect(await sendContactMessage(deps, { ...message, client: 'busy' })).toEqual({ ok: true });
  });
});
