import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { withJobs } from '../../../tests/helpers/jobs';
import { fakeClock } from '../core/clock';
import type { Mailer, OutgoingMail } from '../mail/transport';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { confirm, purgeUnconfirmed, setAccountNewsletters, subscribe, unsubscribe } from './service';

const token = (mail: OutgoingMail, name: string) => new RegExp(`${name}=((?:u1\\.[0-9a-f-]{36}\\.)?[A-Za-z0-9_-]{43})`).exec(mail.text)?.[1];

describeEachDialect('newsletter', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let deps: ReturnType<typeof withJobs>;
  const flush = () => deps.flush();
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
    sent = [];
    const mailer: Mailer = {
      send: async (mail) => {
        sent.push(mail);
        return { messageId: 'x' };
      },
    };
    deps = withJobs({ db: test.db, mailer, clock: fakeClock(), siteUrl: new URL('https://contrechamp.example') });
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
    expect(await unsubscribe(deps, { token: link })).toMatchObject({ ok: true });
    expect(await unsubscribe(deps, { token: link })).toMatchObject({ ok: true });
    expect(await status()).toBe('unsubscribed');
  });

  it('keeps the unsubscribe link of the confirmation mail working after confirmation', async () => {
    await subscribe(deps, { email, client: `c${n}` });
    await flush();
    const fromConfirmationMail = token(sent[0]!, 'unsubscribe\\?token')!;
    await confirm(deps, { token: token(sent[0]!, 'confirm\\?token')! });
    await flush();
    expect(await unsubscribe(deps, { token: fromConfirmationMail })).toMatchObject({ ok: true });
    expect(await status()).toBe('unsubscribed');
  });

  it('limits the mails sent to one address', async () => {
    for (let i = 0; i < 5; i++) await subscribe(deps, { email, client: `c${n}-${i}` });
    expect(await subscribe(deps, { email, client: 'autre' })).toMatchObject({ ok: false, status: 429 });
    await flush();
  });

  it('keeps links sent before the u1 tokens working, through their stored hash, and refuses a forged u1 token', async () => {
    await subscribe(deps, { email, client: `c${n}` });
    await flush();
    await confirm(deps, { token: token(sent[0]!, 'confirm\\?token')! });
    await flush();
    // An older mail carried a plain 43-character secret whose SHA-256 the database kept.
    const old = 'ancienLienDeDesinscription0123456789abcdefg';
    await test.db
      .updateTable('newsletter_subscribers')
      .set({ unsubscribe_hash: createHash('sha256').update(old).digest('hex') })
      .where('email', '=', email)
      .execute();
    const current = token(sent[1]!, 'token')!;
    const [, id, mac] = current.split('.');
    const forged = `u1.${id}.${mac!.slice(0, -2)}${mac!.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await unsubscribe(deps, { token: forged })).toMatchObject({ ok: false, status: 400 });
    expect(await status()).toBe('confirmed');
    expect(await unsubscribe(deps, { token: old })).toMatchObject({ ok: true });
    expect(await status()).toBe('unsubscribed');
  });

  it('keeps u1 links working when the unsubscribe key is rotated, and when another key is', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'contrechamp-keys-'));
    const load = async (versions: string) => {
      vi.resetModules();
      vi.stubEnv('DATA_DIR', dataDir);
      vi.stubEnv('APP_SECRET', '');
      vi.stubEnv('RATE_LIMIT_SECRET', '');
      vi.stubEnv('KEY_VERSIONS', versions);
      return import('./service');
    };
    try {
      const before = await load('');
      const link = before.unsubscribeTokenFor('0d8f2a1c-5b7e-4c3a-9f10-2b6d8e4a7c11');
      expect((await load('unsubscribe=2')).unsubscribeTokenFor('0d8f2a1c-5b7e-4c3a-9f10-2b6d8e4a7c11')).not.toBe(link);
      for (const versions of ['unsubscribe=2', 'rate-limit=5,client-key=3']) {
        const service = await load(versions);
        await test.db
          .insertInto('newsletter_subscribers')
          .values({
            id: '0d8f2a1c-5b7e-4c3a-9f10-2b6d8e4a7c11',
            email: `rotation-${versions.length}@exemple.fr`,
            status: 'confirmed',
            unsubscribe_hash: null,
            created_at: '2026-11-21T10:00:00.000Z',
            confirmed_at: null,
            unsubscribed_at: null,
          })
          .execute();
        expect(await service.unsubscribe(deps, { token: link })).toMatchObject({ ok: true });
        await test.db.deleteFrom('newsletter_subscribers').where('id', '=', '0d8f2a1c-5b7e-4c3a-9f10-2b6d8e4a7c11').execute();
      }
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it('erases a sign-up never confirmed after 30 days, and keeps every confirmed or unsubscribed address', async () => {
    const kept = `garde-${n}@exemple.fr`;
    await setAccountNewsletters(deps, { email: kept, newsletters: ['hebdo'] });
    await subscribe(deps, { email, client: `c${n}`, newsletters: ['quotidienne'] });
    await flush();
    expect(await status()).toBe('pending');
    expect(await purgeUnconfirmed(test.db, new Date(deps.clock.now().getTime() + 29 * 86_400_000))).toBe(0);
    expect(await status()).toBe('pending');
    await purgeUnconfirmed(test.db, new Date(deps.clock.now().getTime() + 31 * 86_400_000));
    expect(await status()).toBeUndefined();
    expect((await test.db.selectFrom('newsletter_subscribers').select('status').where('email', '=', kept).executeTakeFirst())?.status).toBe('confirmed');
  });

  it('lets a former supporter keep the supporters’ newsletter they chose, and refuses it to anyone else', async () => {
    const row = { id: '5d0c2a1c-5b7e-4c3a-9f10-2b6d8e4a7c19', email };
    await test.db
      .insertInto('newsletter_subscribers')
      .values({
        id: row.id,
        email,
        status: 'confirmed',
        unsubscribe_hash: null,
        created_at: '2026-11-01T10:00:00.000Z',
        confirmed_at: '2026-11-01T10:00:00.000Z',
        unsubscribed_at: null,
      })
      .execute();
    await test.db
      .insertInto('newsletter_subscriptions')
      .values({
        subscriber_id: row.id,
        newsletter: 'coulisses',
        status: 'confirmed',
        created_at: '2026-11-01T10:00:00.000Z',
        confirmed_at: '2026-11-01T10:00:00.000Z',
        unsubscribed_at: null,
      })
      .execute();
    expect(await setAccountNewsletters(deps, { email, newsletters: ['coulisses', 'hebdo'] })).toEqual({ ok: true });
    expect(await setAccountNewsletters(deps, { email: `autre-${n}@exemple.fr`, newsletters: ['coulisses'] })).toMatchObject({ ok: false, status: 400 });
  });
});
