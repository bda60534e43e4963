import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { settled } from '../after-answer';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import type { ServerDeps } from '../core/deps';
import { confirm, subscribe, unsubscribe } from './service';

/** Mails and links are prepared after the answer: wait for that work. */
const flush = () => settled();
const token = (mail: OutgoingMail, name: string) => new RegExp(`${name}=([A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];

describeEachDialect('newsletter', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let deps: ServerDeps;
  let n = 0;
  let email: string;
  beforeAll(async () => { test = await createTestDatabase(kind); });
  afterAll(async () => { await test.close(); });
  beforeEach(() => {
    sent = [];
    const mailer: Mailer = { send: async (mail) => { sent.push(mail); return { messageId: 'x' }; } };
    deps = { db: test.db, mailer, clock: fakeClock(), siteUrl: new URL('https://contrechamp.example') };
    email = `lectrice${++n}@exemple.fr`;
  });
  const status = async () => (await test.db.selectFrom('newsletter_subscribers').select('status').where('email', '=', email).executeTakeFirst())?.status;

  it('subscribes only once the address confirms, then welcomes it with an unsubscribe link', async () => {
    expect(await subscribe(deps, { email: email.toUpperCase(), client: `c${n}` })).toEqual({ ok: true });
    await flush();
    expect(await status()).toBe('pending');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers?.['List-Unsubscribe']).toMatch(/^<https:\/\/contrechamp\.example\/api\/mailinglist\/unsubscribe\?token=/);
    expect(await confirm(deps, { token: token(sent[0]!, 'token')! })).toEqual({ ok: true });
    await flush();
    expect(await status()).toBe('confirmed');
    expect(sent[1]!.text).toMatch(/\/mailinglist\/unsubscribe\?token=/);
    // The confirmation link works once.
    expect(await confirm(deps, { token: token(sent[0]!, 'token')! })).toMatchObject({ ok: false, status: 400 });
  });

  it('answers the same for a subscribed address, and mails it nothing', async () => {
    await subscribe(deps, { email, client: `c${n}` });
    await flush();
    await confirm(deps, { token: token(sent[0]!, 'token')! });
    await flush();
    sent.length = 0;
    expect(await subscribe(deps, { email, client: `c${n}` })).toEqual({ ok: true });
    await flush();
    expect(sent).toEqual([]);
  });

  it('unsubscribes with the link of any newsletter mail, idempotently', async () => {
    await subscribe(deps, { email, client: `c${n}` });
    await flush();
    await confirm(deps, { token: token(sent[0]!, 'token')! });
    await flush();
    const link = token(sent[1]!, 'token')!;
    expect(await unsubscribe(deps, { token: link })).toEqual({ ok: true });
    expect(await unsubscribe(deps, { token: link })).toEqual({ ok: true });
    expect(await status()).toBe('unsubscribed');
  });

  it('keeps the unsubscribe link of the confirmation mail working after confirmation', async () => {
    await subscribe(deps, { email, client: `c${n}` });
    await flush();
    const fromConfirmationMail = token(sent[0]!, 'unsubscribe\\?token')!;
    await confirm(deps, { token: token(sent[0]!, 'confirm\\?token')! });
    await flush();
    expect(await unsubscribe(deps, { token: fromConfirmationMail })).toEqual({ ok: true });
    expect(await status()).toBe('unsubscribed');
  });

  it('limits the mails sent to one address', async () => {
    for (let i = 0; i < 5; i++) await subscribe(deps, { email, client: `c${n}-${i}` });
    expect(await subscribe(deps, { email, client: 'autre' })).toMatchObject({ ok: false, status: 429 });
    await flush();
  });
});
